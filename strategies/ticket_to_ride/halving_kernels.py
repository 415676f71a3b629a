"""The compiled step of ``mcts_halving``: a batch of candidate moves, each played out on the same
sampled states.

For every seed, one state the searching player cannot rule out is sampled (the game's compiled
determinizer), and each candidate root move is applied to a copy of it and played to the end by
the compiled ticket planner at every seat, every seat starting with no plan (as ``mcts_tree``'s
play-outs and its baseline do). The reward is the searching player's lead in points over the best
other seat. All candidates meet the same sample, so their differences are measured on equal luck
(common random numbers): the planner's own move, played out the same way, is the baseline every
other candidate is compared to sample by sample.

With ``streams``, the luck is also shared after the first move. One shuffled pile hands each
card to whoever draws next, so a candidate that draws two cards shifts every later draw of every
seat, and the play-outs of two candidates soon meet different cards. Instead, before each move the
pile's top cards are chosen for the seat to move from its own stream (``steer_pile``): its k-th
card from the pile is the card of the pile that a uniform number, drawn from the sample's seed,
the seat and k, points at in a fixed order of kinds. So each card is still a uniform draw from
the cards left in the pile (the pile's order is unknown to every seat, so this is the same
game), and an opponent's next cards do not depend on what the searching player drew.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.determinize import sample
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.games.ticket_to_ride.kernels.rng import mix64, next_below
from ttr_lab.strategies.ticket_to_ride.planner_playouts import choose_kept, planner_playout
from ttr_lab.strategies.ticket_to_ride.tree_kernels import lead, playout_buffers

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


@njit(cache=True)
def play_candidates(g: np.ndarray, pt: np.ndarray, w: tuple, params: np.ndarray, template: np.ndarray,
                    dplan: np.ndarray, dwork: np.ndarray, dlongs: np.ndarray, me: int, moves: np.ndarray,
                    seeds: np.ndarray, out: np.ndarray) -> int:
    """``out[j, i]``: ``me``'s lead after ``moves[i]`` on the state sampled from ``seeds[j]``,
    played to the end by the planner at every seat. Returns the decisions simulated."""
    scratch, plans, plan_sizes, before, keys, result, completed = playout_buffers(g)
    sampled = template.copy()
    s = template.copy()
    decisions = 0
    for j in range(seeds.shape[0]):
        sampled[:] = template
        sample(g, sampled, dplan, dwork, dlongs, seeds[j])
        for i in range(moves.shape[0]):
            s[:] = sampled
            plan_sizes[:] = 0
            keys[:, :] = 0
            apply_action(g, s, moves[i], scratch)
            decisions += 1 + planner_playout(g, pt, s, params, w, plans, plan_sizes, before, keys)
            out[j, i] = lead(g, s, me, result, completed)
    return decisions


@njit(cache=True)
def play_candidates_streamed(g: np.ndarray, pt: np.ndarray, w: tuple, params: np.ndarray, template: np.ndarray,
                             dplan: np.ndarray, dwork: np.ndarray, dlongs: np.ndarray, me: int, moves: np.ndarray,
                             seeds: np.ndarray, out: np.ndarray) -> int:
    """``play_candidates`` with each seat drawing its cards from its own stream of the sample
    (``steered_move`` at every move). A kernel of its own rather than a flag: numba would compile
    the planner's play-out twice into one kernel, once per branch."""
    ids = w[3]
    scratch, plans, plan_sizes, before, keys, result, completed = playout_buffers(g)
    n_players = g[L.N_PLAYERS]
    drawn = np.zeros(n_players, dtype=np.int64)
    sampled = template.copy()
    s = template.copy()
    decisions = 0
    for j in range(seeds.shape[0]):
        sampled[:] = template
        sample(g, sampled, dplan, dwork, dlongs, seeds[j])
        stream = mix64(seeds[j])
        for i in range(moves.shape[0]):
            s[:] = sampled
            plan_sizes[:] = 0
            keys[:, :] = 0
            drawn[:] = 0
            steered_move(g, s, moves[i], scratch, stream, drawn)
            decisions += 1
            while s[L.PHASE] != L.OVER:
                n = legal_ids(g, s, ids)
                action = ids[0] if n == 1 else choose_kept(g, pt, s, params, w, n, plans, plan_sizes, before, keys)
                steered_move(g, s, action, scratch, stream, drawn)
                decisions += 1
            out[j, i] = lead(g, s, me, result, completed)
    return decisions
