"""``TransOrientExpress``: the game as the platform sees it (the core's ``Game`` protocol).

    game = TransOrientExpress()                       # or load_game("trans_orient")
    game = load_game("trans_orient", deck="/path/to/a/deck/folder")
    state = game.new_game(3, seed=7)

The ``deck`` option names a shipped deck (``standin``, the default: the project's own design,
not the published cards) or a deck folder (see deck.py for the format).
"""

from __future__ import annotations

import functools
import random
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from ttr_lab.core.actions import ActionSpace
from ttr_lab.core.outcome import Metric
from ttr_lab.games.trans_orient.actions import Action, all_actions, parse_action
from ttr_lab.games.trans_orient.cards import Deck
from ttr_lab.games.trans_orient.deck import DEFAULT_DECK, load_deck
from ttr_lab.games.trans_orient.result import METRICS
from ttr_lab.games.trans_orient.rules import MAX_PLAYERS, MIN_PLAYERS, RULES, tables_for, with_rules

if TYPE_CHECKING:
    import numpy as np

    from ttr_lab.games.trans_orient.presentation import TransOrientViews
    from ttr_lab.games.trans_orient.state import GameState

NAME = "trans_orient"


class TransOrientExpress:
    """Trans-Orient Express with one deck: immutable, picklable, equal by the deck's content."""

    name = NAME
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def __init__(self, deck: str | Deck = DEFAULT_DECK, ruleset: Mapping[str, Any] | None = None) -> None:
        self.deck = deck if isinstance(deck, Deck) else load_deck(str(deck))
        if ruleset:
            self.deck = with_rules(self.deck, ruleset)

    def __repr__(self) -> str:
        return f"<TransOrientExpress {self.deck.name} ({self.deck.status})>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TransOrientExpress) and self.deck.fingerprint == other.deck.fingerprint

    def __hash__(self) -> int:
        return hash(self.deck.fingerprint)

    def __reduce__(self) -> tuple:
        return (TransOrientExpress, (self.deck,))

    @property
    def title(self) -> str:
        return self.deck.title

    @property
    def variant(self) -> str:
        return self.deck.name

    @property
    def options(self) -> dict[str, Any]:
        out: dict[str, Any] = {"deck": self.deck.source or self.deck.name}
        if self.deck.rules is not None:
            out["ruleset"] = asdict(self.deck.rules)
        return out

    def rule_parameters(self) -> dict[str, Any]:
        """The rules' numbers a study may vary (deck counts, hand and reserve limits...), with
        this game's values; overrides go in the ``ruleset`` option."""
        return asdict(self.deck.rules or RULES)

    @property
    def metrics(self) -> tuple[Metric, ...]:
        return METRICS

    @staticmethod
    def variants() -> list[dict[str, Any]]:
        """The options of every shipped variant: one per shipped deck."""
        from ttr_lab.games.trans_orient.deck import available_decks

        return [{"deck": name} for name in available_decks()]

    @staticmethod
    def data_folders() -> tuple[str, list[tuple[str, str]], str]:
        """Where the shipped decks' files are (``ttr-lab maps``): the option that takes a deck
        folder, each shipped deck (and the blank template) with its folder, and how to start a
        new one."""
        from importlib import resources

        from ttr_lab.games.trans_orient.deck import available_decks

        root = resources.files("ttr_lab.games.trans_orient.decks")
        return ("deck", [(name, str(root / name)) for name in [*available_decks(), "template"]],
                "copy the template folder (or a deck), fill in deck.toml and its CSV files (travel, luggage, "
                "objectives), then play it with the folder as the deck (-o deck=DIR, or options: {deck: DIR} "
                "in a config)")

    def new_game(self, num_players: int, seed: int) -> "GameState":
        from ttr_lab.games.trans_orient.state import GameState

        return GameState.new(tables_for(self.deck, num_players), seed)

    def parse_action(self, text: str) -> Action:
        return parse_action(text, self.deck)

    @property
    def action_space(self) -> ActionSpace:
        """Every action with its integer id; the order is ``actions.all_actions``'s."""
        return _action_space(self.deck)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of ``observation_tensor``'s arrays (the same at every player count)."""
        from ttr_lab.games.trans_orient.tensor import observation_shape

        return observation_shape(self.deck)

    def tensor_writer(self, player: int) -> "Callable[[Any], np.ndarray]":
        """A seat's ``state -> state.observation_tensor(player)`` that keeps its multi-hot
        blocks between calls and writes only what changed (one per seat of an RL environment)."""
        from ttr_lab.games.trans_orient.tensor import TensorWriter

        return TensorWriter(player)

    def observation_tensor(self, observation: Any) -> "np.ndarray":
        """An ``Observation`` as a float32 vector (layout: ``tensor.layout``, docs/rl.md)."""
        from ttr_lab.games.trans_orient.tensor import observation_tensor

        return observation_tensor(observation)

    def determinize(self, observation: Any, rng: random.Random) -> "GameState":
        """A state consistent with ``observation``, its unknowns sampled with ``rng``
        (``determinize.py``)."""
        from ttr_lab.games.trans_orient.determinize import determinize

        return determinize(observation, rng)

    def restore(self, snapshot: dict[str, Any]) -> "GameState":
        """The state a ``snapshot()`` describes (for hand-built positions)."""
        from ttr_lab.games.trans_orient.restore import restore

        return restore(self.deck, snapshot)

    @property
    def views(self) -> "TransOrientViews":
        """Its presentation: score parts, replays, drawings (``presentation.py``)."""
        from ttr_lab.games.trans_orient.presentation import TransOrientViews

        return TransOrientViews(self)


@functools.lru_cache(maxsize=None)
def _action_space(deck: Deck) -> ActionSpace:
    return ActionSpace(all_actions(deck), f"Trans-Orient Express ({deck.name})")
