"""ttr-lab: AI strategies play board games (Ticket to Ride first) against each other, by the thousands.

    >>> from ttr_lab import load_game, play_game
    >>> from strategies.random import Random
    >>> record = play_game(load_game("ticket_to_ride", map="usa"), [Random(), Random()], seed=7)

The game-agnostic core is ``ttr_lab.core``; each game is a package under ``ttr_lab.games``
(Ticket to Ride's rules API: ``ttr_lab.games.ticket_to_ride``).
"""

from ttr_lab.core.errors import BoardDataError, ConfigError, IllegalActionError, StrategyError, TTRLabError
from ttr_lab.core.game import Game, State, available_games, load_game
from ttr_lab.core.outcome import Metric, Outcome, PlayerOutcome, Termination
from ttr_lab.core.play import play_game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.strategy import Strategy
from ttr_lab.games.ticket_to_ride.actions import (
    DRAW_BLIND, DRAW_TICKETS, PASS, Action, Claim, DrawBlind, DrawMarket, DrawTickets, KeepTickets,
    Pass, TicketsKept, parse_action,
)
from ttr_lab.games.ticket_to_ride.board import Board, Ticket, Track, available_maps, load_board
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, COLOURS, GRAY, LOCOMOTIVE
from ttr_lab.games.ticket_to_ride.definition import TicketToRide
from ttr_lab.games.ticket_to_ride.determinize import determinize
from ttr_lab.games.ticket_to_ride.game import Phase, game_for
from ttr_lab.games.ticket_to_ride.observation import Observation
from ttr_lab.games.ticket_to_ride.result import GameResult, PlayerResult, TicketResult
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
from ttr_lab.games.ticket_to_ride.state import GameState, new_game, restore_state

__version__ = "0.2.0"

# A library is silent unless its user asks: records go to the "ttr_lab" logger, shown only once
# the application configures logging (``ttr-lab --verbose`` does).
import logging as _logging

_logging.getLogger(__name__).addHandler(_logging.NullHandler())

__all__ = [
    "Action", "Board", "BoardDataError", "CARD_NAMES", "COLOURS", "Claim", "ConfigError", "DRAW_BLIND",
    "DRAW_TICKETS", "DrawBlind", "DrawMarket", "DrawTickets", "GRAY", "Game", "GameRecord", "GameResult",
    "GameState", "IllegalActionError", "KeepTickets", "LOCOMOTIVE", "Metric", "Observation", "Outcome", "PASS",
    "Pass", "Phase", "PlayerOutcome", "PlayerResult", "Ruleset", "State", "Strategy", "StrategyError",
    "TTRLabError", "Termination", "Ticket", "TicketResult", "TicketToRide", "TicketsKept", "Track",
    "available_games", "available_maps", "determinize", "game_for", "load_board", "load_game", "new_game",
    "parse_action", "play_game", "restore_state",
]
