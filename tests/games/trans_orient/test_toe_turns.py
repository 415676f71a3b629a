"""The mandatory action, the station master, turn order, the end of a round, short rounds, stalls."""

from __future__ import annotations

import pytest

from toe_helpers import GAME, Phase, act, make_state, pile, reserve, texts, tokens
from ttr_lab.core.errors import IllegalActionError

PILES4 = [dict(red=3), dict(blue=1, green=2), dict(yellow=3), dict(purple=2, red=1)]


def three_players(**kw):
    """3 players, player 0 starts; lower 20-23 (nothing affordable: empty reserves), upper 24-27."""
    base = dict(lower=[20, 21, 22, 23], upper=[24, 25, 26, 27], piles=PILES4)
    base.update(kw)
    return make_state(3, **base)


# -- the mandatory action ----------------------------------------------------------------------

def test_the_mandatory_action_is_a_card_or_a_pile_of_any_open_column():
    state = three_players()
    assert texts(state) == [f"take card {c}" for c in range(4)] + [f"take tokens {c}" for c in range(4)]


def test_taking_a_card_puts_it_in_hand_and_its_pile_in_the_bag():
    state = three_players()
    bag = list(state.bag)
    act(state, "take card 0")
    assert state.hands[0] == (20,) and state.lower[0] == 0
    assert pile(state, 0) == tokens() and state.bag[3] == bag[3] + 3  # red
    assert reserve(state, 0) == tokens()


def test_taking_a_pile_puts_it_in_the_reserve_and_the_card_under_the_deck_in_sight():
    state = three_players()
    act(state, "take tokens 1")
    assert reserve(state, 0) == tokens(blue=1, green=2) and state.hands[0] == ()
    assert state.deck[-1] == 21 and state.deck_known == 1 and state.lower[1] == 0
    assert state.observation(1).deck_bottom == (21,)


def test_an_empty_pile_can_still_be_taken():  # Further decision 4
    state = three_players(piles=[dict(), dict(), dict(), dict()])
    act(state, "take tokens 2", "station master 0")
    assert reserve(state, 0) == tokens() and state.deck[-1] == 22


@pytest.mark.parametrize("text,reason", [
    ("take card 4", "there are 4 columns"),
    ("play 20", "the mandatory action comes first"),
    ("station master 1", "the mandatory action comes first"),
    ("no play", "the mandatory action comes first"),
])
def test_refused_mandatory_actions(text, reason):
    state = three_players()
    with pytest.raises(IllegalActionError, match=reason):
        act(state, text)


def test_an_emptied_column_cannot_be_taken_again_this_round():
    state = three_players()
    act(state, "take card 0", "station master 3")
    assert "take card 0" not in texts(state) and "take tokens 0" not in texts(state)
    with pytest.raises(IllegalActionError, match="column 0 is empty"):
        act(state, "take tokens 0")


# -- the station master --------------------------------------------------------------------------

def test_the_first_player_places_the_station_master_on_a_column_still_present():
    state = three_players()
    act(state, "take card 1")
    assert state.phase == Phase.STATION and state.player == 0
    assert texts(state) == ["station master 0", "station master 2", "station master 3"]
    with pytest.raises(IllegalActionError, match="column 1 is empty"):
        act(state, "station master 1")
    act(state, "station master 2")
    assert state.mcol == 2 and state.player == 1 and state.phase == Phase.TAKE


def test_a_later_player_emptying_that_column_takes_the_station_master_and_starts_next_round():
    state = three_players()
    act(state, "take card 0", "station master 2", "take tokens 2")  # player 1 empties column 2
    assert state.master == 1 and state.mcol == -1
    act(state, "take card 3")  # player 2; column 1 remains
    assert state.round == 2 and state.starter == state.player == 1 and state.order == (1, 2, 0)


def test_an_untaken_station_master_goes_back_to_the_player_who_started_the_round():
    state = three_players()
    act(state, "take card 0", "station master 2", "take card 1", "take card 3")  # column 2 remains
    assert state.round == 2 and state.master == state.starter == state.player == 0


