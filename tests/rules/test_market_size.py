"""The ruleset's market_size sizes the market and, with it, the ``draw market N`` actions."""

import pytest

from helpers import act, legal_texts, make_state
from rules_common import assert_legal_agrees, hand, market
from ttr_lab import IllegalActionError
from ttr_lab.games.ticket_to_ride import DrawMarket, Phase, load_board, new_game

BOARD = load_board("usa")
SEVEN = ["red", "orange", "yellow", "green", "blue", "pink", "black"]


def market_draws(state) -> list[int]:
    return [a.slot for a in state.legal_actions() if type(a) is DrawMarket]


def test_usual_market_offers_its_five_slots():
    s = make_state()
    assert market_draws(s) == [0, 1, 2, 3, 4]
    with pytest.raises(IllegalActionError, match="slots 0..4"):
        s.clone().apply(DrawMarket(5))
    assert_legal_agrees(s)


def test_market_of_seven_offers_every_slot_first_and_second():
    rules = BOARD.ruleset.replace(market_size=7)
    s = make_state(market=SEVEN, pile_top=["white", "red"], ruleset=rules)
    assert market_draws(s) == list(range(7))
    assert_legal_agrees(s)
    act(s, "draw market 6")
    assert hand(s, 0) == {"black": 1}
    assert market(s) == SEVEN[:6] + ["white"]
    assert s.phase_name is Phase.SECOND_DRAW
    assert legal_texts(s) == ["draw blind"] + [f"draw market {i}" for i in range(7)]
    assert_legal_agrees(s)
    act(s, "draw market 6")
    assert hand(s, 0) == {"black": 1, "white": 1}
    assert s.current_player == 1


@pytest.mark.parametrize("size", [5, 7, 20])
def test_a_new_game_deals_and_offers_market_size_cards(size):
    s = new_game(BOARD, 2, seed=3, ruleset=BOARD.ruleset.replace(market_size=size))
    while s.phase_name is Phase.INITIAL_TICKETS:
        s.apply(s.legal_actions()[0])
    assert len(market(s)) == size
    assert market_draws(s) == list(range(size))
    s.apply(next(a for a in s.legal_actions() if type(a) is DrawMarket and market(s)[a.slot] != "locomotive"))
    second = market_draws(s)
    assert second == [i for i, card in enumerate(market(s)) if card != "locomotive"]
