"""The compiled step of ``mcts_halving``: a batch of candidate moves, each played out on the same
sampled states.

For every seed, one state the searching player cannot rule out is sampled (the game's compiled
determinizer), and each candidate root move is applied to a copy of it and played to the end by
the compiled ticket planner at every seat, every seat starting with no plan (as ``mcts_tree``'s
play-outs and its baseline do). The reward is the searching player's lead in points over the best
other seat. All candidates meet the same sample, so their differences are measured on equal luck
(common random numbers): the planner's own move, played out the same way, is the baseline every
other candidate is compared to sample by sample.

With ``streams``, each seat draws its cards from a stream of its own within a sample
(``pile_streams``), so a candidate's own draws do not change the cards the other seats meet.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.determinize import sample
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.games.ticket_to_ride.kernels.rng import mix64
from ttr_lab.strategies.ticket_to_ride.search.pile_streams import steered_move
from ttr_lab.strategies.ticket_to_ride.planner_playouts import choose_kept, planner_playout
from ttr_lab.strategies.ticket_to_ride.search.leaf_kernels import lead, playout_buffers
from ttr_lab.strategies.ticket_to_ride.planner_decisions import W_IDS


@njit(cache=True)
def play_candidates(g: np.ndarray, pt: np.ndarray, w: tuple, params: np.ndarray, template: np.ndarray,
                    dplan: np.ndarray, dwork: np.ndarray, dlongs: np.ndarray, me: int, moves: np.ndarray,
                    seeds: np.ndarray, out: np.ndarray) -> int:
    """``out[j, i]``: ``me``'s lead after ``moves[i]`` on the state sampled from ``seeds[j]``,
    played to the end by the planner at every seat. Returns the decisions simulated."""
    b = playout_buffers(g)
    sampled, s = template.copy(), template.copy()
    decisions = 0
    for j in range(seeds.shape[0]):
        sampled[:] = template
        sample(g, sampled, dplan, dwork, dlongs, seeds[j])
        for i in range(moves.shape[0]):
            s[:] = sampled
            b.plan_sizes[:] = 0
            b.keys[:, :] = 0
            apply_action(g, s, moves[i], b.scratch)
            decisions += 1 + planner_playout(g, pt, s, params, w, b.plans, b.plan_sizes, b.before, b.keys)
            out[j, i] = lead(g, s, me, b.result, b.completed)
    return decisions


@njit(cache=True)
def play_candidates_streamed(g: np.ndarray, pt: np.ndarray, w: tuple, params: np.ndarray, template: np.ndarray,
                             dplan: np.ndarray, dwork: np.ndarray, dlongs: np.ndarray, me: int, moves: np.ndarray,
                             seeds: np.ndarray, out: np.ndarray) -> int:
    """``play_candidates`` with each seat drawing its cards from its own stream of the sample
    (``steered_move`` at every move). A kernel of its own rather than a flag: numba would compile
    the planner's play-out twice into one kernel, once per branch."""
    ids = w[W_IDS]
    b = playout_buffers(g)
    plans, plan_sizes, before, keys = b.plans, b.plan_sizes, b.before, b.keys
    drawn = np.zeros(g[L.N_PLAYERS], dtype=np.int64)
    sampled, s = template.copy(), template.copy()
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
            steered_move(g, s, moves[i], b.scratch, stream, drawn)
            decisions += 1
            while s[L.PHASE] != L.OVER:
                n = legal_ids(g, s, ids)
                action = ids[0] if n == 1 else choose_kept(g, pt, s, params, w, n, plans, plan_sizes, before, keys)
                steered_move(g, s, action, b.scratch, stream, drawn)
                decisions += 1
            out[j, i] = lead(g, s, me, b.result, b.completed)
    return decisions