def test_with_one_column_left_the_station_master_goes_there_without_a_choice():
    state = three_players(lower=[20, 21, 0, 0], upper=[24, 25, 26, 27], piles=[dict(red=3), dict(), dict(), dict()])
    act(state, "take card 0")
    assert state.mcol == 1 and state.phase == Phase.TAKE and state.player == 1


def test_with_no_column_left_the_first_player_keeps_the_station_master():  # Further decision 3
    state = three_players(lower=[20, 0, 0, 0], piles=[dict(red=3), dict(), dict(), dict()])
    act(state, "take card 0")
    assert state.mcol == -1 and state.round == 2 and state.starter == 0


def test_two_players_play_1_2_2_1_and_hand_the_station_master_over():
    state = make_state(2, lower=[20, 21, 22, 23, 24], upper=[25, 26, 27, 28, 29])
    seats = []
    for text in ["take card 0", "take card 1", "take card 2", "take card 3"]:
        seats.append(state.player)
        act(state, text)
    assert seats == [0, 1, 1, 0]
    assert state.round == 2 and state.starter == state.player == 1 and state.order == (1, 0, 0, 1)
    assert state.mcol == -1  # never placed with 2 players
    assert not any(isinstance(a, type(GAME.parse_action("station master 0"))) for a in state.legal_actions())


# -- the end of a round ------------------------------------------------------------------------

def test_end_of_round_extra_token_slide_refill_and_new_piles():
    state = three_players(deck=[40, 41, 42, 43, 44])
    act(state, "take card 0", "station master 2", "take card 1", "take card 3")  # column 2 remains
    assert state.lower == [24, 25, 22, 27]  # slid down; the card of the remaining column stays
    assert state.upper == [40, 41, 26, 42]  # the upper card above it stays up; refilled left to right
    assert state.deck[:2] == (43, 44)
    assert sum(pile(state, 2).values()) == 4 and pile(state, 2)["yellow"] >= 3  # its pile, plus one
    assert [sum(pile(state, c).values()) for c in (0, 1, 3)] == [3, 3, 3]


def test_with_a_short_bag_piles_get_what_there_is_left_to_right():  # Further decision 5
    # The bag holds 4 purple tokens; player 2 takes the last turn of the round.
    state = three_players(
        lower=[20, 0, 0, 23], turn=2, master_column=3, piles=[dict(), dict(), dict(), dict(red=1)],
        reserves=[dict(blue=10, green=10, yellow=3), dict(yellow=7, red=9, purple=6), dict()])
    assert state.bag == [0, 0, 0, 0, 4]
    act(state, "take tokens 0")
    assert state.round == 2 and sum(state.bag) == 0
    assert pile(state, 3) == tokens(red=1, purple=1)  # the remaining column's extra token first
    assert [pile(state, c) for c in (0, 1, 2)] == [tokens(purple=3), tokens(), tokens()]
    assert state.master == state.starter == 0  # the station master on column 3 was not taken


def test_a_round_short_of_columns_is_played_until_no_column_is_left():  # Further decision 2
    rest = [x for x in range(1, 73) if x not in (20, 21)]
    state = make_state(3, lower=[20, 21, 0, 0], upper=[0, 0, 0, 0], played=[rest[:24], rest[24:47], rest[47:]],
                       piles=[dict(red=3), dict(), dict(), dict()])
    act(state, "take card 0")  # the station master goes on column 1 without a choice
    if state.phase == Phase.PLAY:
        act(state, "no play")
    assert state.player == 1 and state.mcol == 1
    act(state, "take tokens 1")  # the last column: the round ends, and no new round can start
    assert state.is_terminal() and state.stalled


def test_the_game_stalls_at_the_end_of_the_40th_round():  # Further decision 10
    state = three_players(round=40)
    act(state, "take card 0", "station master 2", "take card 1", "take card 3")
    assert state.is_terminal() and state.stalled and state.round == 40
    assert state.outcome().termination.value == "stalled"
    state = three_players(round=39)
    act(state, "take card 0", "station master 2", "take card 1", "take card 3")
    assert not state.is_terminal() and state.round == 40
