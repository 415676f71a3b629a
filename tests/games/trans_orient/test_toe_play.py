"""The optional play (costs, discounts, effects, luggage), the end-of-turn limits, the 7th card."""

from __future__ import annotations

import pytest

from toe_helpers import DECK, Effect, Phase, act, make_state, reserve, texts, tokens
from ttr_lab.core.errors import IllegalActionError
from ttr_lab.games.trans_orient import LUGGAGE_KEPT


def test_the_cards_these_tests_use():
    assert DECK.card(1).effect == Effect.DISCOUNT and DECK.colours[DECK.card(1).effect_colour] == "blue"
    assert DECK.card(2).cost == (1, 0, 1, 0, 0) and DECK.card(2).effect == Effect.NONE
    assert DECK.card(3).effect == Effect.LUGGAGE and DECK.card(3).cost == (1, 0, 0, 0, 0)
    assert DECK.card(5).effect == Effect.CAPACITY and DECK.card(5).cost == (1, 0, 0, 0, 0)
    assert DECK.card(7).cost == (1, 0, 0, 0, 0) and DECK.card(27).effect == Effect.DISCOUNT
    assert DECK.colours[DECK.card(27).effect_colour] == "blue"
    assert DECK.card(19).cost == (1, 2, 0, 0, 0) and DECK.card(22).cost == (0, 1, 0, 1, 0)


def playing(hand, reserve_=None, n=3, **kw):
    """Player 0 (3 players, first turn of the round taken) deciding whether to play."""
    reserves = [reserve_ or {}] + [{}] * (n - 1)
    return make_state(n, phase="play", hands=[hand] + [[]] * (n - 1), reserves=reserves, **kw)


# -- the optional play -----------------------------------------------------------------------------

def test_a_card_is_played_by_paying_its_cost_to_the_bag():
    state = playing([2, 19], dict(blue=1, yellow=1, red=1))
    assert texts(state) == ["no play", "play 2"]  # 19 needs 2 green
    bag = list(state.bag)
    act(state, "play 2")
    assert state.played[0] == (2,) and state.hands[0] == (19,)
    assert reserve(state, 0) == tokens(red=1)
    assert state.bag == [bag[0] + 1, bag[1], bag[2] + 1, bag[3], bag[4]]
    assert state.phase == Phase.TAKE and state.player == 1


@pytest.mark.parametrize("text,reason", [
    ("play 19", "costs 2 green after discounts; the reserve holds 0"),
    ("play 5", "card 5 is not in the player's hand"),
    ("take card 1", "this is the optional action"),
    ("give back card 2", "this is the optional action"),
])
def test_refused_plays(text, reason):
    state = playing([2, 19], dict(blue=1, yellow=1, red=1))
    with pytest.raises(IllegalActionError, match=reason):
        act(state, text)


def test_no_play_ends_the_turn():
    state = playing([2], dict(blue=1, yellow=1))
    act(state, "no play")
    assert state.played[0] == () and state.hands[0] == (2,) and state.player == 1


def test_with_nothing_affordable_the_optional_action_is_skipped():
    state = make_state(3, hands=[[19], [], []], piles=[dict(red=1), {}, {}, {}])
    act(state, "take tokens 0", "station master 1")
    assert state.phase == Phase.TAKE and state.player == 1


def test_discounts_are_permanent_add_up_and_never_go_below_zero():
    state = playing([2, 7], dict(yellow=1), played=[[1, 27], [], []])  # two blue discounts
    assert state.discounts[:5] == [2, 0, 0, 0, 0]
    assert texts(state) == ["no play", "play 2", "play 7"]
    act(state, "play 7")  # costs 1 blue, less 2: free
    assert reserve(state, 0) == tokens(yellow=1)
    assert state.counters[2] == 0  # tokens paid


def test_a_discount_applies_to_later_cards_only():
    state = playing([1, 7], dict(blue=1))
    assert texts(state) == ["no play", "play 1", "play 7"]
    act(state, "play 1")  # pays its own blue
    assert reserve(state, 0) == tokens() and state.discounts[0] == 1
    assert state.playable(0) == [7]


def test_capacity_raises_the_reserve_limit():
    state = playing([5], dict(blue=3, green=3))
    act(state, "play 5")  # pays a blue: 5 tokens left, limit now 6
    assert state.capacity[0] == 1 and state.player == 1
    state = make_state(3, played=[[5], [], []], reserves=[dict(blue=3, green=2), {}, {}], piles=[dict(red=1), {}, {}, {}])
    act(state, "take tokens 0", "station master 1")
    assert sum(reserve(state, 0).values()) == 6 and state.player == 1


# -- luggage -----------------------------------------------------------------------------------------

