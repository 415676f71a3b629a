"""``StateQueries``, the friendly, slower side of ``GameState``: what a state answers
(``observation``, ``returns``, ``outcome``, ``snapshot``...), built from its plain fields.

Kept apart from state.py, the face over the kernels; ``GameState`` inherits these.
"""

from __future__ import annotations

import operator
import warnings
from typing import TYPE_CHECKING, Any

from ttr_lab.core.actions import forgery
from ttr_lab.core.errors import IllegalActionError
from ttr_lab.games.ticket_to_ride.colours import NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.tables import Phase
from ttr_lab.core.history import Event, unroll
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.network import player_components
from ttr_lab.games.ticket_to_ride.observation import observe
from ttr_lab.games.ticket_to_ride.result import outcome_of, score_game
from ttr_lab.games.ticket_to_ride.snapshot import snapshot
from ttr_lab.games.ticket_to_ride.slots import StateSlots
from ttr_lab.games.ticket_to_ride.tensor import state_tensor

if TYPE_CHECKING:
    import numpy as np

    from ttr_lab.games.ticket_to_ride.board import Board
    from ttr_lab.games.ticket_to_ride.observation import Observation
    from ttr_lab.games.ticket_to_ride.result import GameResult
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
    from ttr_lab.games.ticket_to_ride.tables import Tables
    from ttr_lab.core.outcome import Outcome

_PHASES = tuple(Phase)
class StateQueries(StateSlots):
    __slots__ = ()

    # A C-level getter: the game loop asks this once per action.
    current_player = property(operator.attrgetter("player"), doc="The seat to move (the protocol's name for ``player``).")

    @property
    def game(self) -> "Tables":
        """0.2's name for ``tables`` (kept for 0.3 with a DeprecationWarning)."""
        warnings.warn("GameState.game is deprecated: it is GameState.tables now", DeprecationWarning, stacklevel=2)
        return self.tables

    @property
    def num_players(self) -> int:
        return self.tables.num_players

    @property
    def board(self) -> "Board":
        return self.tables.board

    @property
    def ruleset(self) -> "Ruleset":
        return self.tables.ruleset

    @property
    def phase_name(self) -> Phase:
        """The current ``Phase``."""
        return _PHASES[self.phase]

    @property
    def final_round(self) -> bool:
        return self.final_turns >= 0

    @property
    def open(self) -> tuple[int, ...]:
        """Tracks still claimable by someone (not claimed, not closed), in id order."""
        return tuple(sorted(t for group in self.open_groups for t in group))

    # -- reading a position ----------------------------------------------------------------------
    # What a search over full (e.g. determinized) states asks of one, so strategies never read
    # the encoding of the slots. Cheap: no copies beyond what each says.

    @property
    def doubles_shared(self) -> bool:
        """Whether both tracks of a double route may be claimed at this player count."""
        return self.tables.doubles_shared

    @property
    def final_turns_left(self) -> int:
        """Turns left in the final round, the current one included; -1 before it starts."""
        return self.final_turns

    @property
    def tunnel_pending(self) -> Any:
        """The tunnel claim waiting for its extra cards (a ``Claim``: track and the payment laid
        down), or None."""
        index = self.tunnel_claim
        if index < 0:
            return None
        return self.face.actions[int(self.face.g[L.ID_CLAIM]) + index]

    def hand(self, player: int) -> list[int]:
        """``player``'s cards: a count per card kind (a new list)."""
        base = player * NUM_CARD_KINDS
        return self.hands[base:base + NUM_CARD_KINDS]

    def held_tickets(self, player: int) -> tuple[int, ...]:
        """The ids of the tickets ``player`` holds."""
        return self.tickets[player]

    def offered_tickets(self, player: int) -> tuple[int, ...]:
        """The ids of the tickets ``player`` is choosing among (empty when not choosing)."""
        return self.offers[player]

    def trains_left(self, player: int) -> int:
        return self.trains[player]

    def route_points(self, player: int) -> int:
        """Points ``player`` has scored with its claims so far."""
        return self.points[player]

    def track_owner(self, track: int) -> int:
        """The seat holding ``track``, or -1."""
        return self.owner[track]

    @property
    def track_owners(self) -> tuple[int, ...]:
        """Per track id, the seat holding it or -1 (a copy)."""
        return tuple(self.owner)

    def market_card(self, slot: int) -> int:
        """The card kind face up in market ``slot``."""
        return self.market[slot]

    def components(self, player: int) -> list[int]:
        """Per city, the label of its piece of ``player``'s network (``network.player_components``)."""
        return player_components(self.tables.board, self.owner, player)

    def observation_tensor(self, player: int) -> "np.ndarray":
        """``game.observation_tensor(self.observation(player))`` without building the
        ``Observation`` (OpenSpiel's ``state.observation_tensor``; what the RL environments call)."""
        return state_tensor(self, player)

    def observation(self, player: int) -> "Observation":
        """What ``player`` may know: own hand and tickets, public board and counts, public history."""
        return observe(self, player)

    def snapshot(self) -> dict[str, Any]:
        """The full state (hidden parts included) as a plain JSON-serialisable dict."""
        return snapshot(self)

    def result(self) -> "GameResult":
        """Final scores, tickets, longest trails and ranks; only once the game is over."""
        if self.phase != Phase.OVER:
            raise IllegalActionError("result() is only available once the game is over")
        scored = self.scored
        if scored is None:  # the outcome and the record both ask; scoring walks every trail
            scored = self.scored = score_game(self)
        return scored

    def history(self) -> list[Event]:
        """Public history, oldest first (see ``ttr_lab.core.history``)."""
        return unroll(self.log)

    # -- the core's State protocol (see ttr_lab.core.game) -----------------------------------

    def outcome(self) -> "Outcome":
        """The game-agnostic end: score, rank and this game's metrics per player."""
        return outcome_of(self.result(), self.owner)

    def result_data(self) -> dict[str, Any]:
        """The full result as JSON (what a game record stores)."""
        return self.result().to_dict()

    def action_text(self, action: Any) -> str:
        """The text a record stores: the game's own action's (a hand-made claim gets its track's name)."""
        face = self.face
        index = face.by_object.get(id(action))
        if index is not None and face.actions[index] is action:  # one of the game's own actions
            text = face.texts[index]
            if text is None:
                text = face.texts[index] = str(action)
            return text
        index = face.id_of(action)
        if index >= 0 and not forgery(action, face.actions[index]):
            return self.action_text(face.actions[index])
        return str(action)

    def returns(self) -> tuple[float, ...]:
        """Per seat, its win share at the end, 0 before (the core ``State.returns``)."""
        if not self.is_terminal():
            return (0.0,) * self.num_players
        return self.outcome().win_shares()

    def last_event(self) -> tuple[Any, ...]:
        """``(player, public action, colour taken from the market or None)`` of the last action
        applied; ``()`` before any."""
        if self.log is None:
            return ()
        player, action, card = self.log[:3]
        return player, action, None if card < 0 else card

    def _repr_png_(self) -> bytes:
        """A state draws its board in Jupyter (the drawing is the game's own; matplotlib loads lazily)."""
        from ttr_lab.games.ticket_to_ride.drawing import draw_state, png_bytes

        return png_bytes(draw_state(self))

    def __repr__(self) -> str:
        return (
            f"<GameState {self.tables.board.name} {self.tables.num_players}p: player {self.player}, "
            f"{Phase(self.phase).name}, turn {self.turns}>"
        )


