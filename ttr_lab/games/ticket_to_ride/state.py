"""``GameState``: one position, as the compiled kernels' state array with a thin Python face.

The rules live once, in ``kernels/`` (setup, card flow, legal action ids, apply, scoring): this
face hands a kernel the game's table array and the state array, and turns what comes back into
the values strategies and users know (the shared action objects, ``IllegalActionError`` with the
rule's reason). What a kernel does not keep stays here: the public history (an immutable linked
list shared by every clone) and the cached result.

Strategies and views read a position through the named fields below (``hands``, ``owner``,
``tickets``...): each is a fresh Python list or tuple read off the array, so nothing a caller
does to it reaches the game; assigning a field (``state.pile = [...]``) writes it back, for
tools that build positions by hand. The friendlier queries (``observation``, ``snapshot``,
``result``, ``history``...) come from ``StateViews`` in views.py.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Sequence

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
from ttr_lab.games.ticket_to_ride.kernels.tables import game_array
from ttr_lab.games.ticket_to_ride.observation import Viewer
from ttr_lab.games.ticket_to_ride.refusals import refusal
from ttr_lab.games.ticket_to_ride.views import StateViews

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
        "game", "g", "actions", "table", "by_object", "by_value", "ids", "scratch", "fields", "size", "viewer", "texts",
    )

    def __init__(self, game: Tables) -> None:
        self.game = game
        self.g = g = game_array(game)
        self.actions = all_actions(game.board, game.ruleset)
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
        n, nt = game.num_players, int(g[L.N_TICKETS])
        # Per field: where it starts and how long it is (fixed-length fields only).
        self.fields = {
            "hands": (int(g[L.S_HANDS]), n * L.KINDS), "known": (int(g[L.S_KNOWN]), n * L.KINDS),
            "discard": (int(g[L.S_DISCARD]), L.KINDS), "owner": (int(g[L.S_OWNER]), len(game.track_length)),
            "trains": (int(g[L.S_TRAINS]), n), "points": (int(g[L.S_POINTS]), n),
            "tickets_n": (int(g[L.S_TICKETS_N]), n), "offers_n": (int(g[L.S_OFFERS_N]), n),
            "pile": (int(g[L.S_PILE]), len(game.deck)), "market": (int(g[L.S_MARKET]), game.ruleset.market_size),
            "tickets": (int(g[L.S_TICKETS]), nt), "offers": (int(g[L.S_OFFERS]), int(g[L.MAX_OFFER])),
            "deck": (int(g[L.S_DECK]), nt), "returned": (int(g[L.S_RETURNED]), nt),
            "boxed": (int(g[L.S_BOXED]), nt), "boxed_by": (int(g[L.S_BOXED_BY]), nt),
        }

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
        return face_of, (self.game,)


@functools.lru_cache(maxsize=256)
def face_of(game: Tables) -> Face:
    return Face(game)


def _fixed(name: str, doc: str) -> property:
    def get(self: "GameState") -> list[int]:
        at, count = self.face.fields[name]
        return self.s[at:at + count].tolist()

    def put(self: "GameState", values: Sequence[int]) -> None:
        at, count = self.face.fields[name]
        if len(values) != count:
            raise ValueError(f"{name} holds {count} numbers, not {len(values)}")
        self.s[at:at + count] = values
        self.scored = None

    return property(get, put, doc=doc)


def _counted(name: str, count_slot: int, doc: str, kind: type = list) -> property:
    """A field whose length the state keeps in one of its fixed slots (the pile, the market...)."""

    def get(self: "GameState") -> Any:
        at = self.face.fields[name][0]
        values = self.s[at:at + int(self.s[count_slot])].tolist()
        return values if kind is list else kind(values)

    def put(self: "GameState", values: Sequence[int]) -> None:
        at, room = self.face.fields[name]
        if len(values) > room:
            raise ValueError(f"{name} has room for {room}, not {len(values)}")
        self.s[at:at + len(values)] = values
        self.s[count_slot] = len(values)
        self.scored = None

    return property(get, put, doc=doc)


def _per_player(name: str, doc: str) -> property:
    """Tickets held or on offer: a tuple of ticket ids per player."""

    def get(self: "GameState") -> list[tuple[int, ...]]:
        at, room = self.face.fields[name]
        counts = self.s[self.face.fields[name + "_n"][0]:][:self.face.game.num_players].tolist()
        flat = self.s[at:at + room * len(counts)].tolist()
        return [tuple(flat[p * room:p * room + c]) for p, c in enumerate(counts)]

    def put(self: "GameState", values: Sequence[Sequence[int]]) -> None:
        at, room = self.face.fields[name]
        for p, row in enumerate(values):
            if len(row) > room:
                raise ValueError(f"{name} of player {p} has room for {room}, not {len(row)}")
            self.s[at + p * room:at + p * room + len(row)] = row
            self.s[self.face.fields[name + "_n"][0] + p] = len(row)
        self.scored = None

    return property(get, put, doc=doc)


def _ring(name: str, doc: str) -> property:
    """The ticket deck (top first) or, per deck position, who put that ticket back: one ring in
    the array, read from its head."""

    def get(self: "GameState") -> tuple[int, ...]:
        at, room = self.face.fields[name]
        head, count = int(self.s[L.DECK_HEAD]), int(self.s[L.DECK_N])
        if head + count <= room:
            return tuple(self.s[at + head:at + head + count].tolist())
        ring = self.s[at:at + room].tolist()
        return tuple(ring[head:] + ring[:head + count - room])

    def put(self: "GameState", values: Sequence[int]) -> None:
        deck, returned = (values, self.returned_by) if name == "deck" else (self.ticket_deck, values)
        if len(returned) != len(deck):  # a new deck: nobody has put any of it back
            returned = (-1,) * len(deck)
        at, room = self.face.fields["deck"]
        if len(deck) > room:
            raise ValueError(f"the ticket deck has room for {room}, not {len(deck)}")
        r_at = self.face.fields["returned"][0]
        self.s[at:at + len(deck)] = deck
        self.s[r_at:r_at + len(deck)] = returned
        self.s[L.DECK_HEAD] = 0
        self.s[L.DECK_N] = len(deck)
        self.scored = None

    return property(get, put, doc=doc)


def _slot(index: int, doc: str, kind: type = int) -> property:
    # ``item`` hands out a Python int without a numpy scalar between: read at every move.
    if kind is int:
        def get(self: "GameState") -> Any:
            return self.s.item(index)
    else:
        def get(self: "GameState") -> Any:
            return kind(self.s.item(index))

    def put(self: "GameState", value: Any) -> None:
        self.s[index] = int(value)
        self.scored = None

    return property(get, put, doc=doc)


class Fields:
    """Every field of a position as plain Python values, read off the array in one pass, for
    tools and tests that read many fields at once (a field of the state itself is a fresh read
    each time it is asked; the observation reads its own row, ``kernels/observe.py``)."""

    __slots__ = (
        "phase", "player", "final_turns", "passes", "turns", "hands", "known", "pile", "discard", "market",
        "owner", "trains", "points", "tickets", "offers", "ticket_deck", "returned_by", "boxed", "boxed_by",
    )

    def __init__(self, face: Face, s: np.ndarray) -> None:
        v = s.tolist()
        f = face.fields
        self.phase, self.player, self.final_turns, self.passes, self.turns = v[0], v[1], v[2], v[3], v[4]

        def run(name: str, count: int | None = None) -> list[int]:
            at, room = f[name]
            return v[at:at + (room if count is None else count)]

        self.hands, self.known, self.discard = run("hands"), run("known"), run("discard")
        self.owner, self.trains, self.points = run("owner"), run("trains"), run("points")
        self.pile, self.market = run("pile", v[L.PILE_N]), run("market", v[L.MARKET_N])
        self.boxed, self.boxed_by = tuple(run("boxed", v[L.BOXED_N])), tuple(run("boxed_by", v[L.BOXED_N]))
        n = face.game.num_players
        at, room = f["tickets"]
        counts = run("tickets_n")
        self.tickets = [tuple(v[at + p * room:at + p * room + counts[p]]) for p in range(n)]
        at, room = f["offers"]
        counts = run("offers_n")
        self.offers = [tuple(v[at + p * room:at + p * room + counts[p]]) for p in range(n)]
        at, room = f["deck"]
        r_at = f["returned"][0]
        head, count = v[L.DECK_HEAD], v[L.DECK_N]
        if head + count <= room:
            self.ticket_deck = tuple(v[at + head:at + head + count])
            self.returned_by = tuple(v[r_at + head:r_at + head + count])
        else:
            ring, returned = v[at:at + room], v[r_at:r_at + room]
            self.ticket_deck = tuple(ring[head:] + ring[:head + count - room])
            self.returned_by = tuple(returned[head:] + returned[:head + count - room])


class GameState(StateViews):
    """One position of a game. Mutable: ``apply`` changes it in place; ``clone`` copies it."""

    __slots__ = ("game", "face", "s", "log", "log_len", "scored")

    phase = _slot(L.PHASE, "The phase number (``Phase``).")
    player = _slot(L.PLAYER, "The seat to move.")
    # The protocol's name for it, read at every move of every game: the same slot, not a
    # property reading the property ``player``.
    current_player = player
    final_turns = _slot(L.FINAL_TURNS, "Turns left in the final round; -1 before it starts.")
    passes = _slot(L.PASSES, "Passes in a row.")
    turns = _slot(L.TURNS, "Normal turns played.")
    stalled = _slot(L.STALLED, "Whether a full round of passes ended the game.", bool)
    hands = _fixed("hands", "Every hand: ``hands[p * 9 + kind]`` cards of that kind.")
    known = _fixed("known", "Cards each player is publicly known to hold, as ``hands``.")
    discard = _fixed("discard", "The discard pile, a count per kind.")
    owner = _fixed("owner", "Per track, the seat holding it, or -1.")
    trains = _fixed("trains", "Trains left per player.")
    points = _fixed("points", "Route points scored so far per player.")
    pile = _counted("pile", L.PILE_N, "The draw pile, card kinds, top last.")
    market = _counted("market", L.MARKET_N, "The face-up cards, slot by slot.")
    boxed = _counted("boxed", L.BOXED_N, "Tickets out of the game.", tuple)
    boxed_by = _counted("boxed_by", L.BOXED_N, "Who put each boxed ticket there (-1: nobody saw it).", tuple)
    tickets = _per_player("tickets", "Per player, the tickets held.")
    offers = _per_player("offers", "Per player, the tickets on offer (empty when not choosing).")
    ticket_deck = _ring("deck", "The ticket deck, top first.")
    returned_by = _ring("returned", "Per deck position, the seat that put that ticket back, or -1.")

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
        return self.game.open_groups(self.owner)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def new(cls, game: Tables, seed: int) -> "GameState":
        """Shuffle, deal cards and market, deal the initial tickets (each player then chooses)."""
        face = face_of(game)
        return _state(face, new_state(face.g, np.uint64(derive_seed(seed, DEAL_KEY))), None, 0)

    def clone(self) -> "GameState":
        """An independent copy (the history is shared: it is never mutated)."""
        return _state(self.face, self.s.copy(), self.log, self.log_len)

    __copy__ = clone

    # -- the rules, through the kernels ----------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.s.item(L.PHASE) == L.OVER

    def legal_actions(self) -> list[Action]:
        """Every legal action, in a fixed order: draws, tickets, then claims (by track colour,
        length, track id, payment colour, locomotives); during a ticket choice, the subsets to
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


