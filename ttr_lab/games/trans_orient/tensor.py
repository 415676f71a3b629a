"""Trans-Orient Express's observation tensor: one player's information set as a fixed-size
float32 vector, for learners (``TransOrientExpress.observation_tensor``; layout in docs/rl.md).

Built from an ``Observation`` only (what is public at the table, plus the viewer's own luggage
and offer), so it holds nothing the player cannot know. Seats are relative to the viewer (slot
0 is the viewer) and padded to the most players; columns are padded to the most columns, so one
shape serves every player count. Cards are multi-hot over their printed numbers.
"""

from __future__ import annotations

import functools
import struct
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ttr_lab.core.tensor_layout import TensorLayout
from ttr_lab.core.tensor_template import SeatTensorWriter, TensorTemplate
from ttr_lab.games.trans_orient.cards import Deck
from ttr_lab.games.trans_orient.observation import Observation
from ttr_lab.games.trans_orient.rules import K, MAX_PLAYERS, RULES, Phase, columns_for

if TYPE_CHECKING:
    from ttr_lab.games.trans_orient.slots import StateSlots

_PHASES = len(Phase)
_MAX_COLUMNS = max(columns_for(n) for n in range(2, MAX_PLAYERS + 1))


@functools.lru_cache(maxsize=None)
def layout(deck: Deck) -> TensorLayout:
    """The blocks of the tensor for one deck (seats padded to 4, columns to 5). The counts come
    first and the one-hot and multi-hot blocks after them, so filling the tensor is one scaled
    write of the counts and one write of ones (it runs at every decision)."""
    m, cols, c = MAX_PLAYERS, _MAX_COLUMNS, deck.num_colours
    t, lug, obj = len(deck.travel), len(deck.luggage), len(deck.objectives)
    return TensorLayout([
        ("clock", 4, "round / round limit; final round; stalled; turn in round / 4"),
        ("deck_size", 1, "draw deck size / travel cards"),
        ("piles", cols * c, "per column, tokens per colour / pile size"),
        ("bag", c, "tokens per colour in the bag / tokens per colour"),
        ("reserves", m * c, "per relative seat (0 = the viewer, 1 = the next seat, ...): tokens per colour / reserve limit"),
        ("discounts", m * c, "per relative seat: discount per colour / 3"),
        ("counters", m * K, "per relative seat: card takes, pile takes, tokens paid, wasted, cards given / 20"),
        ("seat_counts", m * 3, "per relative seat: capacity / 3, luggage cards / 4, cards played / 7"),
        ("num_players", m, "one-hot: players at the table (index n-1)"),
        ("to_move", m, "one-hot: the player to move, relative to the viewer"),
        ("phase", _PHASES, "one-hot: take, station, play, luggage, give card, give token, over"),
        ("starter", m, "one-hot: this round's starter, relative"),
        ("master", m, "one-hot: the station master's holder, relative"),
        ("master_column", cols + 1, "one-hot: the column it lies on (last: none)"),
        ("lower", cols * t, "per column, one-hot over travel card numbers (card i at i-1): the lower-row card"),
        ("upper", cols * t, "per column, one-hot: the upper-row card"),
        ("hands", m * t, "per relative seat, multi-hot over travel cards: its hand (public)"),
        ("played", m * t, "per relative seat, multi-hot: its tableau"),
        ("deck_bottom", t, "multi-hot: travel cards known to lie at the draw deck's bottom"),
        ("luggage", lug, "multi-hot over luggage numbers: the viewer's luggage"),
        ("offer", lug, "multi-hot: the luggage cards the viewer is choosing between"),
        ("luggage_known", lug, "multi-hot: luggage cards the viewer put back under the luggage deck"),
        ("objectives", obj, "multi-hot over objective numbers: the game's objectives"),
    ])


@functools.lru_cache(maxsize=None)
def _scales(deck: Deck) -> np.ndarray:
    """The divisor of every count (the blocks from ``clock`` to ``seat_counts``)."""
    m, cols, c = MAX_PLAYERS, _MAX_COLUMNS, deck.num_colours
    parts: list[list[float]] = [[RULES.max_rounds, 1.0, 1.0, 4.0], [len(deck.travel)], [RULES.pile_size] * (cols * c),
             [RULES.tokens_per_colour] * c, [RULES.reserve_limit] * (m * c), [3.0] * (m * c), [20.0] * (m * K),
             [3.0, 4.0, RULES.end_cards] * m]
    return 1.0 / np.array([x for part in parts for x in part], dtype=np.float32)


