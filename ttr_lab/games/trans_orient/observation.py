"""``Observation``: one player's information set, and nothing more.

Public at the table (Decision T1 in docs/trans-orient-express.md): the central station and its
piles, every hand (cards enter a hand face up from the lower row and are given back in sight),
every tableau, reserve, discount and capacity, the bag's contents (50 tokens less those in
sight), how many luggage cards each player holds, the objectives, and the order of the cards
put under the draw deck during the game. Private: a player's own luggage cards, the two it is
choosing between, and where under the luggage deck lie the cards it put back. Unknown to all:
the order of the draw deck's shuffled part, the luggage deck, the bag's future draws. Once the
game is over every luggage card is revealed (``revealed_luggage``).

Built by copying fields out of the state into tuples; it keeps no reference to the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ttr_lab.games.trans_orient.rules import K, Phase
from ttr_lab.core.history import Event, unroll

if TYPE_CHECKING:
    from ttr_lab.games.trans_orient.cards import Deck
    from ttr_lab.games.trans_orient.slots import StateSlots

_PHASES = tuple(Phase)
_OVER = int(Phase.OVER)


class Observation(NamedTuple):
    """What ``player`` knows. Per-player tuples are indexed by seat, per-column ones by column."""

    deck: "Deck"
    player: int
    num_players: int
    current_player: int
    phase: Phase
    round: int
    turn_in_round: int  # index into ``order``
    order: tuple[int, ...]  # the seats taking this round's turns
    starter: int  # who started this round
    master: int  # who holds the station master (or will, if it lies on a column)
    master_column: int  # where it lies this round, -1 if not placed or taken
    lower: tuple[int, ...]  # card number per column, 0 = empty
    upper: tuple[int, ...]
    piles: tuple[int, ...]  # flat: column * C + colour (see ``pile``)
    hands: tuple[tuple[int, ...], ...]
    played: tuple[tuple[int, ...], ...]  # per seat, in play order
    reserves: tuple[int, ...]  # flat: seat * C + colour (see ``reserve``)
    bag: tuple[int, ...]
    discounts: tuple[int, ...]  # flat: seat * C + colour (see ``discount``)
    capacity: tuple[int, ...]
    luggage: tuple[int, ...]  # own luggage cards
    luggage_counts: tuple[int, ...]
    offer: tuple[int, ...]  # the luggage cards this player is choosing between
    offer_size: int  # how many the player to move is choosing between (public)
    luggage_deck_known: tuple[int, ...]  # per luggage deck position, top first: a card this player put there, else 0
    deck_size: int
    deck_bottom: tuple[int, ...]  # the known bottom of the draw deck (put there in sight), top first
    objectives: tuple[int, ...]  # visa, season, route
    final_round: bool  # someone has placed their 7th card: the game ends with this round
    stalled: bool  # the game ended without its end condition (no column, or the round limit)
    counters: tuple[int, ...]  # flat, 5 per seat: card takes, pile takes, tokens paid, wasted, cards given back
    turns: int
    history_length: int
    log: Any  # public history: an immutable linked list (see ``history``)
    revealed_luggage: tuple[tuple[int, ...], ...]  # every seat's luggage once the game is over, else ()

    @property
    def history(self) -> list[Event]:
        return unroll(self.log)

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    # Token counts are stored flat (cheap to build for every decision); these give one row.
    def pile(self, column: int) -> tuple[int, ...]:
        """Tokens per colour in a column's pile."""
        C = len(self.bag)
        return self.piles[column * C:(column + 1) * C]

    def reserve(self, seat: int) -> tuple[int, ...]:
        C = len(self.bag)
        return self.reserves[seat * C:(seat + 1) * C]

    def discount(self, seat: int) -> tuple[int, ...]:
        C = len(self.bag)
        return self.discounts[seat * C:(seat + 1) * C]

    def counter(self, seat: int) -> tuple[int, ...]:
        """A seat's card takes, pile takes, tokens paid, tokens wasted, cards given back."""
        return self.counters[seat * K:(seat + 1) * K]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON form (history as text)."""
        out = {k: v for k, v in zip(self._fields, self) if k not in ("deck", "log", "phase")}
        out = {k: [list(x) if isinstance(x, tuple) else x for x in v] if isinstance(v, tuple) else v
               for k, v in out.items()}
        n, cols = self.num_players, len(self.lower)
        out["piles"] = [list(self.pile(c)) for c in range(cols)]
        out["reserves"] = [list(self.reserve(p)) for p in range(n)]
        out["discounts"] = [list(self.discount(p)) for p in range(n)]
        out["counters"] = [list(self.counter(p)) for p in range(n)]
        out["deck"] = self.deck.name
        out["phase"] = self.phase.name.lower()
        out["history"] = [[e.player, str(e.action), e.card] for e in self.history]
        return out


def observe(state: "StateSlots", player: int) -> Observation:
    setup = state.tables
    n = setup.num_players
    if not 0 <= player < n:
        raise ValueError(f"no player {player} in a {n}-player game")
    deck, known = state.deck, state.deck_known
    return Observation(
        setup.deck, player, n, state.player, _PHASES[state.phase], state.round, state.tidx, state.order,
        state.starter, state.master, state.mcol, tuple(state.lower), tuple(state.upper), tuple(state.piles),
        tuple(state.hands), tuple(state.played), tuple(state.reserves), tuple(state.bag),
        tuple(state.discounts), tuple(state.capacity), state.luggage[player], tuple(map(len, state.luggage)),
        state.offer if state.player == player else (), len(state.offer),
        tuple([x if by == player else 0 for x, by in zip(state.lug_deck, state.lug_by)])
        if player in state.lug_by else (0,) * len(state.lug_deck),
        len(deck), deck[len(deck) - known:] if known else (),
        state.objectives, state.final, state.stalled, tuple(state.counters),
        state.turns, state.log_len, state.log,
        tuple(state.luggage) if state.phase == _OVER else (),
    )
