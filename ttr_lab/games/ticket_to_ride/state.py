"""``GameState``: one position, as the compiled kernels' state array with a thin Python face.

The rules live once, in ``kernels/`` (setup, card flow, legal action ids, apply, scoring): this
face hands a kernel the game's table array and the state array, and turns what comes back into
the values strategies and users know (the shared action objects, ``IllegalActionError`` with the
rule's reason). What a kernel does not keep stays here: the public history (an immutable linked
list shared by every clone) and the cached result.

Strategies and the queries read a position through the named fields below (``hands``, ``owner``,
``tickets``...): each is a fresh Python list or tuple read off the array, so nothing a caller
does to it reaches the game; assigning a field (``state.pile = [...]``) writes it back, for
tools that build positions by hand. The friendlier queries (``observation``, ``snapshot``,
``result``, ``history``...) come from ``StateQueries`` in queries.py.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from ttr_lab.core.actions import forgery
from ttr_lab.core.errors import IllegalActionError
from ttr_lab.games.ticket_to_ride.kernels.rng import DEAL_KEY, derive_seed
from ttr_lab.games.ticket_to_ride.actions import Action, Claim, DrawMarket, KeepTickets, TicketsKept, all_actions
from ttr_lab.games.ticket_to_ride.tables import Tables, Phase, tables_for
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.games.ticket_to_ride.kernels.setup import new_state
from ttr_lab.games.ticket_to_ride.kernels.game_array import game_array
from ttr_lab.games.ticket_to_ride.fields import Fields, face_names, field_rooms, install
from ttr_lab.games.ticket_to_ride.observation import Viewer
from ttr_lab.games.ticket_to_ride.refusals import refusal
from ttr_lab.games.ticket_to_ride.queries import StateQueries

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.board import Board
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

_NO_CARD = L.NO_CARD
_MASK = (1 << 64) - 1
_new_object = object.__new__


class Face:
    """What every state of one ``Tables`` shares: the kernels' table array, the action objects by
    id (the action space's own), their ids by object and by value, the kernels' buffers, and the
    observation's ``Viewer``."""

    __slots__ = (
        "tables", "g", "actions", "table", "by_object", "by_value", "ids", "scratch", "fields", "size", "viewer", "texts",
    )

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.g = g = game_array(tables)
        self.actions = all_actions(tables.board, tables.ruleset)
        # The same objects as a numpy array: ``table[ids]`` picks a legal list in one step.
        self.table = np.empty(len(self.actions), dtype=object)
        for i, a in enumerate(self.actions):
            self.table[i] = a  # one by one: numpy would unpack an action that is a sequence
        self.by_object = {id(a): i for i, a in enumerate(self.actions)}
        self.by_value = {a: i for i, a in enumerate(self.actions)}
        self.ids = np.empty(int(g[L.N_ACTIONS]), dtype=np.int64)
        self.scratch = np.empty(int(g[L.N_ACTIONS]), dtype=np.int64)
        self.size = int(g[L.S_SIZE])
        self.viewer = Viewer(g)
        # A record's text per action id, made the first time it is asked for: the text of a claim
        # spells its track and payment, dear to build at every move of every recorded game.
        self.texts: list[str | None] = [None] * len(self.actions)
        # Per field: where it starts and its room (per row, for rows): from the declaration.
        self.fields = field_rooms(tables)

    def id_of(self, action: Any) -> int:
        """The id of ``action`` (the game's own object, or an equal value), -1 if it is none of
        the game's actions."""
        index = self.by_object.get(id(action))
        if index is None:
            try:
                index = self.by_value.get(action)
            except TypeError:  # an unhashable object is no action
                index = None
        return -1 if index is None else index

    def __reduce__(self) -> tuple[Any, ...]:
        # Its ids by object are this process's ``id()``s: a copy elsewhere is built afresh.
        return face_of, (self.tables,)


@functools.lru_cache(maxsize=256)
def face_of(tables: Tables) -> Face:
    return Face(tables)


class GameState(StateQueries):
    """One position of a game. Mutable: ``apply`` changes it in place; ``clone`` copies it."""

    __slots__ = ("tables", "face", "s", "log", "log_len", "scored")

    # Every declared field (``phase``, ``hands``, ``ticket_deck``...) is a property, given after
    # the class by ``fields.install``; the type checker reads them in ``slots.StateSlots``.

    @property
    def rng(self) -> int:
        """The engine's SplitMix64 state (shuffles)."""
        return int(self.s[L.RNG]) & _MASK

    @rng.setter
    def rng(self, value: int) -> None:
        x = int(value) & _MASK
        self.s[L.RNG] = x - (1 << 64) if x >> 63 else x

    def fields(self) -> Fields:
        """Every field at once, as plain Python values (a copy)."""
        return Fields(self.face, self.s)

    @property
    def open_groups(self) -> list[tuple[int, ...]]:
        """The still-claimable tracks of each payment group."""
        return self.tables.open_groups(self.owner)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def new(cls, tables: Tables, seed: int) -> "GameState":
        """Shuffle, deal cards and market, deal the initial tickets (each player then chooses)."""
        face = face_of(tables)
        return _state(face, new_state(face.g, np.uint64(derive_seed(seed, DEAL_KEY))), None, 0)

    def clone(self) -> "GameState":
        """An independent copy (the history is shared: it is never mutated)."""
        return _state(self.face, self.s.copy(), self.log, self.log_len)

    __copy__ = clone

    # -- the rules, through the kernels ----------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.s.item(L.PHASE) == L.OVER

    def legal_actions(self) -> list[Action]:
        """Every legal action, in a fixed order: draws, tickets, station builds (by city, payment
        colour, locomotives), then claims (by track colour, length, track id, payment colour,
        locomotives); during a ticket choice, the subsets to
        keep. ``[PASS]`` when nothing else is legal; ``[]`` once the game is over. The actions are
        the game's shared objects (those of ``action_space``)."""
        face = self.face
        ids = face.ids
        return face.table[ids[:legal_ids(face.g, self.s, ids)]].tolist()

    def legal_action_ids(self) -> list[int]:
        """The ids (``action_space``) of ``legal_actions()``, in the same order."""
        face = self.face
        return face.ids[:legal_ids(face.g, self.s, face.ids)].tolist()

    def apply(self, action: Action) -> None:
        """Play ``action`` for the current player; ``IllegalActionError`` says why if it can't be."""
        face = self.face
        index = face.by_object.get(id(action))  # the common case inline: apply runs at every move
        if index is None:
            index = face.id_of(action)
            if index < 0:
                raise IllegalActionError(self._refusal_text(action, refusal(self, action, None)))
            # An equal value: applied and logged as the game's own object, once it is that in
            # every field (its text included), so what is recorded is what was played.
            lie = forgery(action, face.actions[index])
            if lie:
                raise IllegalActionError(self._refusal_text(action, f"{lie} (ask legal_actions() or parse_action())"))
            action = face.actions[index]
        player = self.s.item(L.PLAYER)
        code = apply_action(face.g, self.s, index, face.scratch)
        if code:
            raise IllegalActionError(self._refusal_text(action, refusal(self, action, code)))
        if type(action) is KeepTickets:
            public: Any = TicketsKept(len(action.indices))
            card = _NO_CARD
        else:
            public = action
            card = self.s.item(L.LAST_CARD) if type(action) is DrawMarket else _NO_CARD
        self.log = (player, public, card, self.log)
        self.log_len += 1
        self.scored = None

    def _refusal_text(self, action: Any, reason: str) -> str:
        return f"illegal action {str(action)!r} for player {int(self.s[L.PLAYER])}: {reason}"


install(GameState)
# The protocol's name for the seat to move, read at every move of every game: the same slot's
# property, not a property reading the property ``player``.
setattr(GameState, "current_player", vars(GameState)["player"])


def _state(face: Face, s: np.ndarray, log: Any, log_len: int) -> GameState:
    st = _new_object(GameState)
    st.tables = face.tables
    st.face = face
    st.s = s
    st.log = log
    st.log_len = log_len
    st.scored = None
    return st


def assemble_state(tables: Tables, log: Any = None, log_len: int = 0, open_groups: Any = None, **fields: Any) -> GameState:
    """The one place a ``GameState`` is built from its parts: ``restore_state`` and ``determinize``
    come through here. ``fields`` are the declared fields by their face's names (``hands``,
    ``ticket_deck``...; ``layout.STATE``); one not given holds its declared fill (a list, the
    pile, the tickets empty). To start or rebuild a game use those, not this. (``open_groups``
    is derived from ``owner``; the argument is accepted and ignored.)"""
    face = face_of(tables)
    st = _state(face, np.zeros(face.size, dtype=np.int64), log, log_len)
    unknown = set(fields) - set(face_names())
    if unknown:
        raise TypeError(f"assemble_state() got fields the state does not declare: {', '.join(sorted(unknown))}")
    for part in L.STATE.parts:
        name = part.face_name
        if name in fields:
            setattr(st, name, fields[name])
        elif part.fill and part.kind == "scalar":
            setattr(st, name, part.fill)
        elif part.fill and part.kind == "fixed":
            at, room = face.fields[part.name]
            st.s[at:at + room] = part.fill
    st.s[L.LAST_CARD] = log[2] if log is not None and type(log[1]) is DrawMarket else _NO_CARD
    return st


def new_game(board: "Board", num_players: int, seed: int, ruleset: "Ruleset | None" = None) -> GameState:
    """A new seeded game: cards and tickets dealt; player 0 first chooses initial tickets."""
    return GameState.new(tables_for(board, num_players, ruleset), seed)
