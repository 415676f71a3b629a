"""``Observation``: one player's information set, and nothing more.

Built by copying the public fields and the player's own private fields out of the state into
immutable tuples; it keeps no reference to the state, so a strategy cannot reach hidden
information through it (an opponent's hand or tickets, or the order of any deck).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ttr_lab.games.ticket_to_ride.board import Board
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.tables import Phase, Tables, tables_for
from ttr_lab.core.history import Event, unroll
from ttr_lab.games.ticket_to_ride.network import doubles_shared, player_components, track_open
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
from ttr_lab.games.ticket_to_ride.scoring import points_per_track

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.state import GameState

_LAST_TABLES: dict[Board, Tables] = {}  # per board, the tables an observation of it last gave
_PHASES = tuple(Phase)


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
        }


def observe(state: "GameState", player: int) -> Observation:
    game = state.game
    n = game.num_players
    if not 0 <= player < n:
        raise ValueError(f"no player {player} in a {n}-player game")
    f = state.fields()
    hands = f.hands
    known = f.known
    k = NUM_CARD_KINDS
    base = player * k
    ends = range(k, k * n + 1, k)
    return Observation(
        game.board, game.ruleset, player, n, f.player, _PHASES[f.phase],
        tuple(hands[base:base + k]), f.tickets[player], f.offers[player],
        tuple(f.market), tuple(f.discard), len(f.pile), len(f.ticket_deck),
        tuple(f.owner), tuple(f.trains), tuple(f.points),
        tuple([sum(hands[e - k:e]) for e in ends]),
        tuple([len(t) for t in f.tickets]),
        tuple([tuple(known[e - k:e]) for e in ends]),
        tuple([len(o) for o in f.offers]),
        _own_returns(f.ticket_deck, f.returned_by, player),
        f.passes, tuple([t for t, r in zip(f.boxed, f.boxed_by) if r == player]) if player in f.boxed_by else (),
        f.final_turns >= 0, f.final_turns, f.turns, state.log_len, state.log,
    )


def _own_returns(deck: tuple[int, ...], returned_by: tuple[int, ...], player: int) -> tuple[int, ...]:
    """Per deck position, the ticket ``player`` put back there, else -1 (usually nobody's: then
    one C-level scan instead of a comprehension over the deck, at every decision)."""
    if player not in returned_by:
        return (-1,) * len(deck)
    return tuple([t if r == player else -1 for t, r in zip(deck, returned_by)])