def observation_shape(deck: Deck) -> tuple[int]:
    return (layout(deck).size,)


def observation_tensor(obs: Observation) -> np.ndarray:
    """``obs`` as a float32 vector of ``observation_shape`` (see ``layout`` for its slices)."""
    deck = obs.deck
    lay = layout(deck)
    off = lay.offsets
    m, cols, c, t = MAX_PLAYERS, _MAX_COLUMNS, deck.num_colours, len(deck.travel)
    n, me = obs.num_players, obs.player

    def seats(flat: tuple, width: int) -> tuple:  # seat-major rows -> relative order, padded to m seats
        return flat[me * width:] + flat[:me * width] + (0,) * (width * (m - n))

    order = [(me + j) % n for j in range(n)]  # relative slot j is seat order[j]
    counts = [obs.round, obs.final_round, obs.stalled, obs.turn_in_round, obs.deck_size,
              *obs.piles, *(0,) * (cols * c - len(obs.piles)), *obs.bag,
              *seats(obs.reserves, c), *seats(obs.discounts, c), *seats(obs.counters, K)]
    for s in order:
        counts += (obs.capacity[s], obs.luggage_counts[s], len(obs.played[s]))
    out = np.zeros(lay.size, dtype=np.float32)
    out[:len(counts)] = counts
    scales = _scales(deck)
    out[:scales.size] *= scales

    rel = [(s - me) % n for s in range(n)]
    ones = [off["num_players"] + n - 1, off["to_move"] + rel[obs.current_player], off["phase"] + int(obs.phase),
            off["starter"] + rel[obs.starter],
            off["master_column"] + (obs.master_column if obs.master_column >= 0 else cols)]
    if 0 <= obs.master < n:
        ones.append(off["master"] + rel[obs.master])
    for row in ("lower", "upper"):
        base = off[row] - 1
        ones.extend([base + col * t + number for col, number in enumerate(getattr(obs, row)) if number])
    for j, s in enumerate(order):
        for name, cards in (("hands", obs.hands[s]), ("played", obs.played[s])):
            base = off[name] + j * t - 1
            ones.extend([base + number for number in cards])
    for name, cards in (("deck_bottom", obs.deck_bottom), ("luggage", obs.luggage), ("offer", obs.offer),
                        ("luggage_known", obs.luggage_deck_known), ("objectives", obs.objectives)):
        base = off[name] - 1
        ones.extend([base + number for number in cards if number])
    out[ones] = 1.0
    return out


class _Plan(NamedTuple):
    """What ``state_tensor`` needs of the layout at ``n`` players, looked up once per game."""

    size: int
    counts: struct.Struct  # the counts block as float32s, packed in C rather than converted one by one
    scales: np.ndarray
    fixed: int  # num_players's one, index already added
    off: dict[str, int]
    pile_pad: tuple[int, ...]
    seat_pad: tuple[int, ...]  # one 0 per padded seat (times a row's width)
    t: int


@functools.lru_cache(maxsize=None)
def _plan(deck: Deck, n: int) -> _Plan:
    lay = layout(deck)
    off = dict(lay.offsets)
    c = deck.num_colours
    scales = _scales(deck)
    return _Plan(lay.size, struct.Struct(f"{scales.size}f"), scales, off["num_players"] + n - 1, off,
                 (0,) * (_MAX_COLUMNS * c - columns_for(n) * c), (0,) * (MAX_PLAYERS - n), len(deck.travel))


