"""The end of the game: the final round, passing, and the stall Decision."""

import pytest

from helpers import act, legal_texts, make_state
from rules_common import assert_legal_agrees, rest_of_deck
from ttr_lab import IllegalActionError
from ttr_lab.games.ticket_to_ride import Phase, load_board

BOARD = load_board("usa")
L = "locomotive"


def take_turn(s):
    """One draw-cards turn (two blind cards) for the current player; returns who played."""
    p = s.current_player
    act(s, "draw blind")
    if not s.is_terminal() and s.current_player == p and s.phase_name is Phase.SECOND_DRAW:
        act(s, "draw blind")
    assert s.is_terminal() or s.current_player != p
    return p


def play_until_over(s, limit=20):
    """Draw-card turns until the game ends; the players who took them, in order."""
    seats = []
    while not s.is_terminal():
        seats.append(take_turn(s))
        assert len(seats) < limit, "the final round did not end"
    return seats


# -- the final round --------------------------------------------------------------------------------------

@pytest.mark.parametrize("left", [0, 1, 2])
def test_ending_a_turn_with_two_or_fewer_trains_starts_the_final_round(left):
    s = make_state(hands=[{L: 1}, {}], trains=[1 + left, 45])
    act(s, "claim Atlanta-Nashville gray with 1 loco")
    snap = s.snapshot()
    assert snap["trains"] == [left, 45]
    assert snap["final_round"] is True
    assert s.observation(1).final_round is True
    assert play_until_over(s) == [1, 0]  # the other player once, then the trigger player once


def test_three_trains_left_does_not_start_the_final_round():
    s = make_state(hands=[{L: 1}, {}], trains=[4, 45])
    act(s, "claim Atlanta-Nashville gray with 1 loco")
    assert s.snapshot()["final_round"] is False
    for _ in range(6):
        take_turn(s)
    assert not s.is_terminal()


def test_final_round_two_players_exact_turns():
    s = make_state(hands=[{L: 1}, {}], trains=[3, 45])
    act(s, "claim Atlanta-Nashville gray with 1 loco")
    assert s.current_player == 1 and not s.is_terminal()
    take_turn(s)
    assert s.current_player == 0 and not s.is_terminal()
    take_turn(s)
    assert s.is_terminal()
    assert s.legal_actions() == []
    assert s.result().stalled is False


def test_final_round_four_players_exact_turns():
    s = make_state(4, hands=[{}, {}, {L: 1}, {}], trains=[45, 45, 3, 45], current_player=2)
    act(s, "claim Atlanta-Nashville gray with 1 loco")
    assert s.snapshot()["final_turns_left"] == 4
    assert play_until_over(s) == [3, 0, 1, 2]


def test_final_round_five_players_trigger_by_last_seat():
    s = make_state(5, hands=[{}, {}, {}, {}, {L: 1}], trains=[45, 45, 45, 45, 3], current_player=4)
    act(s, "claim Atlanta-Nashville gray with 1 loco")
    assert play_until_over(s) == [0, 1, 2, 3, 4]


def test_final_round_is_triggered_only_once():
    s = make_state(3, hands=[{L: 1}, {L: 2}, {}], trains=[3, 3, 45])
    act(s, "claim Atlanta-Nashville gray with 1 loco")  # player 0: 2 trains, final round
    act(s, "claim Atlanta-Charleston gray with 2 loco")  # player 1: 1 train, no new final round
    assert s.snapshot()["trains"] == [2, 1, 45]
    assert play_until_over(s) == [2, 0]


def test_a_ticket_turn_in_the_final_round_counts_once():
    s = make_state(hands=[{L: 1}, {}], trains=[3, 45])
    act(s, "claim Atlanta-Nashville gray with 1 loco")
    act(s, "tickets")
    assert not s.is_terminal() and s.current_player == 1
    act(s, "keep 0")
    assert s.current_player == 0 and not s.is_terminal()
    act(s, "tickets", "keep 0,1")
    assert s.is_terminal()


def test_no_action_after_the_game_is_over():
    s = make_state(hands=[{L: 1}, {}], trains=[3, 45], final_turns_left=1)
    act(s, "claim Atlanta-Nashville gray with 1 loco")
    assert s.is_terminal()
    assert s.legal_actions() == []
    for text in ("draw blind", "tickets", "pass", "keep 0"):
        with pytest.raises(IllegalActionError, match="game is over"):
            act(s, text)


def test_result_only_when_over():
    s = make_state()
    with pytest.raises(IllegalActionError, match="once the game is over"):
        s.result()


