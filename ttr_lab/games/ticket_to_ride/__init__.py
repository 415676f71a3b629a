"""Ticket to Ride: the USA base game and its map variants (Legendary Asia, Europe).

This package is the one import surface of the game's rules: strategies and tools import from
here (``from ttr_lab.games.ticket_to_ride import GameState, Phase, ...``), never from the
modules inside, so the modules may be rearranged without touching them. Each rule that a
strategy needs too (the double-route rule, track points, connectivity) is a function here, and
strategies call it instead of restating it.
"""

from typing import TYPE_CHECKING

from ttr_lab.games.ticket_to_ride.colours import (
    CARD_NAMES, COLOURS, GRAY, LOCOMOTIVE, NUM_CARD_KINDS, NUM_COLOURS, NUM_TRACK_COLOURS, TRACK_COLOUR_NAMES,
    card_index, track_colour_index,
)
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
from ttr_lab.games.ticket_to_ride.board import Board, Ticket, Track, available_maps, load_board
from ttr_lab.games.ticket_to_ride.actions import (
    DECLINE, DRAW_BLIND, DRAW_TICKETS, PASS, Action, ActionTable, BuildStation, Claim, DeclineTunnel, DrawBlind,
    DrawMarket, DrawTickets, KeepTickets, Pass, PayTunnel, TicketsKept, action_table, cheapest_tunnel_answer,
    parse_action, parse_track,
)
from ttr_lab.games.ticket_to_ride.network import (
    connected_components, doubles_shared, player_components, ticket_connected, track_open, twin_blocks, twin_closes,
)
from ttr_lab.games.ticket_to_ride.scoring import longest_trail, points_per_track, rank_order, track_points
from ttr_lab.games.ticket_to_ride.tables import Tables, Phase, tables_for
from ttr_lab.core.history import Event
from ttr_lab.games.ticket_to_ride.observation import Observation
from ttr_lab.games.ticket_to_ride.state import GameState, new_game
from ttr_lab.games.ticket_to_ride.restore import restore_state
from ttr_lab.games.ticket_to_ride.determinize import Determinizer, determinize, determinizer, tunnel_fields
from ttr_lab.games.ticket_to_ride.result import GameResult, PlayerResult, TicketResult
from ttr_lab.games.ticket_to_ride.game import TicketToRide

GAME = TicketToRide  # what ttr_lab.core.load_game("ticket_to_ride", map=...) builds

__all__ = [
    # colours
    "CARD_NAMES", "COLOURS", "GRAY", "LOCOMOTIVE", "NUM_CARD_KINDS", "NUM_COLOURS", "NUM_TRACK_COLOURS",
    "TRACK_COLOUR_NAMES", "card_index", "track_colour_index",
    # the map and the numbers of the rules
    "Board", "Ruleset", "Ticket", "Track", "available_maps", "load_board",
    # actions
    "DECLINE", "DRAW_BLIND", "DRAW_TICKETS", "PASS", "Action", "ActionTable", "BuildStation", "Claim",
    "DeclineTunnel", "DrawBlind", "DrawMarket", "DrawTickets", "KeepTickets", "Pass", "PayTunnel", "TicketsKept",
    "action_table", "cheapest_tunnel_answer", "parse_action", "parse_track",
    # rules strategies share with the engine
    "connected_components", "doubles_shared", "longest_trail", "player_components", "points_per_track",
    "rank_order", "ticket_connected", "track_open", "track_points", "twin_blocks", "twin_closes",
    # games, states and what they show
    "Event", "Tables", "GameResult", "GameState", "Observation", "Phase", "PlayerResult", "TicketResult",
    "Determinizer", "determinize", "determinizer", "tables_for", "new_game", "restore_state", "tunnel_fields",
    # the game as the platform sees it
    "GAME", "TicketToRide",
]


if not TYPE_CHECKING:  # hidden from the type checker, which then refuses a misspelt name here
    def __getattr__(name: str) -> object:
        # Names renamed for one vocabulary across games (ttr_lab.compat.RENAMED), with a warning.
        from ttr_lab.compat import renamed_name

        return renamed_name(__name__, name)
