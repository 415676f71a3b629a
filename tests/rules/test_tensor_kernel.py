"""The tensor and mask kernels (``Batch.views``) against the Python writers the environments use:
at every step of random games, for every seat, the same tensor as ``game.tensor_writer(seat)``
and the same mask as ``Table.mask(seat)``, on both maps at 2-5 players; and nothing the viewer
cannot see changes its tensor."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ttr_lab.core.game import load_game
from ttr_lab.envs.table import Table
from ttr_lab.games.ticket_to_ride.batch import Batch

VARIANTS = [(m, n) for m in ("usa", "legendary_asia") for n in (2, 3, 4, 5)] + [("europe", 2), ("europe", 5)]


@pytest.mark.parametrize("map_name,players", VARIANTS)
def test_batched_views_are_the_writers_and_the_env_masks(map_name, players):
    game = load_game("ticket_to_ride", map=map_name)
    batch = Batch(game, players)
    writers = [game.tensor_writer(seat) for seat in range(players)]
    seats = np.arange(players)
    rng = random.Random(players)
    for seed in (1, 2):
        table = Table(game, players)
        table.new_game(seed)
        assert np.array_equal(batch.new_states([seed])[0], table.state.s)
        steps = 0
        while True:
            rows = np.repeat(table.state.s[None, :], players, axis=0)
            tensors, masks = batch.views(rows, seats)
            for seat in seats:
                assert np.array_equal(tensors[seat], writers[seat](table.state)), (seed, steps, seat)
                assert np.array_equal(masks[seat], table.mask(seat).astype(bool)), (seed, steps, seat)
            if table.over:
                break
            legal = np.flatnonzero(masks[table.to_move])
            assert table.apply_id(int(legal[rng.randrange(len(legal))]))
            steps += 1
        assert not masks.any()  # nobody moves once the game is over


def test_hidden_information_does_not_reach_the_tensor():
    game = load_game("ticket_to_ride", map="usa")
    batch = Batch(game, 4)
    rng = random.Random(5)
    state = game.new_game(4, 9)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    for viewer in range(4):
        twin = game.determinize(state.observation(viewer), random.Random(viewer))
        assert not np.array_equal(twin.s, state.s)  # the others' hands, the pile, the deck differ
        tensors, _ = batch.views(np.stack([state.s, twin.s]), np.array([viewer, viewer]))
        assert np.array_equal(tensors[0], tensors[1])


def test_a_state_row_becomes_a_game_state():
    game = load_game("ticket_to_ride", map="usa")
    batch = Batch(game, 3)
    row = batch.new_states([7])[0]
    state = batch.state(row)
    assert state.legal_actions() == game.new_game(3, 7).legal_actions()
    state.apply(state.legal_actions()[0])
    assert np.array_equal(row, batch.new_states([7])[0])  # a copy: the row is untouched


def test_the_kernels_agree_interpreted_too():
    """``NUMBA_DISABLE_JIT=1`` runs the same kernels as plain Python: one variant's differential
    test, the hidden twins and the state rows pass that way as well."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("already interpreted")
    here = Path(__file__)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", str(here),
         "-k", "usa-2 or hidden or row"],
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"}, cwd=here.parents[2], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "3 passed" in done.stdout.splitlines()[-1]