class TensorWriter(SeatTensorWriter):
    """One seat's tensors, state after state: ``writer(state)`` equals ``state_tensor(state,
    seat)``, but the multi-hot blocks (the rows of cards, hands, tableaux, luggage...) are kept
    from the last call (``TensorTemplate``) and only what changed in them is written again, so
    an RL environment pays for the counts block and two one-hots per decision.

    A change is seen, not assumed: each block's source is compared by value with the one it was
    written from (instantly when the state kept the same tuple: it replaces its tuples, never
    mutates them), so any state (another game, a clone, an earlier position) is written right.
    """

    __slots__ = ("_plan", "_n", "_order", "_template", "_rows")

    def _game_of(self, state: "StateSlots") -> object:
        return state.tables

    def _start(self, state: "StateSlots") -> None:
        setup = state.tables
        self._n = n = setup.num_players
        self._plan = plan = _plan(setup.deck, n)
        self._order = (*range(self.me, n), *range(self.me))  # relative slot j is seat order[j]
        self._template = TensorTemplate(plan.size, (plan.fixed,))
        off, t = plan.off, plan.t
        # per relative slot: (seat, key and first index of its hand, of its tableau)
        self._rows = tuple((s, ("hands", j), off["hands"] + j * t - 1, ("played", j), off["played"] + j * t - 1)
                           for j, s in enumerate(self._order))

    def _write(self, state: "StateSlots") -> np.ndarray:
        plan, me, n = self._plan, self.me, self._n
        off, t, c = plan.off, plan.t, state.tables.colours
        template = self._template
        source, write = template.sources.get, template.write
        markers = (state.starter, state.master, state.mcol)
        if source("markers") != markers:
            starter, master, col = markers
            ones = [off["starter"] + (starter - me) % n, off["master_column"] + (col if col >= 0 else _MAX_COLUMNS)]
            if 0 <= master < n:
                ones.append(off["master"] + (master - me) % n)
            write("markers", markers, ones)
        lower, upper = state.lower, state.upper
        if source("lower") != lower:
            base = off["lower"] - 1
            write("lower", lower[:], [base + i * t + x for i, x in enumerate(lower) if x])
        if source("upper") != upper:
            base = off["upper"] - 1
            write("upper", upper[:], [base + i * t + x for i, x in enumerate(upper) if x])
        hands, played = state.hands, state.played
        for s, hand_key, hand_base, played_key, played_base in self._rows:
            cards = hands[s]
            if source(hand_key) != cards:
                write(hand_key, cards, [hand_base + x for x in cards])
            cards = played[s]
            if source(played_key) != cards:
                write(played_key, cards, [played_base + x for x in cards])
        deck, known = state.deck, state.deck_known
        bottom = deck[len(deck) - known:] if known else ()
        if source("deck_bottom") != bottom:
            base = off["deck_bottom"] - 1
            write("deck_bottom", bottom, [base + x for x in bottom if x])
        self._cards("luggage", state.luggage[me])
        self._cards("offer", state.offer if state.player == me else ())
        returned = (state.lug_deck, state.lug_by)
        if source("luggage_known") != returned:
            base = off["luggage_known"] - 1
            write("luggage_known", returned,
                  [base + x for x, by in zip(*returned) if by == me and x] if me in state.lug_by else [])
        self._cards("objectives", state.objectives)

        pad = plan.seat_pad
        at_c, at_k = me * c, me * K
        reserves, discounts, counters = state.reserves, state.discounts, state.counters
        capacity, luggage = state.capacity, state.luggage
        seat_counts: list[int] = []
        for s in self._order:
            seat_counts += (capacity[s], len(luggage[s]), len(played[s]))
        head = plan.counts.pack(
            state.round, state.final, state.stalled, state.tidx, len(deck), *state.piles, *plan.pile_pad,
            *state.bag, *reserves[at_c:], *reserves[:at_c], *pad * c, *discounts[at_c:], *discounts[:at_c],
            *pad * c, *counters[at_k:], *counters[:at_k], *pad * K, *seat_counts, *pad * 3)
        out = template.fresh()
        scales = plan.scales
        np.multiply(np.frombuffer(head, dtype=np.float32), scales, out=out[:scales.size])
        out[off["to_move"] + (state.player - me) % n] = 1.0
        out[off["phase"] + state.phase] = 1.0
        return out

    def _cards(self, name: str, cards: tuple[int, ...]) -> None:
        """A block over luggage or objective numbers, written again when its tuple is another."""
        template = self._template
        if template.sources.get(name) != cards:
            base = self._plan.off[name] - 1
            template.write(name, cards, [base + x for x in cards if x])


def state_tensor(state: "StateSlots", me: int) -> np.ndarray:
    """``observation_tensor(state.observation(me))`` written from the state directly (OpenSpiel's
    ``state.observation_tensor``). It reads only what ``observe`` hands ``me``; the tests check
    the two are equal at every step of random games, for every seat. An RL environment keeps a
    ``TensorWriter`` per seat instead, which writes only what changed since its last tensor."""
    return TensorWriter(me)(state)
