"""Strategies for Ticket to Ride (``ttr_lab.games.ticket_to_ride``): one module per strategy; their
registered names are in ``strategies/shipped.py``."""
