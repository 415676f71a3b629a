"""Trans-Orient Express: the card game's rules, with a stand-in deck (not the published cards).

The public rules API for strategies and tests::

    from ttr_lab.games.trans_orient import TransOrientExpress, determinize, scoring
"""

from ttr_lab.games.trans_orient import scoring
from ttr_lab.games.trans_orient.actions import (
    LUGGAGE_KEPT, NO_PLAY, Action, GiveCard, GiveToken, KeepLuggage, LuggageKept, NoPlay, PlaceMaster, Play,
    TakeCard, TakeTokens, parse_action,
)
from ttr_lab.games.trans_orient.cards import (
    Deck, Effect, LuggageCard, LuggageEffect, Objective, ObjectiveType, Scoring, TravelCard,
)
from ttr_lab.games.trans_orient.deck import DeckDataError, available_decks, load_deck
from ttr_lab.games.trans_orient.game import TransOrientExpress
from ttr_lab.games.trans_orient.determinize import determinize
from ttr_lab.games.trans_orient.observation import Observation
from ttr_lab.games.trans_orient.result import METRICS, GameResult, PlayerResult
from ttr_lab.games.trans_orient.rules import RULES, Phase, Rules, columns_for, round_order
from ttr_lab.games.trans_orient.state import GameState

GAME = TransOrientExpress  # what ttr_lab.core.load_game("trans_orient", deck=...) builds

__all__ = [
    "Action", "Deck", "DeckDataError", "Effect", "GAME", "GameResult", "GiveCard", "GiveToken", "KeepLuggage",
    "LUGGAGE_KEPT", "LuggageCard", "LuggageEffect", "LuggageKept", "METRICS", "NO_PLAY", "NoPlay", "Objective",
    "ObjectiveType", "Observation", "Phase", "PlaceMaster", "Play", "PlayerResult", "RULES", "Rules", "Scoring",
    "GameState", "TakeCard", "TakeTokens", "TransOrientExpress", "TravelCard", "available_decks", "columns_for",
    "determinize", "load_deck", "parse_action", "round_order", "scoring",
]


def __getattr__(name: str) -> object:
    # Names renamed for one vocabulary across games (ttr_lab.compat.RENAMED).
    from ttr_lab.compat import renamed_name

    return renamed_name(__name__, name)
