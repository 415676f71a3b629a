"""``ActionSpace``: ids by position, looked up by object for the game's own action objects and
by value for equal copies (parsed text, pickled actions), with the same answer either way."""

from __future__ import annotations

import pickle
from dataclasses import dataclass

import pytest

from ttr_lab.core.actions import ActionSpace
from ttr_lab.core.errors import IllegalActionError
from ttr_lab.core.game import load_game


@dataclass(frozen=True)
class Move:
    to: int


def test_ids_are_positions_for_the_space_s_objects_and_for_equal_copies():
    actions = [Move(i) for i in range(5)]
    space = ActionSpace(actions, "toy")
    assert space.ids(actions[::-1]) == [4, 3, 2, 1, 0]
    copies = [Move(3), actions[1], Move(0)]  # two are not the space's objects
    assert space.ids(copies) == [3, 1, 0]
    assert space.id_of(Move(2)) == 2 and space.action_of(2) is actions[2]
    with pytest.raises(KeyError):
        space.ids([Move(9)])
    with pytest.raises(IllegalActionError, match="not an action of toy"):
        space.id_of(Move(9))
    with pytest.raises(ValueError, match="listed twice"):
        ActionSpace([Move(1), Move(1)], "toy")


@pytest.mark.parametrize("name, options", [("ticket_to_ride", {"map": "usa"}), ("trans_orient", {})])
def test_a_game_s_legal_actions_and_their_pickled_copies_have_the_same_ids(name, options):
    game = load_game(name, **options)
    state = game.new_game(3, 5)
    space = game.action_space
    for _ in range(40):
        legal = state.legal_actions()
        copies = pickle.loads(pickle.dumps(legal))
        assert all(a == b for a, b in zip(copies, legal))
        assert space.ids(copies) == space.ids(legal) == [space.id_of(a) for a in legal]
        state.apply(legal[0])


def test_an_id_is_any_integer_and_nothing_else():
    """Policies return numpy integers (argmax, sample()); a float, bool or string is no id, so an
    output like 2.7 is refused rather than truncated into another action."""
    np = pytest.importorskip("numpy")
    actions = [Move(i) for i in range(5)]
    space = ActionSpace(actions, "toy")
    for carrier in (2, np.int64(2), np.int32(2), np.uint8(2), np.array(2)):
        assert space.action_of(carrier) is actions[2], type(carrier)
    for bad in (2.0, 2.7, np.float32(2), "2", True, np.True_, [2], np.array([2]), None, 5, -1):
        with pytest.raises(IllegalActionError, match="not an action id of toy"):
            space.action_of(bad)
