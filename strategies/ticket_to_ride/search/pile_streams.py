"""Each seat's cards from a stream of its own, within one sampled state of a search.

One shuffled pile hands each card to whoever draws next, so in a play-out a candidate move that
draws two cards shifts every later draw of every seat, and the play-outs of two candidates soon
meet different cards: the common samples a search compares its moves on stop being common.
Instead, before each move the pile's top cards are chosen for the seat to move from its own
stream (``steer_pile``): its k-th card from the pile is the card of the pile that a uniform
number, drawn from the sample's stream, the seat and k, points at in a fixed order of kinds. Each
card is still a uniform draw from the cards left in the pile (the pile's order is unknown to
every seat, so this is the same game), and an opponent's next cards do not depend on what the
searching player drew. ``mcts_halving``'s play-outs and ``mcts_tree``'s walk and play-outs use it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.rng import mix64, next_below

# Cards of the pile steered before a move: a blind draw takes one, a market draw's refill one.
_STEERED = 2
_SEAT_SALT = np.uint64(0x9E3779B97F4A7C15)
_DRAW_SALT = np.uint64(0xBF58476D1CE4E5B9)


@njit(cache=True)
def steer_pile(g: np.ndarray, s: np.ndarray, stream: np.uint64, seat: int, drawn: int) -> None:
    """Choose the pile's top ``_STEERED`` cards as ``seat``'s draws ``drawn``, ``drawn + 1``, ...
    of ``stream``: each a uniform draw from the cards below it, by kind (the same number picks the
    same kind while the pile's make-up barely differs), swapped up from the highest place that
    holds that kind."""
    pile, n = g[L.S_PILE], s[L.PILE_N]
    counts = np.zeros(L.KINDS, dtype=np.int64)
    for i in range(n):
        counts[s[pile + i]] += 1
    for d in range(min(_STEERED, n)):
        top = n - 1 - d
        key = mix64(stream + np.uint64(seat + 1) * _SEAT_SALT) + np.uint64(drawn + d + 1) * _DRAW_SALT
        _, r = next_below(key, top + 1)
        kind = 0
        while r >= counts[kind]:
            r -= counts[kind]
            kind += 1
        i = top
        while s[pile + i] != kind:
            i -= 1
        s[pile + i] = s[pile + top]
        s[pile + top] = kind
        counts[kind] -= 1


@njit(cache=True)
def steered_move(g: np.ndarray, s: np.ndarray, action: int, scratch: np.ndarray, stream: np.uint64,
                 drawn: np.ndarray) -> None:
    """``action`` applied with the pile steered for the seat to move, its count of cards taken
    from the pile advanced (by the steered cards if the pile was restocked meanwhile)."""
    p = s[L.PLAYER]
    before = s[L.PILE_N]
    steer_pile(g, s, stream, p, drawn[p])
    apply_action(g, s, action, scratch)
    after = s[L.PILE_N]
    drawn[p] += before - after if after <= before else _STEERED
