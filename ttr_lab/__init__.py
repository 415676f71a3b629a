"""ttr-lab: AI strategies play Ticket to Ride against each other, by the thousands.

    >>> from ttr_lab import load_board, new_game, play_game
    >>> from strategies.random import Random
    >>> record = play_game(load_board("usa"), [Random(), Random()], seed=7)
"""

from ttr_lab.games.ticket_to_ride.board import Board, Ticket, Track, available_maps, load_board
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, COLOURS, GRAY, LOCOMOTIVE
from ttr_lab.core.errors import BoardDataError, ConfigError, IllegalActionError, StrategyError, TTRLabError
from ttr_lab.play import play_game
from ttr_lab.record import GameRecord
from ttr_lab.games.ticket_to_ride.actions import (
    DRAW_BLIND, DRAW_TICKETS, PASS, Action, Claim, DrawBlind, DrawMarket, DrawTickets, KeepTickets,
    Pass, TicketsKept, parse_action,
)
from ttr_lab.games.ticket_to_ride.determinize import determinize
from ttr_lab.games.ticket_to_ride.game import Game, Phase, game_for
from ttr_lab.games.ticket_to_ride.observation import Observation
from ttr_lab.games.ticket_to_ride.result import GameResult, PlayerResult, TicketResult
from ttr_lab.games.ticket_to_ride.state import GameState, new_game, restore_state
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
from ttr_lab.core.strategy import Strategy

__version__ = "0.1.0"

__all__ = [
    "Action", "Board", "BoardDataError", "CARD_NAMES", "COLOURS", "Claim", "ConfigError", "DRAW_BLIND",
    "DRAW_TICKETS", "DrawBlind", "DrawMarket", "DrawTickets", "GRAY", "Game", "GameRecord", "GameResult",
    "GameState", "IllegalActionError", "KeepTickets", "LOCOMOTIVE", "Observation", "PASS", "Pass", "Phase",
    "PlayerResult", "Ruleset", "Strategy", "StrategyError", "TTRLabError", "Ticket", "TicketResult",
    "TicketsKept", "Track", "available_maps", "game_for", "load_board", "new_game", "parse_action",
    "play_game", "restore_state", "determinize",
]
