"""A round of the flat search in one native call: each candidate move played from one sampled
state, then played out (``Search``'s ``native_round``, for ``mcts`` without a tree).

Per candidate the Python round cloned the sample, applied the move, seeded a ``random.Random``
and called the play-out kernel; together that cost about half as much again as the play-out
itself at two players. Here a kernel does it for every candidate at once: a copy of the sample
per candidate, the move applied by the rules' own ``apply_action``, the play-outs by the same
kernels ``mcts`` calls per leaf (``planner_playouts``, ``random_playouts``) with the same seeds,
so a round scores exactly what the per-candidate calls scored.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.playout import random_playouts
from ttr_lab.strategies.planner_decisions import DEFAULT_PARAMS
from ttr_lab.strategies.planner_playouts import planner_playouts


@njit(cache=True)
def candidate_rounds(g: np.ndarray, s: np.ndarray, moves: np.ndarray, seeds: np.ndarray, params: np.ndarray,
                     planner: bool, scores: np.ndarray) -> int:
    """For each action id ``moves[j]``: a copy of ``s`` with it played, then one play-out per
    seed, the planner's (``params``) at every seat if ``planner``, else uniformly random ones;
    ``scores[j, i, p]`` seat ``p``'s final score. The decisions made in all, or ``-1 - j`` when
    move ``j`` is refused."""
    scratch = np.empty(g[L.N_ACTIONS], dtype=np.int64)
    decisions = 0
    for j in range(moves.shape[0]):
        start = s.copy()
        if apply_action(g, start, moves[j], scratch):
            return -1 - j
        if planner:
            decisions += planner_playouts(g, start, seeds, params, scores[j])
        else:
            decisions += random_playouts(g, start, seeds, scores[j])
    return decisions


def candidate_playouts(planner: bool) -> Callable[[Any, Sequence[Any], list[int]], tuple[Any, int]]:
    """``Search``'s ``native_round``: state, moves, seeds -> (per move, per seed, each seat's
    final score; the decisions made), planner play-outs if ``planner``, else random ones."""

    def play(state: Any, moves: Sequence[Any], seeds: list[int]) -> tuple[Any, int]:
        face = state.face
        ids = np.array([face.id_of(m) for m in moves], dtype=np.int64)
        scores = np.zeros((len(moves), len(seeds), state.num_players), dtype=np.int64)
        decisions = candidate_rounds(face.g, state.s, ids, np.array(seeds, dtype=np.uint64), DEFAULT_PARAMS, planner,
                                     scores)
        if decisions < 0:
            raise ValueError(f"{moves[-1 - decisions]} is not legal in the sampled state")
        return scores.tolist(), decisions

    return play
