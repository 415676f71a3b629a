"""Setup: the deal, the initial ticket choice in seat order, the three-locomotive rule on the
initial market."""

from collections import Counter

import pytest

from helpers import act, legal_texts
from rules_common import assert_legal_agrees, discard, hand, market, total_cards
from ttr_lab import IllegalActionError
from ttr_lab.games.ticket_to_ride import KeepTickets, Phase, load_board, new_game

BOARD = load_board("usa")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2, 17, 123])
def test_deal(players, seed):
    s = new_game(BOARD, players, seed)
    snap = s.snapshot()
    assert [sum(h.values()) for h in snap["hands"]] == [4] * players
    assert len(snap["market"]) == 5
    assert Counter(snap["market"])["locomotive"] < 3
    assert [len(o) for o in snap["offered_tickets"]] == [3] * players
    assert snap["tickets_held"] == [[]] * players
    assert len(snap["ticket_deck"]) == 30 - 3 * players
    offered = [t for o in snap["offered_tickets"] for t in o]
    assert sorted(offered + snap["ticket_deck"]) == list(range(30))
    assert snap["trains"] == [45] * players
    assert snap["route_points"] == [0] * players
    assert total_cards(s) == 110
    assert s.phase_name is Phase.INITIAL_TICKETS
    assert s.current_player == 0


def test_same_seed_same_deal_other_seed_other_deal():
    a, b, c = new_game(BOARD, 3, 99), new_game(BOARD, 3, 99), new_game(BOARD, 3, 100)
    assert a.snapshot() == b.snapshot()
    assert a.snapshot() != c.snapshot()


def test_initial_keep_options_need_at_least_two():
    s = new_game(BOARD, 2, 5)
    assert legal_texts(s) == ["keep 0,1", "keep 0,1,2", "keep 0,2", "keep 1,2"]
    assert_legal_agrees(s)


@pytest.mark.parametrize("text", ["keep 0", "keep 1", "keep 2"])
def test_initial_keep_of_one_refused(text):
    s = new_game(BOARD, 2, 5)
    assert text not in legal_texts(s)
    with pytest.raises(IllegalActionError, match="at least 2"):
        act(s, text)
    assert s.current_player == 0 and s.phase_name is Phase.INITIAL_TICKETS
    assert s.tickets[0] == ()


def test_initial_keep_of_none_refused():
    s = new_game(BOARD, 2, 5)
    with pytest.raises(IllegalActionError, match="at least 2"):
        s.apply(KeepTickets(()))


def test_initial_keep_all_three_allowed():
    s = new_game(BOARD, 2, 5)
    offer = s.offers[0]
    deck = s.ticket_deck
    act(s, "keep 0,1,2")
    assert s.tickets[0] == offer
    assert s.ticket_deck == deck  # nothing returned
    assert s.current_player == 1 and s.phase_name is Phase.INITIAL_TICKETS


def test_initial_choice_in_seat_order_then_player_0_turn():
    s = new_game(BOARD, 3, 11)
    offers = [s.offers[p] for p in range(3)]
    deck = s.ticket_deck
    act(s, "keep 0,2")
    assert s.current_player == 1 and s.phase_name is Phase.INITIAL_TICKETS
    assert s.tickets[0] == (offers[0][0], offers[0][2])
    act(s, "keep 0,1,2")
    assert s.current_player == 2 and s.phase_name is Phase.INITIAL_TICKETS
    act(s, "keep 1,2")
    assert s.current_player == 0 and s.phase_name is Phase.TURN
    assert s.tickets == [(offers[0][0], offers[0][2]), offers[1], (offers[2][1], offers[2][2])]
    # rejected tickets go to the bottom, in the order they were returned
    assert s.ticket_deck == deck + (offers[0][1], offers[2][0])
    assert s.snapshot()["offered_tickets"] == [[], [], []]
    assert s.turns == 0  # the initial choice is not a normal turn
    assert "draw blind" in legal_texts(s)


def test_no_card_or_claim_action_during_the_initial_choice():
    s = new_game(BOARD, 2, 3)
    for text in ("draw blind", "draw market 0", "tickets", "pass"):
        with pytest.raises(IllegalActionError, match="initial tickets"):
            act(s, text)
    act(s, "keep 0,1")
    for text in ("draw blind", "tickets"):
        with pytest.raises(IllegalActionError, match="initial tickets"):
            act(s, text)


def test_offers_are_private():
    s = new_game(BOARD, 2, 8)
    assert s.observation(0).offered == s.offers[0]
    assert s.observation(1).offered == s.offers[1]
    assert s.observation(0).offered != s.observation(1).offered


def _seeds_with_initial_redeal(limit=3000):
    found = []
    for seed in range(limit):
        s = new_game(BOARD, 2, seed)
        if sum(discard(s).values()):
            found.append((seed, s))
            if len(found) == 3:
                break
    return found


def test_three_locomotive_rule_applies_to_the_initial_market():
    found = _seeds_with_initial_redeal()
    assert found, "no seed in range redealt the initial market"
    for seed, s in found:
        d = discard(s)
        # the only way cards reach the discard pile at setup is a redeal of a market with >=3 locos
        redeals = sum(d.values()) // 5
        assert sum(d.values()) == 5 * redeals and redeals >= 1
        assert d["locomotive"] >= 3 * redeals
        assert Counter(market(s))["locomotive"] < 3
        assert len(market(s)) == 5
        assert total_cards(s) == 110
        assert [sum(hand(s, p).values()) for p in range(2)] == [4, 4]


def test_initial_market_without_three_locomotives_is_kept():
    for seed in range(40):
        s = new_game(BOARD, 2, seed)
        if not sum(discard(s).values()):
            assert Counter(market(s))["locomotive"] < 3
            assert len(s.snapshot()["draw_pile"]) == 110 - 8 - 5
