"""Drawing destination tickets during play."""

import pytest

from helpers import act, legal_texts, make_state
from rules_common import assert_legal_agrees
from ttr_lab import IllegalActionError
from ttr_lab.games.ticket_to_ride import KeepTickets, Phase, TicketsKept, load_board, parse_action

BOARD = load_board("usa")
ALL_KEEPS_OF_3 = ["keep 0", "keep 0,1", "keep 0,1,2", "keep 0,2", "keep 1", "keep 1,2", "keep 2"]


def test_draw_three_and_keep_some_rest_to_bottom_in_order():
    s = make_state()
    assert s.ticket_deck == tuple(range(30))
    assert "tickets" in legal_texts(s)
    act(s, "tickets")
    assert s.offers[0] == (0, 1, 2)
    assert s.ticket_deck == tuple(range(3, 30))
    assert s.phase_name is Phase.KEEP_TICKETS and s.current_player == 0
    assert legal_texts(s) == ALL_KEEPS_OF_3
    assert_legal_agrees(s)
    act(s, "keep 1")
    assert s.tickets[0] == (1,)
    assert s.ticket_deck == tuple(range(3, 30)) + (0, 2)
    assert s.offers[0] == ()
    assert s.current_player == 1 and s.phase_name is Phase.TURN
    assert s.history()[-1] == (0, TicketsKept(1), -1)  # public: how many, not which


def test_keep_all_three():
    s = make_state()
    act(s, "tickets", "keep 0,1,2")
    assert s.tickets[0] == (0, 1, 2)
    assert s.ticket_deck == tuple(range(3, 30))


def test_keep_two_returns_the_third_to_the_bottom():
    s = make_state(tickets_held=[[5], [7]])
    act(s, "tickets")
    assert s.offers[0] == (0, 1, 2)
    act(s, "keep 0,2")
    assert s.tickets[0] == (5, 0, 2)
    assert s.ticket_deck[-1] == 1 and s.ticket_deck[0] == 3
    assert len(s.ticket_deck) == 28 - 2


@pytest.mark.parametrize("remaining,keeps", [
    (2, ["keep 0", "keep 0,1", "keep 1"]),
    (1, ["keep 0"]),
])
def test_fewer_than_three_left(remaining, keeps):
    held = list(range(30 - remaining))
    s = make_state(tickets_held=[held, []])
    assert s.ticket_deck == tuple(range(30 - remaining, 30))
    act(s, "tickets")
    assert s.offers[0] == tuple(range(30 - remaining, 30))
    assert s.ticket_deck == ()
    assert legal_texts(s) == keeps
    with pytest.raises(IllegalActionError, match="indices"):
        act(s, f"keep {remaining}")
    act(s, "keep 0")
    assert s.tickets[0] == tuple(held) + (30 - remaining,)
    assert s.ticket_deck == tuple(range(31 - remaining, 30))


def test_keep_none_refused():
    s = make_state()
    act(s, "tickets")
    with pytest.raises(IllegalActionError, match="at least 1"):
        s.apply(KeepTickets(()))
    with pytest.raises(IllegalActionError):
        parse_action("keep", BOARD)
    with pytest.raises(IllegalActionError, match="indices"):
        act(s, "keep 3")
    assert s.phase_name is Phase.KEEP_TICKETS and s.offers[0] == (0, 1, 2)


def test_nothing_but_keep_while_choosing():
    s = make_state()
    act(s, "tickets")
    for text in ("draw blind", "draw market 0", "tickets", "pass"):
        with pytest.raises(IllegalActionError, match="choose which drawn tickets"):
            act(s, text)


def test_ticket_draw_illegal_when_deck_empty():
    s = make_state(tickets_held=[list(range(15)), list(range(15, 30))])
    assert s.ticket_deck == ()
    assert "tickets" not in legal_texts(s)
    with pytest.raises(IllegalActionError, match="ticket deck is empty"):
        act(s, "tickets")
    assert_legal_agrees(s)


def test_kept_tickets_are_never_discarded():
    s = make_state(tickets_held=[[10, 20], []])
    act(s, "tickets")
    assert s.offers[0] == (0, 1, 2)
    # the choice is only over the new offer: held tickets are not in it
    assert legal_texts(s) == ALL_KEEPS_OF_3
    act(s, "keep 2")
    assert s.tickets[0] == (10, 20, 2)
    act(s, "tickets", "keep 0")  # player 1 takes 3, returns 4 and 5
    assert s.tickets[1] == (3,)
    act(s, "tickets")
    assert s.offers[0] == (6, 7, 8)
    act(s, "keep 1")
    assert s.tickets[0] == (10, 20, 2, 7)
    assert s.ticket_deck[-6:] == (0, 1, 4, 5, 6, 8)
    assert 10 not in s.ticket_deck and 20 not in s.ticket_deck and 2 not in s.ticket_deck


def test_offered_tickets_are_private():
    s = make_state()
    act(s, "tickets")
    assert s.observation(0).offered == (0, 1, 2)
    assert s.observation(1).offered == ()
    assert s.observation(1).ticket_counts == (0, 0)
    act(s, "keep 0,1")
    assert s.observation(1).tickets == ()
    assert s.observation(1).ticket_counts == (2, 0)  # the count is public
