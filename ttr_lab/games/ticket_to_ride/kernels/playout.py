"""Whole play-outs in one native call: from a state, every seat plays a compiled policy to the
end, and the final scores come back. The policy here is uniform random over the legal ids (a
SplitMix64 stream of its own, so a play-out is reproducible from its seed)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.games.ticket_to_ride.kernels.rng import next_below
from ttr_lab.games.ticket_to_ride.kernels.scoring import score_game
from ttr_lab.games.ticket_to_ride.kernels.setup import new_state


@njit(cache=True)
def random_playout(g: np.ndarray, s: np.ndarray, seed: np.uint64, ids: np.ndarray, scratch: np.ndarray) -> int:
    """Play ``s`` to the end in place, each decision uniform over the legal ids; return the
    number of decisions. ``ids``, ``scratch``: room for every action id."""
    rng = seed
    decisions = 0
    while s[L.PHASE] != L.OVER:
        count = legal_ids(g, s, ids)
        rng, pick = next_below(rng, count)
        apply_action(g, s, ids[pick], scratch)
        decisions += 1
    return decisions


@njit(cache=True)
def _scored(g: np.ndarray, s: np.ndarray, seed: np.uint64, ids: np.ndarray, scratch: np.ndarray,
            out: np.ndarray, completed: np.ndarray, scores: np.ndarray) -> int:
    """Play ``s`` out at random, score it, each seat's total into ``scores``; the decisions made."""
    decisions = random_playout(g, s, seed, ids, scratch)
    score_game(g, s, out, completed)
    for p in range(g[L.N_PLAYERS]):
        scores[p] = out[p, L.R_TOTAL]
    return decisions


@njit(cache=True)
def random_playouts(g: np.ndarray, start: np.ndarray, seeds: np.ndarray, scores: np.ndarray) -> int:
    """One random play-out of a copy of ``start`` per seed; ``scores[i]``: the final score of
    each seat in play-out ``i``. Returns the decisions made in all."""
    n = g[L.N_PLAYERS]
    ids, scratch = np.empty(g[L.N_ACTIONS], dtype=np.int64), np.empty(g[L.N_ACTIONS], dtype=np.int64)
    out, completed = np.zeros((n, L.RESULT_COLUMNS), dtype=np.int64), np.zeros((n, g[L.N_TICKETS]), dtype=np.bool_)
    decisions = 0
    for i in range(seeds.shape[0]):
        decisions += _scored(g, start.copy(), np.uint64(seeds[i]), ids, scratch, out, completed, scores[i])
    return decisions


@njit(cache=True)
def random_games(g: np.ndarray, deal_seeds: np.ndarray, seeds: np.ndarray, scores: np.ndarray) -> int:
    """Whole random games, dealt and scored: game ``i`` is dealt from ``deal_seeds[i]`` (a
    ``derive_seed(seed, DEAL_KEY)``, as ``GameState.new``) and played with ``seeds[i]``."""
    n = g[L.N_PLAYERS]
    ids, scratch = np.empty(g[L.N_ACTIONS], dtype=np.int64), np.empty(g[L.N_ACTIONS], dtype=np.int64)
    out, completed = np.zeros((n, L.RESULT_COLUMNS), dtype=np.int64), np.zeros((n, g[L.N_TICKETS]), dtype=np.bool_)
    decisions = 0
    for i in range(seeds.shape[0]):
        s = new_state(g, np.uint64(deal_seeds[i]))
        decisions += _scored(g, s, np.uint64(seeds[i]), ids, scratch, out, completed, scores[i])
    return decisions