def test_a_luggage_effect_draws_two_and_keeps_one_secretly():
    state = playing([3], dict(blue=1), luggage_deck=[4, 9] + [x for x in range(1, 17) if x not in (4, 9)])
    act(state, "play 3")
    assert state.phase == Phase.LUGGAGE and state.player == 0
    assert texts(state) == ["keep luggage 4", "keep luggage 9"]
    assert state.observation(0).offer == (4, 9) and state.observation(1).offer == ()
    assert state.observation(1).offer_size == 2
    with pytest.raises(IllegalActionError, match="not among those drawn"):
        act(state, "keep luggage 5")
    act(state, "keep luggage 9")
    assert state.luggage[0] == (9,) and state.lug_deck[-1] == 4 and state.lug_by[-1] == 0
    assert state.observation(0).luggage_deck_known[-1] == 4
    assert set(state.observation(1).luggage_deck_known) == {0} and state.observation(1).luggage == ()
    assert state.observation(1).luggage_counts == (1, 0, 0)
    assert state.last_event() == (0, LUGGAGE_KEPT, None)
    assert state.player == 1


def test_with_one_luggage_card_left_it_is_taken_and_with_none_nothing_happens():
    others = [x for x in range(1, 17) if x != 7]
    state = playing([3], dict(blue=1), luggage=[[], others, []], luggage_deck=[7])
    act(state, "play 3")
    assert state.luggage[0] == (7,) and state.lug_deck == () and state.player == 1
    state = playing([3], dict(blue=1), luggage=[[], list(range(1, 17)), []], luggage_deck=[])
    act(state, "play 3")
    assert state.luggage[0] == () and state.player == 1


# -- end of turn -------------------------------------------------------------------------------------

def test_a_third_card_in_hand_is_given_back_under_the_deck_by_choice():
    state = make_state(3, hands=[[19, 22], [], []], lower=[40, 41, 42, 43])
    act(state, "take card 0", "station master 1")
    assert state.phase == Phase.GIVE_CARD and texts(state) == ["give back card 19", "give back card 22", "give back card 40"]
    with pytest.raises(IllegalActionError, match="card 2 is not in the player's hand"):
        act(state, "give back card 2")
    with pytest.raises(IllegalActionError, match="more than 2 cards"):
        act(state, "no play")
    act(state, "give back card 22")
    assert state.hands[0] == (19, 40) and state.deck[-1] == 22 and state.deck_known == 1
    assert state.player == 1 and state.counters[4] == 1


def test_excess_tokens_are_given_back_one_at_a_time_by_colour():
    state = make_state(3, reserves=[dict(blue=3, green=2), {}, {}], piles=[dict(red=2), {}, {}, {}])
    act(state, "take tokens 0", "station master 1")
    assert state.phase == Phase.GIVE_TOKEN and texts(state) == ["give back blue", "give back green", "give back red"]
    with pytest.raises(IllegalActionError, match="no token of that colour"):
        act(state, "give back purple")
    bag = state.bag[3]
    act(state, "give back red")
    assert state.phase == Phase.GIVE_TOKEN and state.bag[3] == bag + 1
    act(state, "give back blue")
    assert reserve(state, 0) == tokens(blue=2, green=2, red=1) and state.player == 1
    assert state.counters[3] == 2  # tokens wasted


def test_excess_tokens_of_a_single_colour_go_back_without_a_choice():
    state = make_state(3, reserves=[dict(red=5), {}, {}], piles=[dict(red=2), {}, {}, {}])
    act(state, "take tokens 0", "station master 1")
    assert reserve(state, 0) == tokens(red=5) and state.player == 1 and state.counters[3] == 2


def test_cards_are_given_back_before_tokens():  # Further decision 9
    state = make_state(3, phase="play", hands=[[19, 22, 30], [], []], reserves=[dict(blue=3, green=2, red=2), {}, {}])
    act(state, "no play")
    assert state.phase == Phase.GIVE_CARD
    act(state, "give back card 30")
    assert state.phase == Phase.GIVE_TOKEN


# -- the end of the game -----------------------------------------------------------------------------

def test_the_seventh_card_ends_the_game_at_the_end_of_the_round():
    six = [[61, 62, 63, 64, 65, 66], [], []]
    state = playing([2], dict(blue=1, yellow=1), played=six, lower=[0, 41, 42, 43])
    act(state, "play 2")
    assert state.final and not state.is_terminal() and state.player == 1
    act(state, "take card 1", "take card 2")
    assert state.is_terminal() and not state.stalled
    assert state.lower == [0, 0, 0, 43] and state.upper == [50, 51, 52, 53]  # no slide, no refill
    assert state.outcome().termination.value == "normal"


def test_with_two_players_the_second_player_can_place_an_eighth_card():
    state = make_state(2, played=[[], [61, 62, 63, 64, 65, 66]], hands=[[], [2, 7]],
                       reserves=[{}, dict(blue=2, yellow=1)], starter=0, turn=1, lower=[0, 41, 42, 43, 44],
                       phase="play")
    act(state, "play 2")
    assert state.final and state.player == 1 and state.tidx == 2
    act(state, "take tokens 1", "play 7")
    assert len(state.played[1]) == 8
    act(state, "take card 2")  # the starter's last turn
    assert state.is_terminal()
    assert state.result().players[1].cards_played == 8


def test_several_cards_of_one_destination_may_be_laid():
    assert DECK.card(2).destination == DECK.card(4).destination == 1
    state = playing([4], dict(blue=1, purple=1), played=[[2], [], []])
    act(state, "play 4")
    assert state.played[0] == (2, 4)
