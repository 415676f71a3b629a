"""Many games of one table as arrays, for batched learners: ``Batch(game, players)`` holds the
kernels' table array ``g``, deals states as rows of one ``(n, state size)`` array, and writes
viewers' tensors and masks for all of them in one native call (``kernels/tensor.py``).

The tensor is the one of ``game.tensor_writer(viewer)(state)`` and the mask the environments'
(``envs.table.Table.mask``), bit for bit; the tests check both on random games of every map and
player count.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ttr_lab.games.ticket_to_ride.kernels.rng import DEAL_KEY, derive_seed
from ttr_lab.games.ticket_to_ride.board import Board
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.setup import new_state
from ttr_lab.games.ticket_to_ride.kernels.tensor import write_views
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
from ttr_lab.games.ticket_to_ride.state import GameState, _state, face_of
from ttr_lab.games.ticket_to_ride.tables import tables_for
from ttr_lab.games.ticket_to_ride.tensor import _scales, layout

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.game import TicketToRide

# The plan's block slots (after the tensor's size and the seats): each the offset of the tensor
# layout's block of the same name.
_BLOCKS = tuple((slot, name) for slot, (name, _) in enumerate(L.TENSOR_PLAN) if slot >= L.W_HAND)


@functools.lru_cache(maxsize=None)
def tensor_plan(board: Board, ruleset: Ruleset, players: int) -> tuple[np.ndarray, np.ndarray]:
    """The tensor kernel's ``plan`` (block offsets, ``kernels.layout.W_*``) and ``scales`` (the
    counts' divisors, padded with 1 to the tensor's size) for a map, ruleset and player count."""
    lay = layout(board, ruleset)
    if lay.offsets["clock"] != 0:
        raise AssertionError("the tensor kernel writes the clock at offset 0")
    plan = np.zeros(L.WRITER_PLAN_SIZE, dtype=np.int64)
    plan[L.W_SIZE] = lay.size
    plan[L.W_SEATS] = board.max_players
    for slot, name in _BLOCKS:
        plan[slot] = lay.offsets.get(name, -1)  # -1: a block this game's tensor has not (tunnels, stations)
    scales = np.ones(lay.size, dtype=np.float32)
    counts = _scales(board, ruleset, players)
    scales[:counts.size] = counts
    plan.flags.writeable = scales.flags.writeable = False
    return plan, scales


class Batch:
    """One table (map, ruleset, player count) for many games at once."""

    def __init__(self, game: "TicketToRide", players: int) -> None:
        tables = tables_for(game.board, players, game.ruleset)
        self.players = players
        self.face = face_of(tables)
        self.g = self.face.g
        self.plan, self.scales = tensor_plan(game.board, game.ruleset, players)
        self.tensor_size = int(self.plan[L.W_SIZE])
        self.n_actions = int(self.g[L.N_ACTIONS])
        self.state_size = int(self.g[L.S_SIZE])

    def new_states(self, seeds: "Sequence[int] | np.ndarray") -> np.ndarray:
        """Row ``i``: the state ``game.new_game(players, seeds[i])`` deals."""
        out = np.empty((len(seeds), self.state_size), dtype=np.int64)
        for i, seed in enumerate(seeds):
            out[i] = new_state(self.g, np.uint64(derive_seed(int(seed), DEAL_KEY)))
        return out

    def views(self, states: np.ndarray, viewers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Tensors ``(n, tensor size)`` float32 and masks ``(n, actions)`` bool: row ``i`` is what
        seat ``viewers[i]`` sees of ``states[i]`` (its mask all False unless it is to move)."""
        n = states.shape[0]
        tensors = np.empty((n, self.tensor_size), dtype=np.float32)
        masks = np.empty((n, self.n_actions), dtype=np.bool_)
        write_views(self.g, states, np.asarray(viewers, dtype=np.int64), self.plan, self.scales, tensors, masks)
        return tensors, masks

    def state(self, row: np.ndarray) -> GameState:
        """A ``GameState`` of a copy of one row (without the public history: it was not kept)."""
        return _state(self.face, np.array(row, dtype=np.int64), None, 0)
