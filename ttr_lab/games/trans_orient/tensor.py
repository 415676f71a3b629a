"""Trans-Orient Express's observation tensor: one player's information set as a fixed-size
float32 vector, for learners (``TransOrientExpress.observation_tensor``; layout in docs/rl.md).

Built from an ``Observation`` only (what is public at the table, plus the viewer's own luggage
and offer), so it holds nothing the player cannot know. Seats are relative to the viewer (slot
0 is the viewer) and padded to the most players; columns are padded to the most columns, so one
shape serves every player count. Cards are multi-hot over their printed numbers.
"""

from __future__ import annotations

import functools

import numpy as np

from ttr_lab.core.tensor_layout import TensorLayout
from ttr_lab.games.trans_orient.cards import Deck
from ttr_lab.games.trans_orient.observation import Observation
from ttr_lab.games.trans_orient.rules import K, MAX_PLAYERS, RULES, Phase, columns_for

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