# -- passing ------------------------------------------------------------------------------------------------

def _stuck_player_0(players=2, ticket_deck_empty=True, p0_hand=None):
    """Player 0 has no cards; every card is in player 1's hand (nothing to draw)."""
    p0_hand = p0_hand or {}
    held = [list(range(15)), list(range(15, 30))] if ticket_deck_empty else [[], []]
    held += [[] for _ in range(players - 2)]
    hands = [p0_hand, rest_of_deck(p0_hand)] + [{} for _ in range(players - 2)]
    return make_state(players, market=[], hands=hands, tickets_held=held)


def test_player_with_no_legal_action_passes():
    s = _stuck_player_0()
    assert legal_texts(s) == ["pass"]
    assert_legal_agrees(s)
    act(s, "pass")
    assert s.current_player == 1 and s.phase_name is Phase.TURN
    assert not s.is_terminal()
    assert s.snapshot()["passes_in_a_row"] == 1


def test_pass_refused_when_a_claim_is_legal():
    s = _stuck_player_0()
    act(s, "pass")
    assert "pass" not in legal_texts(s)  # player 1 holds every card
    with pytest.raises(IllegalActionError, match="only when no other action is legal"):
        act(s, "pass")


def test_pass_refused_when_only_tickets_are_legal():
    s = _stuck_player_0(ticket_deck_empty=False)
    assert legal_texts(s) == ["tickets"]
    with pytest.raises(IllegalActionError, match="only when no other action is legal"):
        act(s, "pass")


def test_pass_refused_when_only_a_draw_is_legal():
    s = make_state(market=["red"], hands=[{}, rest_of_deck(["red"])],
                   tickets_held=[list(range(15)), list(range(15, 30))])
    assert legal_texts(s) == ["draw market 0"]
    with pytest.raises(IllegalActionError, match="only when no other action is legal"):
        act(s, "pass")


def test_pass_refused_when_only_claims_are_legal():
    s = _stuck_player_0(p0_hand={"blue": 5})
    legal = legal_texts(s)
    assert "claim Atlanta-Miami blue with 5 blue" in legal
    assert all(t.startswith("claim") for t in legal)
    with pytest.raises(IllegalActionError, match="only when no other action is legal"):
        act(s, "pass")


def _everyone_stuck(players=2, **kw):
    """Every track claimed (or closed), every card in player 0's hand, the ticket deck empty."""
    claimed = {t.id: t.id % players for t in BOARD.tracks if t.twin < 0 or t.id < t.twin}
    if players >= 4:
        claimed.update({t.id: (t.id + 1) % players for t in BOARD.tracks if t.twin >= 0 and t.id > t.twin})
    held = [list(range(p, 30, players)) for p in range(players)]
    hands = [rest_of_deck()] + [{} for _ in range(players - 1)]
    return make_state(players, market=[], hands=hands, claimed=claimed, tickets_held=held,
                      trains=[20] * players, **kw)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_round_of_passes_ends_the_game_stalled(players):
    s = _everyone_stuck(players)
    for seat in range(players):
        assert not s.is_terminal()
        assert s.current_player == seat
        assert legal_texts(s) == ["pass"]
        act(s, "pass")
    assert s.is_terminal()
    assert s.legal_actions() == []
    r = s.result()
    assert r.stalled is True


def test_fewer_than_a_full_round_of_passes_does_not_end_the_game():
    s = _everyone_stuck(3)
    act(s, "pass", "pass")
    assert not s.is_terminal()
    assert s.snapshot()["passes_in_a_row"] == 2


def test_passes_count_from_the_position():
    s = _everyone_stuck(2, passes_in_a_row=1)
    act(s, "pass")
    assert s.is_terminal() and s.result().stalled is True


def test_an_action_between_resets_the_passes():
    # players 0 and 1 have nothing; player 2 holds every card and can claim
    hands = [{}, {}, rest_of_deck()]
    s = make_state(3, market=[], hands=hands, tickets_held=[list(range(10)), list(range(10, 20)), list(range(20, 30))])
    act(s, "pass", "pass")
    assert s.current_player == 2 and "pass" not in legal_texts(s)
    act(s, "claim Atlanta-Miami blue with 5 blue")
    assert s.snapshot()["passes_in_a_row"] == 0
    assert not s.is_terminal()
    # the claim's five blue cards refilled the market, so player 0 can draw again
    assert legal_texts(s) == [f"draw market {i}" for i in range(5)]
