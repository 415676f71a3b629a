"""Ticket to Ride: the USA base game and its map variants (Legendary Asia)."""

from ttr_lab.games.ticket_to_ride.definition import TicketToRide

GAME = TicketToRide  # what ttr_lab.core.load_game("ticket_to_ride", map=...) builds
