"""``StateQueries``, the friendly, slower side of ``GameState``: what a state answers
(``observation``, ``returns``, ``outcome``, ``snapshot``...), built from its plain fields.

Kept apart from state.py so the hot path there stays small; ``GameState`` inherits these.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from ttr_lab.core.errors import IllegalActionError
from ttr_lab.games.trans_orient.actions import ACTION_TYPES, GiveToken
from ttr_lab.core.history import Event, unroll
from ttr_lab.games.trans_orient.observation import observe
from ttr_lab.games.trans_orient.rules import Phase
from ttr_lab.games.trans_orient.slots import StateSlots

if TYPE_CHECKING:
    import numpy as np

    from ttr_lab.core.outcome import Outcome
    from ttr_lab.games.trans_orient.cards import Deck
    from ttr_lab.games.trans_orient.observation import Observation
    from ttr_lab.games.trans_orient.result import GameResult
    from ttr_lab.games.trans_orient.rules import Tables

_PHASE_REASONS = {
    Phase.TAKE: "the mandatory action comes first: 'take card N' or 'take tokens N'",
    Phase.STATION: "the round's first player must first place the station master ('station master N')",
    Phase.PLAY: "this is the optional action: 'play N' or 'no play'",
    Phase.LUGGAGE: "the player must first keep one of the luggage cards drawn ('keep luggage N')",
    Phase.GIVE_CARD: "the hand holds more than 2 cards: 'give back card N' first",
    Phase.GIVE_TOKEN: "the reserve is over its limit: 'give back COLOUR' first",
    Phase.OVER: "the game is over",
}


class StateQueries(StateSlots):
    __slots__ = ()

    @property
    def current_player(self) -> int:
        return self.player

    @property
    def setup(self) -> "Tables":
        """0.2's name for ``tables`` (kept for 0.3 with a DeprecationWarning)."""
        warnings.warn("GameState.setup is deprecated: it is GameState.tables now", DeprecationWarning, stacklevel=2)
        return self.tables

    @property
    def num_players(self) -> int:
        return self.tables.num_players

    @property
    def deck_data(self) -> "Deck":
        return self.tables.deck

    @property
    def phase_name(self) -> Phase:
        return Phase(self.phase)

    def _phase_reason(self, action: Any) -> str:
        if not isinstance(action, ACTION_TYPES):
            return f"{type(action).__name__} is not an action (use legal_actions() or parse_action())"
        return _PHASE_REASONS[Phase(self.phase)]

    def observation_tensor(self, player: int) -> "np.ndarray":
        """``game.observation_tensor(self.observation(player))`` without building the
        ``Observation`` (OpenSpiel's ``state.observation_tensor``; what the RL environments call)."""
        from ttr_lab.games.trans_orient.tensor import state_tensor

        return state_tensor(self, player)

    def observation(self, player: int) -> "Observation":
        """What ``player`` may know: everything public, its own luggage, its own luggage draw."""
        return observe(self, player)

    def snapshot(self) -> dict[str, Any]:
        """The full state (hidden parts included) as a plain JSON-serialisable dict."""
        from ttr_lab.games.trans_orient.snapshot import snapshot

        return snapshot(self)

    def history(self) -> list[Event]:
        return unroll(self.log)

    def result(self) -> "GameResult":
        """Final scores and their parts; only once the game is over."""
        from ttr_lab.games.trans_orient.result import score_game

        state = self  # this mixin is only ever part of the state
        if not state.is_terminal():
            raise IllegalActionError("result() is only available once the game is over")
        return score_game(state)

    # -- the core's State protocol (see ttr_lab.core.game) -----------------------------------

    def outcome(self) -> "Outcome":
        from ttr_lab.games.trans_orient.result import outcome_of

        return outcome_of(self.result())

    def result_data(self) -> dict[str, Any]:
        return self.result().to_dict()

    def action_text(self, action: Any) -> str:
        """The text a record stores; a hand-made token return gets its colour's name."""
        if type(action) is GiveToken and not action.label and 0 <= action.colour < self.tables.colours:
            action = self.tables.actions.give_token[action.colour]
        return str(action)

    def returns(self) -> tuple[float, ...]:
        """Per seat, its win share at the end, 0 before (the core ``State.returns``)."""
        if not self.is_terminal():
            return (0.0,) * self.num_players
        return self.outcome().win_shares()

    def last_event(self) -> tuple[Any, ...]:
        """``(player, public action, travel card moved or None)`` of the last action applied; a
        luggage keep shows as ``LuggageKept`` (which card is secret); ``()`` before any."""
        if self.log is None:
            return ()
        player, action, card = self.log[:3]
        return player, action, card or None

    def __repr__(self) -> str:
        return (f"<GameState {self.tables.deck.name} {self.num_players}p: round {self.round}, player {self.player}, "
                f"{Phase(self.phase).name}, turn {self.turns}>")
