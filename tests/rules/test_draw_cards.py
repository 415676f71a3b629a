"""Drawing train cards: blind and face-up draws, locomotives, the three-locomotive rule and its
loop guard, reshuffles, and the empty-pile Decisions."""

from collections import Counter

import pytest

from helpers import act, legal_texts, make_state
from rules_common import assert_legal_agrees, discard, hand, market, pile, rest_of_deck, total_cards
from ttr_lab import IllegalActionError
from ttr_lab.games.ticket_to_ride import DRAW_BLIND, DrawMarket, LOCOMOTIVE, Phase, load_board, restore_state

BOARD = load_board("usa")
L = "locomotive"
SECOND_DRAWS_ALL = ["draw blind"] + [f"draw market {i}" for i in range(5)]


# -- blind and face-up draws -----------------------------------------------------------------------

def test_two_blind_draws():
    s = make_state(pile_top=["pink", "black"])
    act(s, "draw blind")
    assert hand(s, 0) == {"pink": 1}
    assert s.phase_name is Phase.SECOND_DRAW and s.current_player == 0
    assert legal_texts(s) == SECOND_DRAWS_ALL
    act(s, "draw blind")
    assert hand(s, 0) == {"pink": 1, "black": 1}
    assert s.phase_name is Phase.TURN and s.current_player == 1
    assert s.history() == [(0, DRAW_BLIND, -1), (0, DRAW_BLIND, -1)]  # blind cards stay hidden


def test_face_up_draw_is_replaced_in_the_same_slot_and_the_replacement_may_be_taken():
    s = make_state(pile_top=["pink", "white", "black"])
    act(s, "draw market 2")
    assert hand(s, 0) == {"yellow": 1}
    assert market(s) == ["red", "orange", "pink", "green", "blue"]
    assert pile(s)[:2] == ["white", "black"]
    assert s.phase_name is Phase.SECOND_DRAW
    assert_legal_agrees(s)
    act(s, "draw market 2")  # the replacement
    assert hand(s, 0) == {"yellow": 1, "pink": 1}
    assert market(s) == ["red", "orange", "white", "green", "blue"]
    assert s.current_player == 1 and s.phase_name is Phase.TURN


def test_face_up_locomotive_as_first_draw_ends_the_turn():
    s = make_state(market=[L, "red", "orange", "yellow", "green"], pile_top=["blue"])
    assert "draw market 0" in legal_texts(s)
    act(s, "draw market 0")
    assert hand(s, 0) == {L: 1}
    assert market(s) == ["blue", "red", "orange", "yellow", "green"]
    assert s.history() == [(0, DrawMarket(0), LOCOMOTIVE)]  # a face-up card taken is public
    assert s.current_player == 1 and s.phase_name is Phase.TURN


def test_face_up_locomotive_may_not_be_the_second_draw():
    s = make_state(market=[L, "red", "orange", "yellow", "green"], pile_top=["blue", "pink"])
    act(s, "draw market 1")
    assert market(s) == [L, "blue", "orange", "yellow", "green"]
    assert legal_texts(s) == ["draw blind", "draw market 1", "draw market 2", "draw market 3", "draw market 4"]
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="second card"):
        act(s, "draw market 0")
    assert s.snapshot() == before  # a refused action changes nothing
    assert_legal_agrees(s)
    act(s, "draw market 1")
    assert hand(s, 0) == {"red": 1, "blue": 1}
    assert s.current_player == 1


def test_locomotive_replacement_may_not_be_taken_as_second_draw():
    s = make_state(pile_top=[L, "pink"])
    act(s, "draw market 0")
    assert market(s)[0] == L
    assert "draw market 0" not in legal_texts(s)
    with pytest.raises(IllegalActionError, match="second card"):
        act(s, "draw market 0")
    act(s, "draw blind")
    assert hand(s, 0) == {"red": 1, "pink": 1}


def test_face_up_locomotive_may_not_follow_a_blind_draw():
    s = make_state(market=["red", L, "orange", "yellow", "green"], pile_top=["blue"])
    act(s, "draw blind")
    assert "draw market 1" not in legal_texts(s)
    with pytest.raises(IllegalActionError, match="second card"):
        act(s, "draw market 1")


def test_blind_locomotive_is_an_ordinary_draw():
    s = make_state(pile_top=[L, "red"])
    act(s, "draw blind")
    assert hand(s, 0) == {L: 1}
    assert s.phase_name is Phase.SECOND_DRAW and s.current_player == 0
    act(s, "draw blind")
    assert hand(s, 0) == {L: 1, "red": 1}
    assert s.current_player == 1


def test_blind_locomotive_as_second_draw_is_fine():
    s = make_state(pile_top=["red", L])
    act(s, "draw blind", "draw blind")
    assert hand(s, 0) == {L: 1, "red": 1}
    assert s.current_player == 1


