"""Errors: unreadable actions, and refusals that say why."""

import pytest

from helpers import act, make_state
from ttr_lab import IllegalActionError
from ttr_lab.games.ticket_to_ride import load_board, parse_action

BOARD = load_board("usa")
L = "locomotive"


@pytest.mark.parametrize("text", [
    "", "fly to the moon", "draw", "draw market", "draw market x", "keep", "keep a,b",
    "claim", "claim Atlanta-Miami blue with", "claim Atlanta-Miami blue with five blue",
    "claim Atlanta-Miami blue with 5 mauve", "claim Nowhere-Atlantis with 2 red",
    "claim Atlanta-Miami purple-ish with 5 blue", "passes",
])
def test_parse_action_garbage(text):
    with pytest.raises(IllegalActionError):
        parse_action(text, BOARD)


def test_parse_action_round_trip():
    s = make_state(hands=[{"blue": 3, L: 3, "red": 2}, {}])
    for a in s.legal_actions():
        assert parse_action(str(a), BOARD) == a


def test_illegal_action_error_is_a_value_error():
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize("position,text,reason", [
    (dict(market=["locomotive", "red", "orange", "yellow", "green"], phase="second_draw"),
     "draw market 0", "second card"),
    (dict(hands=[{"blue": 5}, {}], claimed={"Atlanta-Miami blue": 1}),
     "claim Atlanta-Miami blue with 5 blue", "already claimed"),
    (dict(hands=[{"blue": 5}, {}], trains=[3, 45]),
     "claim Atlanta-Miami blue with 5 blue", "trains"),
    (dict(num_players=4, hands=[{"orange": 4}, {}, {}, {}], claimed={"Denver-Kansas City black": 0}),
     "claim Denver-Kansas City orange with 4 orange", "both tracks"),
    (dict(hands=[{"blue": 2}, {}]), "claim Atlanta-Miami blue with 5 blue", "has 2 blue"),
    (dict(tickets_held=[list(range(30)), []]), "tickets", "ticket deck is empty"),
    (dict(), "pass", "no other action"),
    (dict(offered=[[0, 1, 2], []], phase="keep_tickets"), "keep 5", "indices"),
])
def test_refusal_names_the_reason(position, text, reason):
    s = make_state(**position)
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match=reason):
        act(s, text)
    assert s.snapshot() == before


def test_non_action_refused():
    s = make_state()
    with pytest.raises(IllegalActionError, match="not an action"):
        s.apply("draw blind")
