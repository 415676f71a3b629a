"""The tensor layouts: docs/rl.md shows the code's own (``layout.describe()``), and each block
holds what it says on a hand-read position."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ttr_lab.core.game import load_game
from ttr_lab.core.tensor_layout import TensorLayout
from ttr_lab.games.ticket_to_ride.tensor import layout as ttr_layout
from ttr_lab.games.trans_orient.tensor import layout as toe_layout

DOC = (Path(__file__).resolve().parents[2] / "docs/rl.md").read_text()


def test_the_documented_layouts_are_the_code_s():
    usa = load_game("ticket_to_ride", map="usa")
    toe = load_game("trans_orient")
    assert ttr_layout(usa.board, usa.ruleset).describe() in DOC
    assert toe_layout(toe.deck).describe() in DOC


def test_ticket_to_ride_blocks_hold_the_viewer_s_position():
    game = load_game("ticket_to_ride", map="usa")
    state = game.new_game(3, 4)
    viewer = 1
    obs = state.observation(viewer)
    x = game.observation_tensor(obs)
    lay = ttr_layout(game.board, game.ruleset)
    assert np.allclose(x[lay.slice_of("hand")] * game.ruleset.cards_per_colour, obs.hand)
    assert x[lay.slice_of("num_players")].tolist() == [0, 0, 1, 0, 0]
    assert x[lay.slice_of("to_move")].tolist() == [0, 0, 1, 0, 0]  # seat 0 is two seats after seat 1
    offered = np.flatnonzero(x[lay.slice_of("offered")])
    assert offered.tolist() == sorted(obs.offered) and len(offered) == game.ruleset.initial_tickets
    assert np.allclose(x[lay.slice_of("trains")] * game.ruleset.trains_per_player, [45, 45, 45, 0, 0])
    assert not x[lay.slice_of("owner")].any()


def test_trans_orient_blocks_hold_the_public_table():
    game = load_game("trans_orient")
    state = game.new_game(2, 4)
    obs = state.observation(0)
    x = game.observation_tensor(obs)
    lay = toe_layout(game.deck)
    lower = x[lay.slice_of("lower")].reshape(5, len(game.deck.travel))
    assert [int(np.flatnonzero(row)[0]) + 1 if row.any() else 0 for row in lower] == list(obs.lower)
    assert x[lay.slice_of("objectives")].sum() == len(obs.objectives) == 3


@pytest.mark.parametrize("blocks, says", [
    ([("a", 2, ""), ("a", 1, "")], "twice"),
    ([("a", -1, "")], "negative"),
])
def test_bad_layouts_are_refused(blocks, says):
    with pytest.raises(ValueError, match=says):
        TensorLayout(blocks)


def test_trans_orient_tensor_ignores_what_the_viewer_cannot_know():
    """The game contract checks this for games with a hidden-twin hook (Ticket to Ride); Trans-Orient
    Express's twin lives in its own test helpers: the unknown deck order, opponents' luggage and
    the bag's future draws changed, every seat's tensor the same."""
    import random
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "trans_orient"))
    from toe_helpers import hidden_shuffle, random_game_states

    game = load_game("trans_orient")
    rng = random.Random(5)
    changed = 0
    for n in (2, 3, 4):
        for i, (state, _legal, _action) in enumerate(random_game_states(n, 40 + n, game)):
            if i % 7:
                continue
            for viewer in range(n):
                twin = hidden_shuffle(state, viewer, rng)
                changed += twin.snapshot() != state.snapshot()
                assert np.array_equal(game.observation_tensor(twin.observation(viewer)),
                                      game.observation_tensor(state.observation(viewer)))
    assert changed, "the twins never changed anything hidden"


STATE_TENSOR_CASES = [("ticket_to_ride", {"map": "usa"}, n) for n in (2, 3, 4, 5)] + [
    ("ticket_to_ride", {"map": "legendary_asia"}, n) for n in (2, 4)] + [("trans_orient", {}, n) for n in (2, 3, 4)]


@pytest.mark.parametrize("name, options, n", STATE_TENSOR_CASES, ids=lambda x: str(x))
def test_the_state_tensor_is_the_observation_s_at_every_step_for_every_seat(name, options, n):
    """The fast paths (``state.observation_tensor``, a seat's writer) against the tensor of the ``Observation``, on
    two seeded random games played in turn, so its caches meet states of another game in
    between."""
    import random

    game = load_game(name, **options)
    writers = [game.tensor_writer(seat) for seat in range(n)]  # each keeps its blocks across both games
    states = [game.new_game(n, seed) for seed in (11, 12)]
    rngs = [random.Random(11), random.Random(12)]
    checked = 0
    while not all(s.is_terminal() for s in states):
        for state, rng in zip(states, rngs):
            for seat in range(n):
                expected = game.observation_tensor(state.observation(seat))
                assert np.array_equal(state.observation_tensor(seat), expected), (name, n, state.turns, seat)
                written = writers[seat](state)
                assert np.array_equal(written, expected), ("writer", name, n, state.turns, seat)
                written[:] = 7.0  # the caller's own array: the writer keeps nothing of it
                checked += 1
            if not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
    assert checked > 100 * n
    with pytest.raises(ValueError, match="no player"):
        states[0].observation_tensor(n)
    with pytest.raises(ValueError, match="no player"):
        game.tensor_writer(n)(states[0])


@pytest.mark.parametrize("name, options, n", [("ticket_to_ride", {"map": "usa"}, 4), ("trans_orient", {}, 3)],
                         ids=lambda x: str(x))
def test_a_tensor_writer_is_right_for_positions_in_any_order(name, options, n):
    """A writer keeps what it last wrote; positions of one game met backwards and shuffled (as a
    search or a replay buffer would) must not inherit any of it."""
    import random

    game = load_game(name, **options)
    state, rng = game.new_game(n, 21), random.Random(21)
    positions = []
    while not state.is_terminal():
        positions.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    positions.append(state)
    order = positions[::-1] + rng.sample(positions, len(positions))
    writers = [game.tensor_writer(seat) for seat in range(n)]
    for position in order:
        for seat in range(n):
            assert np.array_equal(writers[seat](position), game.observation_tensor(position.observation(seat)))


def test_a_tensor_template_clears_what_a_block_no_longer_has():
    from ttr_lab.core.tensor_template import TensorTemplate

    template = TensorTemplate(6, fixed_ones=(0,))
    assert template.sources.get("a") is None
    template.write("a", (1, 2), [1, 2])
    template.write("b", (5,), [5])
    assert template.fresh().tolist() == [1, 1, 1, 0, 0, 1]
    template.write("a", (2, 3), [2, 3])
    out = template.fresh()
    assert out.tolist() == [1, 0, 1, 1, 0, 1] and template.sources["a"] == (2, 3)
    out[:] = 9  # a copy: the template is untouched
    assert template.fresh().tolist() == [1, 0, 1, 1, 0, 1]
    assert template.fresh().dtype == np.float32


def test_a_copied_tensor_template_writes_into_its_own_array():
    import copy
    import pickle

    from ttr_lab.core.tensor_template import TensorTemplate

    template = TensorTemplate(4, fixed_ones=(0,))
    template.write("a", (1,), [1])
    for other in (copy.deepcopy(template), pickle.loads(pickle.dumps(template))):
        other.write("a", (2,), [2])
        assert other.fresh().tolist() == [1, 0, 1, 0]
    assert template.fresh().tolist() == [1, 1, 0, 0]