def test_no_claim_tickets_or_pass_in_the_second_draw():
    # player 0 could claim Atlanta-Miami before drawing; not in the middle of a draw
    s = make_state(hands=[{"blue": 5}, {}], pile_top=["blue"])
    assert "claim Atlanta-Miami blue with 5 blue" in legal_texts(s)
    act(s, "draw blind")
    assert legal_texts(s) == SECOND_DRAWS_ALL
    for text in ("claim Atlanta-Miami blue with 5 blue", "tickets", "pass"):
        with pytest.raises(IllegalActionError, match="second card draw"):
            act(s, text)
    assert hand(s, 0) == {"blue": 6}


# -- the three-locomotive rule -----------------------------------------------------------------------

def test_third_locomotive_after_a_refill_redeals_the_market():
    s = make_state(market=[L, L, "red", "orange", "yellow"],
                   pile_top=[L, "green", "blue", "pink", "black", "white", "red"])
    act(s, "draw market 2")
    assert hand(s, 0) == {"red": 1}
    assert market(s) == ["green", "blue", "pink", "black", "white"]
    assert discard(s) == Counter({L: 3, "orange": 1, "yellow": 1})
    assert pile(s)[0] == "red"
    assert s.phase_name is Phase.SECOND_DRAW  # the redeal does not end the draw
    assert total_cards(s) == 110


def test_redeal_repeats_while_three_locomotives_show():
    s = make_state(market=[L, L, "red", "orange", "yellow"],
                   pile_top=[L, "green", L, L, L, "blue", "pink", "black", "white", "red", "orange", "white"])
    act(s, "draw market 2")
    assert market(s) == ["pink", "black", "white", "red", "orange"]
    assert discard(s) == Counter({L: 6, "orange": 1, "yellow": 1, "green": 1, "blue": 1})
    assert pile(s)[0] == "white"


def test_two_locomotives_do_not_redeal():
    s = make_state(market=[L, "red", "orange", "yellow", "green"], pile_top=[L, "blue"])
    act(s, "draw market 1")
    assert market(s) == [L, L, "orange", "yellow", "green"]
    assert sum(discard(s).values()) == 0


def test_loop_guard_fewer_than_three_non_locomotives_no_redeal():
    # every non-locomotive card except orange and yellow (market) is in a hand or is the red drawn
    mkt = ["red", "orange", L, L, "yellow"]
    s = make_state(market=mkt, hands=[{}, rest_of_deck(mkt, {L: 12})])
    assert pile(s) == [L] * 12
    act(s, "draw market 0")
    assert market(s) == [L, "orange", L, L, "yellow"]
    assert sum(discard(s).values()) == 0
    assert pile(s) == [L] * 11
    assert legal_texts(s) == ["draw blind", "draw market 1", "draw market 4"]
    assert_legal_agrees(s)


def test_loop_guard_all_locomotive_market_stays():
    mkt = ["red", L, L, L, L]
    pile_top = [L, "orange", "yellow"]
    s = make_state(market=mkt, pile_top=pile_top, hands=[{}, rest_of_deck(mkt, pile_top, {L: 9})])
    assert pile(s) == [L, "orange", "yellow"] + [L] * 9
    act(s, "draw market 0")
    assert market(s) == [L] * 5  # only orange and yellow are left: no redeal
    assert sum(discard(s).values()) == 0
    assert legal_texts(s) == ["draw blind"]  # face-up locomotives only: blind is the one second draw


def test_loop_guard_exactly_three_non_locomotives_redeals():
    mkt = ["red", L, L, L, L]
    pile_top = [L, "orange", "yellow", "green"]
    s = make_state(market=mkt, pile_top=pile_top, hands=[{}, rest_of_deck(mkt, pile_top, {L: 9})])
    act(s, "draw market 0")
    assert market(s) == ["orange", "yellow", "green", L, L]
    assert discard(s) == Counter({L: 5})
    assert pile(s) == [L] * 7


def test_at_most_ten_redeals_in_a_row():
    # Ten markets in a row with three locomotives need more than 14 locomotives without a
    # reshuffle, so this uses a ruleset with 40; the cap itself is the rules' default of 10.
    rules = BOARD.ruleset.replace(locomotive_cards=40)
    assert rules.max_redeals == 10
    colours = ["green", "blue", "pink", "black", "white"]
    groups = [[L, L, L, colours[i % 5], colours[(i + 1) % 5]] for i in range(10)]
    eleventh = ["pink", "black", "white", "red", "orange"]
    pile_top = [L] + [c for g in groups for c in g] + eleventh
    s = make_state(market=[L, L, "red", "orange", "yellow"], pile_top=pile_top, ruleset=rules)
    act(s, "draw market 2")
    assert market(s) == groups[9]  # after the tenth redeal the market stays, 3 locomotives and all
    assert pile(s)[:5] == eleventh
    expected = Counter({L: 3, "orange": 1, "yellow": 1})
    for g in groups[:9]:
        expected.update(g)
    assert discard(s) == expected
    assert legal_texts(s) == ["draw blind", "draw market 3", "draw market 4"]


