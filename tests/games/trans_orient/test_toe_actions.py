"""Actions: text forms, the parser and its errors, what a record and a listener see."""

from __future__ import annotations

import re

import pytest

from toe_helpers import DECK, GAME, act, make_state
from ttr_lab.core.errors import IllegalActionError
from ttr_lab.games.trans_orient import (
    NO_PLAY, GiveCard, GiveToken, KeepLuggage, PlaceMaster, Play, TakeCard, TakeTokens,
)
from ttr_lab.games.trans_orient.actions import action_table


def every_action():
    t = action_table(DECK)
    return [*t.take_card, *t.take_tokens, *t.master, *t.play[1:], *t.give_card[1:], *t.keep_luggage[1:],
            *t.give_token, NO_PLAY]


def test_every_action_reads_back_from_its_text():
    actions = every_action()
    assert len(actions) == 5 * 3 + 72 * 2 + 16 + 5 + 1
    for a in actions:
        assert GAME.parse_action(str(a)) == a
        assert GAME.parse_action(str(a).upper()) == a


@pytest.mark.parametrize("text,action", [
    ("take card 3", TakeCard(3)),
    ("  Take   Tokens 0 ", TakeTokens(0)),
    ("station master 4", PlaceMaster(4)),
    ("play 72", Play(72)),
    ("play #17", Play(17)),
    ("no play", NO_PLAY),
    ("pass", NO_PLAY),
    ("keep luggage 16", KeepLuggage(16)),
    ("give back card 1", GiveCard(1)),
    ("give back purple", GiveToken(4)),
    ("give back token 2", GiveToken(2)),
])
def test_parser_accepts(text, action):
    assert GAME.parse_action(text) == action


@pytest.mark.parametrize("text,message", [
    ("take card 5", "no column 5 (from 0 to 4)"),
    ("play 0", "no card 0 (from 1 to 72)"),
    ("play 73", "no card 73"),
    ("keep luggage 17", "no luggage card 17 (from 1 to 16)"),
    ("give back orange", "unknown colour 'orange'; colours: blue, green, yellow, red, purple"),
    ("give back token 5", "no colour 5"),
    ("draw blind", "cannot read action 'draw blind'"),
    ("take card", "cannot read action"),
])
def test_parser_refuses_text_that_names_no_action(text, message):
    with pytest.raises(IllegalActionError, match=re.escape(message)):
        GAME.parse_action(text)


def test_a_hand_made_token_action_gets_its_colour_name_in_records():
    state = make_state(3, phase="give_token", reserves=[dict(blue=4, red=3), {}, {}])
    assert state.action_text(GiveToken(3)) == "give back red"
    assert GiveToken(3) in state.legal_actions()
    act(state, "give back token 3")
    assert str(state.last_event()[1]) == "give back red"


def test_objects_that_are_not_actions_are_refused_by_name():
    state = GAME.new_game(2, 1)
    with pytest.raises(IllegalActionError, match="str is not an action"):
        state.apply("take card 0")


def test_last_event_shows_the_public_action_and_the_card_moved():
    state = make_state(3, lower=[20, 21, 22, 23])
    assert state.last_event() == ()
    act(state, "take tokens 1")
    assert state.last_event() == (0, TakeTokens(1), 21)
    act(state, "station master 2")
    assert state.last_event() == (0, PlaceMaster(2), None)  # no card moved
    assert [str(e.action) for e in state.history()] == ["take tokens 1", "station master 2"]
