"""Ticket to Ride: the USA base game and its map variants (Legendary Asia)."""