def test_redeal_refills_the_pile_from_the_shuffled_discard():
    mkt = ["red", L, L, "orange", "yellow"]

    def run(rng):
        s = make_state(market=mkt, pile_top=[L, "green"], pile_rest=False)
        snap = s.snapshot()
        snap["rng_state"] = rng
        s = restore_state(BOARD, snap)
        act(s, "draw market 0")
        return s

    s = run(12345)
    assert market(s)[0] == "green"  # the last pile card first, then the reshuffled discard
    assert len(market(s)) == 5
    assert Counter(market(s))[L] < 3
    assert total_cards(s) == 110
    assert run(12345).snapshot() == s.snapshot()  # seeded
    assert run(777).snapshot()["draw_pile"] != s.snapshot()["draw_pile"]


# -- reshuffling, empty piles ---------------------------------------------------------------------------

def _reshuffle_position(rng):
    """One card (pink) left on the draw pile, the 104 others not in the market discarded."""
    s = make_state(pile_top=["pink"], pile_rest=False)
    snap = s.snapshot()
    snap["rng_state"] = rng
    return restore_state(BOARD, snap)


def test_blind_draw_from_empty_pile_reshuffles_the_discard():
    s = _reshuffle_position(12345)
    assert pile(s) == ["pink"] and sum(discard(s).values()) == 104
    before = discard(s)
    act(s, "draw blind")  # the last card of the pile
    assert hand(s, 0) == {"pink": 1}
    assert s.phase_name is Phase.SECOND_DRAW
    assert legal_texts(s) == SECOND_DRAWS_ALL  # the discard pile makes a new draw pile
    act(s, "draw blind")
    second = Counter(hand(s, 0)) - Counter({"pink": 1})
    assert sum(second.values()) == 1
    assert sum(discard(s).values()) == 0
    assert Counter(pile(s)) + second == before
    again = _reshuffle_position(12345)
    act(again, "draw blind", "draw blind")
    assert again.snapshot() == s.snapshot()  # same seed, same order
    other = _reshuffle_position(4242)
    act(other, "draw blind", "draw blind")
    assert other.snapshot()["draw_pile"] != s.snapshot()["draw_pile"]


def test_market_replacement_from_empty_pile_reshuffles_the_discard():
    s = make_state(pile_top=["pink"], pile_rest=False)
    act(s, "draw market 0")
    assert market(s)[0] == "pink"
    act(s, "draw market 0")  # replaced from the reshuffled discard pile
    assert hand(s, 0) == {"red": 1, "pink": 1}
    assert len(market(s)) == 5
    assert len(pile(s)) == 103 and sum(discard(s).values()) == 0
    assert total_cards(s) == 110


def _everything_in_player_1(mkt, *more):
    return make_state(market=mkt, hands=[{}, rest_of_deck(mkt, *more)])


def test_no_blind_draw_when_pile_and_discard_are_empty_and_market_shrinks():
    mkt = ["red", "orange", "yellow", "green", "blue"]
    s = _everything_in_player_1(mkt)
    assert pile(s) == [] and sum(discard(s).values()) == 0
    assert legal_texts(s) == [f"draw market {i}" for i in range(5)] + ["tickets"]
    with pytest.raises(IllegalActionError, match="both empty"):
        act(s, "draw blind")
    assert_legal_agrees(s)
    act(s, "draw market 1")
    assert market(s) == ["red", "yellow", "green", "blue"]
    assert s.phase_name is Phase.SECOND_DRAW
    assert legal_texts(s) == [f"draw market {i}" for i in range(4)]
    act(s, "draw market 3")
    assert market(s) == ["red", "yellow", "green"]
    assert hand(s, 0) == {"orange": 1, "blue": 1}
    assert s.current_player == 1


def test_short_market_is_refilled_after_a_claim():
    mkt = ["red", "orange"]
    s = make_state(market=mkt, hands=[{"blue": 5}, rest_of_deck(mkt, {"blue": 5})])
    assert pile(s) == [] and len(market(s)) == 2
    act(s, "claim Atlanta-Miami blue with 5 blue")
    assert market(s) == ["red", "orange", "blue", "blue", "blue"]
    assert pile(s) == ["blue", "blue"]
    assert sum(discard(s).values()) == 0
    assert total_cards(s) == 110


