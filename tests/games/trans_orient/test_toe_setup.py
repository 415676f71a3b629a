"""Setup: reserves, the central station, piles, objectives, luggage, the first player; turn orders."""

from __future__ import annotations

import json

import pytest

from toe_helpers import COLOURS, DECK, GAME, Phase, pile, reserve
from ttr_lab.core.errors import ConfigError
from ttr_lab.games.trans_orient import ObjectiveType, columns_for, round_order


@pytest.mark.parametrize("n,columns", [(2, 5), (3, 4), (4, 5)])
def test_columns_are_the_turns_of_a_round_plus_one(n, columns):
    assert columns_for(n) == columns
    state = GAME.new_game(n, 3)
    assert len(state.lower) == len(state.upper) == columns
    assert len(state.order) == columns - 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_what_the_rules_say(n):
    state = GAME.new_game(n, 11)
    cols = columns_for(n)
    assert all(sum(reserve(state, p).values()) == 2 for p in range(n))
    assert all(state.lower) and all(state.upper)
    assert all(sum(pile(state, c).values()) == 3 for c in range(cols))
    assert len(state.deck) == 72 - 2 * cols and state.deck_known == 0
    assert sum(state.bag) == 50 - 2 * n - 3 * cols
    assert len(state.lug_deck) == 16 and all(by == -1 for by in state.lug_by)
    assert [DECK.objective(o).type for o in state.objectives] == list(ObjectiveType)
    assert state.hands == [()] * n and state.played == [()] * n and state.luggage == [()] * n
    assert state.phase == Phase.TAKE and state.round == 1 and state.tidx == 0
    assert state.player == state.starter == state.master and state.mcol == -1


def test_first_player_objectives_and_rows_come_from_the_seed():
    firsts = {GAME.new_game(4, seed).player for seed in range(40)}
    objectives = {GAME.new_game(4, seed).objectives for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert len(objectives) > 10
    a, b = GAME.new_game(3, 5), GAME.new_game(3, 5)
    assert json.dumps(a.snapshot()) == json.dumps(b.snapshot())
    assert GAME.new_game(3, 6).snapshot() != a.snapshot()


def test_round_orders():
    assert round_order(0, 2) == (0, 1, 1, 0)
    assert round_order(1, 2) == (1, 0, 0, 1)
    assert round_order(2, 3) == (2, 0, 1)
    assert round_order(3, 4) == (3, 0, 1, 2)


@pytest.mark.parametrize("n", [1, 5])
def test_player_counts_outside_2_to_4_are_refused(n):
    with pytest.raises(ConfigError, match="2-4 players"):
        GAME.new_game(n, 1)


def test_the_standin_deck_is_labelled_and_complete():
    assert DECK.status == "stand-in" and "not the published" in DECK.title.lower()
    assert (len(DECK.travel), len(DECK.luggage), len(DECK.objectives)) == (72, 16, 18)
    assert COLOURS == ("blue", "green", "yellow", "red", "purple")
    assert {c.vp for c in DECK.travel} == set(range(1, 13))
    kinds = {c.effect for c in DECK.travel}
    assert len(kinds) == 5  # none, discount, capacity, luggage, VP per colour
    assert {(o.type, o.scoring) for o in DECK.objectives} == {
        (ObjectiveType.VISA, 0), (ObjectiveType.VISA, 1), (ObjectiveType.SEASON, 2),
        (ObjectiveType.ROUTE, 0), (ObjectiveType.ROUTE, 1)}
    assert len({c.effect for c in DECK.luggage}) == 5
    assert any(c.passport for c in DECK.travel) and any(c.passport for c in DECK.luggage)
    # the example of the rules: destination 5 is in the Middle East, green
    assert {(c.region, COLOURS[c.colour]) for c in DECK.travel if c.destination == 5} == {("Middle East", "green")}
