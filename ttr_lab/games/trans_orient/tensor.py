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
from ttr_lab.games.trans_orient.cards import Deck
from ttr_lab.games.trans_orient.observation import Observation
from ttr_lab.games.trans_orient.rules import K, MAX_PLAYERS, RULES, Phase, columns_for

if TYPE_CHECKING:
    from ttr_lab.games.trans_orient.state import TOEState

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
    parts = [[RULES.max_rounds, 1.0, 1.0, 4.0], [len(deck.travel)], [RULES.pile_size] * (cols * c),
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


def state_tensor(state: "TOEState", me: int) -> np.ndarray:
    """``observation_tensor(state.observation(me))`` written from the state directly, for the
    RL environments (the ``Observation`` they would build and drop is a fifth of an env step).
    It reads only what ``observe`` hands ``me``; the tests check the two are equal at every step
    of random games, for every seat."""
    setup = state.setup
    n = setup.num_players
    if not 0 <= me < n:
        raise ValueError(f"no player {me} in a {n}-player game")
    deck = setup.deck
    plan = _plan(deck, n)
    off, t, c = plan.off, plan.t, setup.colours
    pad = plan.seat_pad
    at_c, at_k = me * c, me * K
    reserves, discounts, counters = state.reserves, state.discounts, state.counters
    capacity, luggage, played, hands = state.capacity, state.luggage, state.played, state.hands
    order = [*range(me, n), *range(me)]  # relative slot j is seat order[j]
    seat_counts = []
    for s in order:
        seat_counts += (capacity[s], len(luggage[s]), len(played[s]))
    head = plan.counts.pack(
        state.round, state.final, state.stalled, state.tidx, len(state.deck), *state.piles, *plan.pile_pad,
        *state.bag, *reserves[at_c:], *reserves[:at_c], *pad * c, *discounts[at_c:], *discounts[:at_c],
        *pad * c, *counters[at_k:], *counters[:at_k], *pad * K, *seat_counts, *pad * 3)
    out = np.zeros(plan.size, dtype=np.float32)
    scales = plan.scales
    np.multiply(np.frombuffer(head, dtype=np.float32), scales, out=out[:scales.size])

    master, col = state.master, state.mcol
    ones = [plan.fixed, off["to_move"] + (state.player - me) % n, off["phase"] + state.phase,
            off["starter"] + (state.starter - me) % n, off["master_column"] + (col if col >= 0 else _MAX_COLUMNS)]
    if 0 <= master < n:
        ones.append(off["master"] + (master - me) % n)
    base = off["lower"] - 1
    ones += [base + i * t + x for i, x in enumerate(state.lower) if x]
    base = off["upper"] - 1
    ones += [base + i * t + x for i, x in enumerate(state.upper) if x]
    hand_base, played_base = off["hands"] - 1, off["played"] - 1
    for j, s in enumerate(order):
        base = hand_base + j * t
        ones += [base + x for x in hands[s]]
        base = played_base + j * t
        ones += [base + x for x in played[s]]
    known = state.deck_known
    if known:
        base = off["deck_bottom"] - 1
        deck_cards = state.deck
        ones += [base + x for x in deck_cards[len(deck_cards) - known:] if x]
    base = off["luggage"] - 1
    ones += [base + x for x in luggage[me] if x]
    if state.player == me:
        base = off["offer"] - 1
        ones += [base + x for x in state.offer if x]
    if me in state.lug_by:
        base = off["luggage_known"] - 1
        ones += [base + x for x, by in zip(state.lug_deck, state.lug_by) if by == me and x]
    base = off["objectives"] - 1
    ones += [base + x for x in state.objectives if x]
    out[ones] = 1.0
    return out