def test_refilled_market_loop_guard_applies():
    # refill brings a third locomotive, but only red and orange are left as non-locomotives
    mkt = [L, L, "red", "orange"]
    s = make_state(market=mkt, hands=[{L: 2}, rest_of_deck(mkt, {L: 2})])
    act(s, "claim Atlanta-Charleston gray with 2 loco")
    assert market(s) == [L, L, "red", "orange", L]
    assert pile(s) == [L]


@pytest.mark.parametrize("rng", range(12))
def test_refilled_market_three_locomotive_rule_applies(rng):
    # A short market (pile and discard empty); the claim's 3 blue + 2 locomotives are reshuffled
    # to refill it. Whenever the refill shows a third locomotive the market must be redealt.
    mkt = [L, L, "red", "orange"]
    paid = {"blue": 3, L: 2}
    snap = make_state(market=mkt, hands=[paid, rest_of_deck(mkt, paid)]).snapshot()
    snap["rng_state"] = rng
    s = restore_state(BOARD, snap)
    act(s, "claim Atlanta-Miami blue with 3 blue + 2 loco")
    m = market(s)
    assert len(m) == 5
    assert Counter(m)[L] < 3
    assert total_cards(s) == 110
    redealt = m[:4] != mkt
    if not redealt:
        assert m[4] == "blue" and Counter(pile(s)) == Counter({"blue": 2, L: 2})


def test_refilled_market_three_locomotive_rule_applies_some_seed_redeals():
    redeals = 0
    for rng in range(12):
        mkt = [L, L, "red", "orange"]
        paid = {"blue": 3, L: 2}
        snap = make_state(market=mkt, hands=[paid, rest_of_deck(mkt, paid)]).snapshot()
        snap["rng_state"] = rng
        s = restore_state(BOARD, snap)
        act(s, "claim Atlanta-Miami blue with 3 blue + 2 loco")
        redeals += market(s)[:4] != mkt
    assert 0 < redeals < 12


# -- no legal second draw, no draw at all ----------------------------------------------------------------

def test_last_card_anywhere_ends_the_draw_after_one_card():
    s = _everything_in_player_1(["red"])
    assert legal_texts(s) == ["draw market 0", "tickets"]
    act(s, "draw market 0")
    assert hand(s, 0) == {"red": 1}
    assert market(s) == []
    assert s.current_player == 1 and s.phase_name is Phase.TURN


def test_only_face_up_locomotives_left_ends_the_draw_after_one_card():
    s = _everything_in_player_1(["red", L, L])
    act(s, "draw market 0")
    assert market(s) == [L, L]
    assert s.current_player == 1 and s.phase_name is Phase.TURN


def test_blind_draw_of_last_pile_card_with_locomotive_market_ends_the_draw():
    # five face-up locomotives left by the loop guard, one card on the pile, nothing discarded
    mkt = [L] * 5
    s = make_state(market=mkt, pile_top=["red"], hands=[{}, rest_of_deck(mkt, ["red"])])
    assert pile(s) == ["red"]
    act(s, "draw blind")
    assert hand(s, 0) == {"red": 1}
    assert s.current_player == 1 and s.phase_name is Phase.TURN


def test_second_blind_draw_remains_with_locomotive_market():
    mkt = [L] * 5
    s = make_state(market=mkt, pile_top=["red", "orange"], hands=[{}, rest_of_deck(mkt, ["red", "orange"])])
    act(s, "draw blind")
    assert s.phase_name is Phase.SECOND_DRAW
    assert legal_texts(s) == ["draw blind"]
    with pytest.raises(IllegalActionError, match="second card"):
        act(s, "draw market 2")
    act(s, "draw blind")
    assert hand(s, 0) == {"red": 1, "orange": 1}


def test_second_draw_from_discard_only():
    # the pile's last card is drawn first; the discard pile (pink) still allows a blind second draw
    mkt = [L] * 5
    s = make_state(market=mkt, pile_top=["red"], discard=["pink"],
                   hands=[{}, rest_of_deck(mkt, ["red", "pink"])])
    act(s, "draw blind")
    assert s.phase_name is Phase.SECOND_DRAW
    assert legal_texts(s) == ["draw blind"]
    act(s, "draw blind")
    assert hand(s, 0) == {"red": 1, "pink": 1}
    assert s.current_player == 1


def test_drawing_cards_illegal_when_no_card_can_be_drawn():
    s = _everything_in_player_1([])
    assert legal_texts(s) == ["tickets"]
    with pytest.raises(IllegalActionError, match="both empty"):
        act(s, "draw blind")
    with pytest.raises(IllegalActionError, match="market has 0 cards"):
        act(s, "draw market 0")
    assert_legal_agrees(s)


def test_market_slot_out_of_range_refused():
    s = make_state()
    with pytest.raises(IllegalActionError, match="slots 0..4"):
        act(s, "draw market 5")
