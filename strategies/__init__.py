"""Strategies for Ticket to Ride: one module per strategy; their registered names are in
``strategies/shipped.py``."""
