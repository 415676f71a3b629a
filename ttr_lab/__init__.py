"""ttr-lab: AI strategies play board games against each other, by the thousands.

    >>> from ttr_lab import load_game, play_game
    >>> from ttr_lab.strategies.random import Random
    >>> record = play_game(load_game("ticket_to_ride", map="usa"), [Random(), Random()], seed=7)

The top level holds the game-agnostic core (``ttr_lab.core``); each game is a package under
``ttr_lab.games`` with its own public surface (Ticket to Ride's: ``ttr_lab.games.ticket_to_ride``).
"""

from typing import Any as _Any

from ttr_lab.core.errors import BoardDataError, ConfigError, IllegalActionError, StrategyError, TTRLabError
from ttr_lab.core.game import Game, State, available_games, load_game
from ttr_lab.core.outcome import Metric, Outcome, PlayerOutcome, Termination
from ttr_lab.core.play import play_game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.strategy import Strategy

__version__ = "0.2.0"

# A library is silent unless its user asks: records go to the "ttr_lab" logger, shown only once
# the application configures logging (``ttr-lab --verbose`` does).
import logging as _logging

_logging.getLogger(__name__).addHandler(_logging.NullHandler())

__all__ = [
    "BoardDataError", "ConfigError", "Game", "GameRecord", "IllegalActionError", "Metric", "Outcome",
    "PlayerOutcome", "State", "Strategy", "StrategyError", "TTRLabError", "Termination", "available_games",
    "load_game", "play_game",
]


def __getattr__(name: str) -> _Any:
    # Ticket to Ride's names the top level used to re-export (ttr_lab.compat.OLD_TOP_LEVEL).
    from ttr_lab import compat

    return compat.old_top_level_name(name)
