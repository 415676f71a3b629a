"""``Tables``: the precomputed tables every state of one game shares (board, ruleset, players).

Made once per (board, ruleset, player count), as OpenSpiel makes its game object once, it holds the
per-track numbers the hot path reads as flat tuples, so ``GameState`` itself stays small. The
strategies read the same tables (an observation's ``tables``; a state's ``game``) and ask them the
double-route questions (``track_open``, ``claimable``, ``holds_route``, ``spare_twin``), so the
rule of ``network`` is tabulated once and restated nowhere.
"""

from __future__ import annotations

import functools
from typing import Sequence

from ttr_lab.games.ticket_to_ride.board import Board, TicketDeck
from ttr_lab.games.ticket_to_ride.colours import LOCOMOTIVE, NUM_COLOURS, NUM_TRACK_COLOURS
from ttr_lab.games.ticket_to_ride.kernels.layout import Phase  # declared beside the state's phase slot
from ttr_lab.core.errors import ConfigError
from ttr_lab.games.ticket_to_ride.actions import ActionTable, action_table
from ttr_lab.games.ticket_to_ride.network import doubles_shared, twin_blocks, twin_closes
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
from ttr_lab.games.ticket_to_ride.scoring import points_per_track


class Tables:
    """Immutable facts of a game. Get one with ``tables_for``; every state points to its Tables."""

    __slots__ = (
        "board", "ruleset", "num_players", "actions", "track_length", "track_colour", "track_ends", "adjacency",
        "twin_group",
        "track_ferry", "track_trains", "track_points", "track_twin", "doubles_shared", "twin_blocks_for",
        "twin_blocks_open",
        "deck", "all_tracks", "twin_or_self", "groups", "track_group", "initial_groups", "colour_groups",
    )

    def __init__(self, board: Board, num_players: int, ruleset: Ruleset) -> None:
        if not board.min_players <= num_players <= board.max_players:
            raise ConfigError(
                f"the {board.name} map is for {board.min_players}-{board.max_players} players, not {num_players}"
            )
        cards_needed = num_players * ruleset.initial_hand + ruleset.market_size
        cards = NUM_COLOURS * ruleset.cards_per_colour + ruleset.locomotive_cards
        if cards < cards_needed:
            raise ConfigError(f"ruleset has {cards} train cards, fewer than the {cards_needed} setup deals")
        for kind, per_player in ((TicketDeck.REGULAR, ruleset.initial_tickets), (TicketDeck.LONG, ruleset.initial_long_tickets)):
            held = sum(1 for t in board.tickets if t.deck is kind)
            if held < num_players * per_player:
                raise ConfigError(f"the {board.name} map has {held} {kind.value} tickets, fewer than the "
                                  f"{num_players * per_player} dealt at setup to {num_players} players")
        self.board = board
        self.ruleset = ruleset
        self.num_players = num_players
        self.actions: ActionTable = action_table(board, ruleset.market_size)
        tracks = board.tracks
        self.track_length = tuple(t.length for t in tracks)
        self.track_colour = tuple(t.colour for t in tracks)
        self.track_ferry = tuple(t.ferry_locomotives for t in tracks)
        self.track_trains = tuple(t.trains for t in tracks)
        self.track_points = points_per_track(board, ruleset)
        self.track_twin = tuple(t.twin for t in tracks)
        self.track_ends = board.track_ends
        # Per city, ``(track, other city)`` for each track at it, in track id order (path searches
        # break ties by this order, so it is part of what a strategy plays).
        adjacency: list[list[tuple[int, int]]] = [[] for _ in board.cities]
        for t in tracks:
            adjacency[t.a].append((t.id, t.b))
            adjacency[t.b].append((t.id, t.a))
        self.adjacency = tuple(tuple(a) for a in adjacency)
        # Per track, the tracks joining its two cities: itself, then its twin if it has one. A
        # path through either serves the same trip.
        self.twin_group = tuple((t.id,) if t.twin < 0 else (t.id, t.twin) for t in tracks)
        self.doubles_shared = doubles_shared(num_players, ruleset)
        # ``twin_blocks`` tabulated for the legal-claim generator: ``twin_blocks_for[player]
        # [owner]``, the last entry standing for owner -1 (nobody), so the lookup needs no branch.
        self.twin_blocks_for = tuple(
            tuple(twin_blocks(owner, player, self.doubles_shared) for owner in (*range(num_players), -1))
            for player in range(num_players)
        )
        # Whether a twin can block a player while it stays open to others; if not (double routes
        # not shared), a blocked track has already left ``open_groups`` and the generator skips
        # the lookup.
        self.twin_blocks_open = any(
            twin_blocks(owner, player, self.doubles_shared) and not twin_closes(owner, self.doubles_shared)
            for player in range(num_players) for owner in range(num_players)
        )
        # The train deck in colour order, before shuffling.
        deck: list[int] = []
        for c in range(NUM_COLOURS):
            deck += [c] * ruleset.cards_per_colour
        deck += [LOCOMOTIVE] * ruleset.locomotive_cards
        self.deck = tuple(deck)
        self.all_tracks = tuple(range(len(tracks)))
        # For the twin test without a branch: a single track is its own "twin" (never owned
        # by the player while it is open).
        self.twin_or_self = tuple(t.twin if t.twin >= 0 else t.id for t in tracks)
        # Tracks with the same (colour, length, ferry, trains) accept the same payments, so the
        # legal-claim generator works out the payment range once per group, not once per track.
        keys = sorted({(t.colour, t.length, t.ferry_locomotives, self.track_trains[t.id]) for t in tracks})
        self.groups = tuple(keys)
        index = {k: i for i, k in enumerate(keys)}
        self.track_group = tuple(
            index[(t.colour, t.length, t.ferry_locomotives, self.track_trains[t.id])] for t in tracks
        )
        # Per track colour (GRAY included), its groups by length, so the generator stops at the first
        # group longer than the hand could pay for.
        self.colour_groups = tuple(
            tuple((length, ferry, need, gi) for gi, (c, length, ferry, need) in enumerate(keys) if c == colour)
            for colour in range(NUM_TRACK_COLOURS)
        )
        self.initial_groups = tuple(
            tuple(t.id for t in tracks if self.track_group[t.id] == g) for g in range(len(keys))
        )

    def __repr__(self) -> str:
        return f"<Tables {self.board.name}, {self.num_players} players>"

    def open_groups(self, owner: list[int]) -> list[tuple[int, ...]]:
        """The still-claimable tracks of each payment group, given who owns which track."""
        shared = self.doubles_shared
        closed = {self.track_twin[t] for t, p in enumerate(owner) if p >= 0 and twin_closes(p, shared)}
        return [tuple(t for t in group if owner[t] < 0 and t not in closed) for group in self.initial_groups]

    def track_open(self, owner: Sequence[int], track: int, player: int) -> bool:
        """``network.track_open`` from the tables: nobody holds ``track`` and its twin does not
        block ``player``. Cards and trains are not considered."""
        return owner[track] < 0 and not self.twin_blocks_for[player][owner[self.twin_or_self[track]]]

    def claimable(self, owner: Sequence[int], track: int, player: int, trains: int) -> bool:
        """Whether ``player``, with ``trains`` left, may claim ``track`` once it holds the cards:
        open to it (``track_open``) and taking no more trains than it has."""
        return (owner[track] < 0 and self.track_trains[track] <= trains
                and not self.twin_blocks_for[player][owner[self.twin_or_self[track]]])

    def holds_route(self, owner: Sequence[int], track: int, player: int) -> bool:
        """Whether ``player`` holds ``track`` or its twin: it already joins the two cities."""
        return owner[track] == player or owner[self.twin_or_self[track]] == player

    def spare_twin(self, owner: Sequence[int], track: int) -> bool:
        """Whether ``track`` has a twin nobody holds that stays open to a player when another
        player takes ``track`` (double routes shared at this player count)."""
        twin = self.track_twin[track]
        return twin >= 0 and owner[twin] < 0 and self.doubles_shared

    @property
    def total_cards(self) -> int:
        return len(self.deck)


@functools.lru_cache(maxsize=256)
def _tables(board: Board, num_players: int, ruleset: Ruleset) -> Tables:
    return Tables(board, num_players, ruleset)


# ``tables_for`` by the identity of the board and ruleset objects: strategies ask for an
# observation's tables at most decisions, and hashing a Ruleset by value (as the cache by value
# does) costs several times the lookup. Each entry holds its board and ruleset, so no id in a key
# can be reused by another object while the entry stands.
_BY_IDENTITY: dict[tuple[int, int, int], tuple[Board, Ruleset, Tables]] = {}


def tables_for(board: Board, num_players: int, ruleset: Ruleset | None = None) -> Tables:
    """The shared Tables for a board, player count and ruleset (the board's own by default)."""
    rules = ruleset or board.ruleset
    key = (id(board), num_players, id(rules))
    found = _BY_IDENTITY.get(key)
    if found is not None:
        return found[2]
    tables = _tables(board, num_players, rules)
    if len(_BY_IDENTITY) >= 256:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[key] = (board, rules, tables)
    return tables
