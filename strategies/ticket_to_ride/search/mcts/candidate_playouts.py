"""The compiled play-outs ``mcts`` hands its search, per leaf and per round of candidates.

Two kinds of play-out, each a kernel over the game's arrays: ``planner``, the ticket planner at
every seat (``planner_playouts.planner_playouts``, the play-out planner's knobs), and ``random``,
uniformly random moves (the rules kernels' ``random_playouts``). For each kind, ``NATIVE`` holds
``Search``'s ``native_playout`` (one state, a batch of seeds) and ``ROUNDS`` its
``native_round``: a round of the flat search in one native call, each candidate move played
from one sampled state, then played out. Per candidate the Python round cloned the sample,
applied the move, seeded a ``random.Random`` and called the play-out kernel; together that cost
about half as much again as the play-out itself at two players. ``planner_rounds`` (and
``random_rounds``) does it for every candidate at once with the same kernels and seeds, so a
round scores exactly what the per-candidate calls scored. ``python`` (the planners on
observations) has neither: None.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.playout import random_playouts
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS
from ttr_lab.strategies.ticket_to_ride.planner_playouts import planner_playouts

Playout = Callable[[Any, list[int]], tuple[Any, int]]
Round = Callable[[Any, Sequence[Any], list[int]], tuple[Any, int]]


# One kernel per kind of play-out, not one taking the kind as a flag: numba compiles both branches
# of a flag, so every first run of the planner's search (the main job's) also compiled the random
# play-outs, and each kernel holds a copy of all it calls (the planner, once more per layer).
@njit(cache=True)
def planner_rounds(g: np.ndarray, s: np.ndarray, moves: np.ndarray, seeds: np.ndarray, params: np.ndarray,
                   scores: np.ndarray) -> int:
    """For each action id ``moves[j]``: a copy of ``s`` with it played, then one planner play-out
    (``params``) per seed; ``scores[j, i, p]`` seat ``p``'s final score. The decisions made in
    all, or ``-1 - j`` when move ``j`` is refused."""
    scratch = np.empty(g[L.N_ACTIONS], dtype=np.int64)
    decisions = 0
    for j in range(moves.shape[0]):
        start = s.copy()
        if apply_action(g, start, moves[j], scratch):
            return -1 - j
        decisions += planner_playouts(g, start, seeds, params, scores[j])
    return decisions


@njit(cache=True)
def random_rounds(g: np.ndarray, s: np.ndarray, moves: np.ndarray, seeds: np.ndarray, scores: np.ndarray) -> int:
    """``planner_rounds`` with uniformly random play-outs."""
    scratch = np.empty(g[L.N_ACTIONS], dtype=np.int64)
    decisions = 0
    for j in range(moves.shape[0]):
        start = s.copy()
        if apply_action(g, start, moves[j], scratch):
            return -1 - j
        decisions += random_playouts(g, start, seeds, scores[j])
    return decisions


def native_playout(planner: bool) -> Playout:
    """``Search``'s ``native_playout``: state, seeds -> (per seed, each seat's final score; the
    decisions made), planner play-outs if ``planner``, else random ones."""

    def play(state: Any, seeds: list[int]) -> tuple[Any, int]:
        scores = np.zeros((len(seeds), state.num_players), dtype=np.int64)
        g, start, batch = state.face.g, state.s, np.array(seeds, dtype=np.uint64)
        if planner:
            decisions = planner_playouts(g, start, batch, DEFAULT_PARAMS, scores)
        else:
            decisions = random_playouts(g, start, batch, scores)
        return scores.tolist(), decisions

    return play


def candidate_playouts(planner: bool) -> Round:
    """``Search``'s ``native_round``: state, moves, seeds -> (per move, per seed, each seat's
    final score; the decisions made), planner play-outs if ``planner``, else random ones."""

    def play(state: Any, moves: Sequence[Any], seeds: list[int]) -> tuple[Any, int]:
        face = state.face
        ids = np.array([face.id_of(m) for m in moves], dtype=np.int64)
        scores = np.zeros((len(moves), len(seeds), state.num_players), dtype=np.int64)
        batch = np.array(seeds, dtype=np.uint64)
        if planner:
            decisions = planner_rounds(face.g, state.s, ids, batch, DEFAULT_PARAMS, scores)
        else:
            decisions = random_rounds(face.g, state.s, ids, batch, scores)
        if decisions < 0:
            raise ValueError(f"{moves[-1 - decisions]} is not legal in the sampled state")
        return scores.tolist(), decisions

    return play


# By ``mcts``'s ``playout``: who plays below the tree, per leaf and per round (None: the Python
# planners of ``Search.play_out``).
NATIVE: dict[str, Playout | None] = {"python": None, "planner": native_playout(True), "random": native_playout(False)}
ROUNDS: dict[str, Round | None] = {"python": None, "planner": candidate_playouts(True), "random": candidate_playouts(False)}
