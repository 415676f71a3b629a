"""A leaf's reward, compiled, for every search: the play-out's work buffers, the lead in points
(``lead``), and a value network over the observation tensor (``value_of``)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.scoring import score_game
from ttr_lab.games.ticket_to_ride.kernels.tensor import write_tensor

@njit(cache=True)
def value_of(g: np.ndarray, s: np.ndarray, me: int, tplan: np.ndarray, scales: np.ndarray, weights: np.ndarray,
             sizes: np.ndarray, x: np.ndarray, h: np.ndarray) -> float:
    """The value network on ``me``'s observation tensor of ``s``: a multi-layer perceptron with
    layer widths ``sizes`` (the tensor's size first, 1 last), ReLU between layers, read from
    ``weights`` layer by layer as ``W`` (``sizes[i]`` rows of ``sizes[i + 1]``, row-major:
    ``x @ W``) then ``b``. ``x``, ``h``: scratch as wide as the widest layer."""
    write_tensor(g, s, me, tplan, scales, h)
    width = sizes[0]
    for i in range(width):
        x[i] = h[i]
    at = 0
    last = sizes.shape[0] - 2
    for layer in range(last + 1):
        out = sizes[layer + 1]
        bias = at + width * out
        for j in range(out):
            h[j] = weights[bias + j]
        # Row by row (the weights' own order, not strided), and a zero input (most of the
        # observation tensor) costs nothing: a tenth of the time of the column-wise sum.
        for i in range(width):
            xi = x[i]
            if xi != 0.0:
                row = at + i * out
                for j in range(out):
                    h[j] += xi * weights[row + j]
        at = bias + out
        width = out
        for j in range(width):
            x[j] = h[j] if layer == last or h[j] > 0.0 else 0.0
    return x[0]


class PlayoutBuffers(NamedTuple):
    """The working arrays of ``planner_playout`` and ``lead``, made once per kernel call (numba
    reads the fields by name at compile time: no cost over a tuple)."""

    scratch: np.ndarray  # an action scratch, one slot per action id
    plans: np.ndarray  # every seat's plan (tracks), (players, tracks)
    plan_sizes: np.ndarray  # its size, per seat
    before: np.ndarray  # the tracks each seat held when it planned
    keys: np.ndarray  # each seat's plan key (what the plan was made for)
    result: np.ndarray  # the scoring table, (players, result columns)
    completed: np.ndarray  # the tickets each seat completed


@njit(cache=True)
def playout_buffers(g: np.ndarray) -> PlayoutBuffers:
    """Fresh ``PlayoutBuffers`` for the game ``g``."""
    n_players, nt = g[L.N_PLAYERS], g[L.N_TRACKS]
    return PlayoutBuffers(np.empty(g[L.N_ACTIONS], dtype=np.int64),
            np.zeros((n_players, nt), dtype=np.int64), np.zeros(n_players, dtype=np.int64),
            np.zeros((n_players, nt), dtype=np.bool_), np.zeros((n_players, 3), dtype=np.int64),
            np.zeros((n_players, L.RESULT_COLUMNS), dtype=np.int64),
            np.zeros((n_players, g[L.N_TICKETS]), dtype=np.bool_))


@njit(cache=True)
def lead(g: np.ndarray, s: np.ndarray, me: int, result: np.ndarray, completed: np.ndarray) -> float:
    """``me``'s score less the best other seat's, the game scored as if it ended at ``s``."""
    score_game(g, s, result, completed)
    best = -1e18
    for q in range(g[L.N_PLAYERS]):
        if q != me and result[q, L.R_TOTAL] > best:
            best = result[q, L.R_TOTAL]
    return result[me, L.R_TOTAL] - best