def _state(face: Face, s: np.ndarray, log: Any, log_len: int) -> GameState:
    st = _new_object(GameState)
    st.game = face.game
    st.face = face
    st.s = s
    st.log = log
    st.log_len = log_len
    st.scored = None
    return st


def assemble_state(
    game: Tables, phase: int, player: int, hands: list[int], known: list[int], pile: list[int],
    discard: list[int], market: list[int], owner: list[int], trains: list[int], points: list[int],
    tickets: list[tuple[int, ...]], offers: list[tuple[int, ...]], ticket_deck: tuple[int, ...],
    returned_by: tuple[int, ...], boxed: tuple[int, ...], boxed_by: tuple[int, ...], rng: int,
    final_turns: int = -1, passes: int = 0, turns: int = 0, stalled: bool = False, log: Any = None,
    log_len: int = 0, open_groups: Any = None,
) -> GameState:
    """The one place a ``GameState`` is built from its parts: ``restore_state`` and ``determinize``
    come through here, so a new field is added here once. To start or rebuild a game use those,
    not this. (``open_groups`` is derived from ``owner``; the argument is accepted and ignored.)"""
    face = face_of(game)
    st = _state(face, np.zeros(face.size, dtype=np.int64), log, log_len)
    s = st.s
    s[L.PHASE], s[L.PLAYER], s[L.FINAL_TURNS] = phase, player, final_turns
    s[L.PASSES], s[L.TURNS], s[L.STALLED] = passes, turns, int(stalled)
    s[L.LAST_CARD] = log[2] if log is not None and type(log[1]) is DrawMarket else _NO_CARD
    st.rng = rng
    st.hands, st.known, st.discard, st.owner = hands, known, discard, owner
    st.trains, st.points = trains, points
    st.pile, st.market, st.boxed, st.boxed_by = pile, market, boxed, boxed_by
    st.tickets, st.offers = tickets, offers
    st.ticket_deck = ticket_deck
    st.returned_by = returned_by
    return st


def new_game(board: "Board", num_players: int, seed: int, ruleset: "Ruleset | None" = None) -> GameState:
    """A new seeded game: cards and tickets dealt; player 0 first chooses initial tickets."""
    return GameState.new(tables_for(board, num_players, ruleset), seed)
