"""``Observation``: one player's information set, and nothing more.

Built from one row of numbers a kernel writes (``kernels/observe.py``: the public fields and the
player's own private fields), sliced into immutable tuples; it keeps no reference to the state,
so a strategy cannot reach hidden information through it (an opponent's hand or tickets, or the
order of any deck).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

import numpy as np

from ttr_lab.games.ticket_to_ride.board import Board
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.tables import Phase, Tables, tables_for
from ttr_lab.core.history import Event, unroll
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.observe import fixed_size, row_size, view_row
from ttr_lab.games.ticket_to_ride.kernels.layout import V_BOXED_N, V_HEADER, V_REVEALED_N, V_TUNNEL_CLAIM, V_TUNNEL_EXTRA
from ttr_lab.games.ticket_to_ride.network import doubles_shared, player_components, track_open
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
from ttr_lab.games.ticket_to_ride.scoring import points_per_track

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.slots import StateSlots

_LAST_TABLES: dict[Board, Tables] = {}  # per board, the tables an observation of it last gave
_PHASES = tuple(Phase)
_new = tuple.__new__  # the named tuple from its fields in order, without its Python-level __new__


class Observation(NamedTuple):
    """What ``player`` knows. Per-player tuples are indexed by seat.

    A named tuple because one is built for every decision of every game: it is immutable and
    about four times cheaper to build than a frozen dataclass.
    """

    board: Board
    ruleset: Ruleset
    player: int
    num_players: int
    current_player: int
    phase: Phase
    hand: tuple[int, ...]  # own cards, count per card kind (colours, then LOCOMOTIVE)
    tickets: tuple[int, ...]  # own ticket ids
    offered: tuple[int, ...]  # tickets on offer to this player (while choosing)
    market: tuple[int, ...]  # face-up cards, slot order
    discard: tuple[int, ...]  # discard pile, count per colour index (public)
    draw_pile_size: int
    ticket_deck_size: int
    owner: tuple[int, ...]  # per track: owning seat or -1
    trains: tuple[int, ...]
    route_points: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    ticket_counts: tuple[int, ...]
    known_cards: tuple[tuple[int, ...], ...]  # per seat: cards publicly seen entering its hand, not yet paid
    offer_sizes: tuple[int, ...]  # per seat: how many tickets it is choosing among (public)
    ticket_deck_known: tuple[int, ...]  # per deck position (top first): a ticket this player put back there, else -1
    passes_in_a_row: int
    boxed_known: tuple[int, ...]  # tickets this player knows are out of the game (it rejected them at setup)
    final_round: bool
    final_turns_left: int  # turns left in the final round, -1 before it starts
    turns: int
    history_length: int
    log: Any  # public history: an immutable linked list of public events (see ``history``)
    # Tunnels (public): the claim waiting for its extra cards (its track and the payment laid
    # down) or None, the cards it turned over and the extra cards they ask; per seat, its last
    # tunnel claim as (track, extra cards asked, extra cards paid or -1 if declined), all -1
    # before its first.
    tunnel_pending: Any
    tunnel_revealed: tuple[int, ...]
    tunnel_extra: int
    last_tunnels: tuple[tuple[int, int, int], ...]
    # Train stations (empty tuples on a map without them): per city the seat whose station
    # stands there or -1, and per seat the stations it has left to build.
    stations: tuple[int, ...] = ()
    stations_left: tuple[int, ...] = ()

    @property
    def history(self) -> list[Event]:
        """Public history, oldest first (see ``ttr_lab.core.history``)."""
        return unroll(self.log)

    def my_tracks(self) -> list[int]:
        return [t for t, o in enumerate(self.owner) if o == self.player]

    @property
    def doubles_shared(self) -> bool:
        """Whether both tracks of a double route may be claimed at this player count."""
        return doubles_shared(self.num_players, self.ruleset)

    @property
    def track_points(self) -> tuple[int, ...]:
        """Per track id, the points its claim scores at once under this game's ruleset."""
        return points_per_track(self.board, self.ruleset)

    def track_open(self, track: int, player: int | None = None) -> bool:
        """Whether ``player`` (the viewer by default) may claim ``track`` as far as ownership
        goes: unclaimed, and not closed to it by the double-route rule. Cards and trains are not
        considered."""
        p = self.player if player is None else player
        return track_open(self.owner, track, self.board.tracks[track].twin, p, self.doubles_shared)

    @property
    def tables(self) -> Tables:
        """The game's precomputed tables (public facts: the board's tracks, the double-route
        rule at this player count), the ones the engine reads."""
        # Strategies ask this several times a decision: the last tables of each board first,
        # a dictionary lookup by the board's identity, before ``tables_for``.
        found = _LAST_TABLES.get(self.board)
        if found is None or found.ruleset is not self.ruleset or found.num_players != self.num_players:
            found = _LAST_TABLES[self.board] = tables_for(self.board, self.num_players, self.ruleset)
        return found

    def claimable(self, track: int, player: int | None = None) -> bool:
        """Whether ``player`` (the viewer by default) may still claim ``track`` at some point:
        open to it (``track_open``) and within its trains. Cards are not considered."""
        p = self.player if player is None else player
        return self.tables.claimable(self.owner, track, p, self.trains[p])

    def components(self, player: int | None = None) -> list[int]:
        """Per city, the label of its piece of ``player``'s network (the viewer's by default);
        see ``network.player_components`` and ``network.ticket_connected``."""
        return player_components(self.board, self.owner, self.player if player is None else player)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable form (history as text)."""
        return {
            "player": self.player,
            "num_players": self.num_players,
            "current_player": self.current_player,
            "phase": self.phase.name.lower(),
            "hand": {CARD_NAMES[c]: n for c, n in enumerate(self.hand)},
            "tickets": list(self.tickets),
            "offered": list(self.offered),
            "market": [CARD_NAMES[c] for c in self.market],
            "discard": {CARD_NAMES[c]: n for c, n in enumerate(self.discard)},
            "draw_pile_size": self.draw_pile_size,
            "ticket_deck_size": self.ticket_deck_size,
            "claimed": {str(t): o for t, o in enumerate(self.owner) if o >= 0},
            "trains": list(self.trains),
            "route_points": list(self.route_points),
            "hand_sizes": list(self.hand_sizes),
            "ticket_counts": list(self.ticket_counts),
            "known_cards": [{CARD_NAMES[c]: n for c, n in enumerate(k) if n} for k in self.known_cards],
            "offer_sizes": list(self.offer_sizes),
            "ticket_deck_known": list(self.ticket_deck_known),
            "passes_in_a_row": self.passes_in_a_row,
            "boxed_known": list(self.boxed_known),
            "final_round": self.final_round,
            "final_turns_left": self.final_turns_left,
            "turns": self.turns,
            "history": [[p, str(a), CARD_NAMES[c] if c >= 0 else None] for p, a, c in self.history],
            # On a map with tunnels only, so the other maps' observations read as before.
            **({"tunnel": None if self.tunnel_pending is None else {
                "claim": str(self.tunnel_pending), "revealed": [CARD_NAMES[c] for c in self.tunnel_revealed],
                "extra": self.tunnel_extra},
                "last_tunnels": [list(t) for t in self.last_tunnels]}
               if any(t.tunnel for t in self.board.tracks) else {}),
            **({"stations": {str(c): o for c, o in enumerate(self.stations) if o >= 0},
                "stations_left": list(self.stations_left)} if self.stations else {}),
        }


class Viewer:
    """What turning one game's view rows (``kernels.observe``) into values needs, worked out once
    per game (each game's ``Face`` holds one): the row's buffer and where each block lies in it.
    The observation and the tensor writer both read a position through it."""

    __slots__ = ("g", "buffer", "data", "unpack", "num_players", "hand", "market_kinds", "discard", "owner", "trains",
                 "points", "hand_sizes", "ticket_counts", "offer_sizes", "known", "known_cards", "tunnels", "last_tunnels",
                 "revealed_kinds", "laid_kinds", "tunnels_shown", "no_tunnels", "stations", "stations_built",
                 "stations_per_player", "rest", "first_claim")

    def __init__(self, g: np.ndarray) -> None:
        self.g = g
        self.buffer = np.empty(row_size(g), dtype=np.int64)
        self.data = self.buffer.data  # the same memory, as the bytes struct reads
        # A row's first ``length`` numbers as a tuple of ints, straight from the buffer's bytes
        # (a third cheaper than ``tolist()`` and ``tuple()``), by length.
        self.unpack: dict[int, Callable[[memoryview], tuple[Any, ...]]] = {}
        self.num_players = n = int(g[L.N_PLAYERS])
        k, tracks = NUM_CARD_KINDS, int(g[L.N_TRACKS])
        at = V_HEADER
        blocks = []
        # The tunnel blocks only on a map with tunnels (``kernels.observe``).
        self.tunnels_shown = shown = int(g[L.ID_DECLINE]) >= 0
        self.no_tunnels = ((-1, -1, -1),) * n
        for length in (k, k, k, tracks, n, n, n, n, n, n * k, *((3 * n, k, k) if shown else (0, 0, 0))):
            blocks.append(slice(at, at + length))
            at += length
        (self.hand, self.market_kinds, self.discard, self.owner, self.trains, self.points, self.hand_sizes,
         self.ticket_counts, self.offer_sizes, self.known, self.tunnels, self.revealed_kinds, self.laid_kinds) = blocks
        start = self.known.start
        self.known_cards = tuple(slice(start + p * k, start + p * k + k) for p in range(n))
        start = self.tunnels.start
        self.last_tunnels = tuple(slice(start + 3 * p, start + 3 * p + 3) for p in range(n))
        # A waiting tunnel's claim by its number among the claims (the action space's objects).
        self.first_claim = int(g[L.ID_CLAIM])
        station_cities, station_players = int(g[L.STATION_CITIES]), int(g[L.STATION_PLAYERS])
        self.stations = slice(at, at + station_cities)
        self.stations_built = slice(at + station_cities, at + station_cities + station_players)
        self.stations_per_player = int(g[L.STATIONS_PER_PLAYER])
        at += station_cities + station_players
        self.rest = at  # where the variable-length blocks begin
        assert at == fixed_size(n, tracks, shown, station_cities, station_players), \
            "the view row's fixed blocks differ from kernels.observe's"
        # Compiled (or loaded from the cache) now, with the game, rather than inside the first
        # timed move of a strategy that reads observations.
        view_row(g, np.zeros(int(g[L.S_SIZE]), dtype=np.int64), 0, self.buffer)

    def row(self, state: "StateSlots", player: int) -> tuple[int, ...]:
        """``player``'s view of ``state``, as ``kernels.observe`` lays it out."""
        if not 0 <= player < self.num_players:
            raise ValueError(f"no player {player} in a {self.num_players}-player game")
        buffer = self.buffer
        length = view_row(self.g, state.s, player, buffer)
        unpack = self.unpack.get(length)
        if unpack is None:
            unpack = self.unpack[length] = struct.Struct(f"{length}q").unpack_from
        return unpack(self.data)


def observe(state: "StateSlots", player: int) -> Observation:
    game = state.tables
    view = state.face.viewer
    v = view.row(state, player)
    phase, current, final, passes, turns, pile, deck, held, offered, market, boxed = v[:V_BOXED_N + 1]
    at = view.rest
    tickets = v[at:at + held]
    at += held
    offer = v[at:at + offered]
    at += offered
    face_up = v[at:at + market]
    at += market
    deck_known = v[at:at + deck]
    at += deck
    if view.tunnels_shown:
        pending, extra, revealed = v[V_TUNNEL_CLAIM], v[V_TUNNEL_EXTRA], v[V_REVEALED_N]
        claim = state.face.actions[view.first_claim + pending] if pending >= 0 else None
        shown, last = v[at + boxed:at + boxed + revealed], tuple(map(v.__getitem__, view.last_tunnels))
    else:
        claim, shown, extra, last = None, (), 0, view.no_tunnels
    stations: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    if view.stations_per_player:
        stations = v[view.stations]
        left = tuple(view.stations_per_player - b for b in v[view.stations_built])
    return _new(Observation, (
        game.board, game.ruleset, player, view.num_players, current, _PHASES[phase],
        v[view.hand], tickets, offer, face_up, v[view.discard], pile, deck,
        v[view.owner], v[view.trains], v[view.points], v[view.hand_sizes], v[view.ticket_counts],
        tuple(map(v.__getitem__, view.known_cards)), v[view.offer_sizes], deck_known,
        passes, v[at:at + boxed], final >= 0, final, turns, state.log_len, state.log,
        claim, shown, extra, last, stations, left,
    ))
