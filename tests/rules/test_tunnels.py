"""Tunnels (Europe) on hand-built positions: the claim laid down, the draw pile's top cards turned
over, each match asking one more card (locomotives only after a payment of locomotives only);
claimed at once with no match, else the same player pays an extra payment or declines; short
piles; refusals; what is public; and the state's tools (snapshot, determinize) in the tunnel
phase."""

import random
from collections import Counter

import pytest

from helpers import act, legal_texts, make_state, track_id
from rules_common import discard, hand, rest_of_deck, total_cards
from ttr_lab import IllegalActionError
from ttr_lab.games.ticket_to_ride import Phase, PayTunnel, determinize, load_board, restore_state
from ttr_lab.games.ticket_to_ride.kernels.canonical import canonical

BOARD = load_board("europe")
TUNNEL = "Angora-Smyrna orange"  # length 3, orange, a tunnel
T = track_id(TUNNEL, BOARD)
CLAIM = f"claim {TUNNEL} with"
L = "locomotive"


def state(hands, pile_top=(), **kw):
    return make_state(2, board=BOARD, hands=[hands, {}], pile_top=list(pile_top), **kw)


def cards_in_play(s) -> int:
    """Every train card of the position, the laid payment and the turned-over cards included."""
    return total_cards(s)


def refused(s, text, match):
    before = s.snapshot()
    assert text not in legal_texts(s)
    with pytest.raises(IllegalActionError, match=match):
        act(s, text)
    assert s.snapshot() == before


def claimed_by(s, player=0):
    return s.owner[T] == player


# -- the claim, by number of matches ------------------------------------------------------------------------

def test_no_match_claims_the_tunnel_at_once():
    s = state({"orange": 3}, pile_top=["red", "green", "blue"])
    act(s, f"{CLAIM} 3 orange")
    assert claimed_by(s) and s.phase == Phase.TURN and s.player == 1
    assert (s.trains[0], s.points[0]) == (42, 4)
    assert discard(s) == Counter({"orange": 3, "red": 1, "green": 1, "blue": 1})
    assert s.revealed == [] and s.tunnel_pending is None and s.tunnels[:3] == [T, 0, 0]
    assert cards_in_play(s) == 110


def test_one_match_asks_one_card_of_the_colour_or_a_locomotive():
    s = state({"orange": 4, L: 1}, pile_top=["orange", "red", "green"])
    act(s, f"{CLAIM} 3 orange")
    assert s.phase == Phase.TUNNEL and s.player == 0 and not claimed_by(s) and s.turns == 0
    assert (s.tunnel_extra, s.revealed) == (1, [1, 0, 3])  # orange, red, green, in the order turned over
    assert hand(s, 0) == {"orange": 1, L: 1}  # the payment is laid down
    assert discard(s) == Counter() and cards_in_play(s) == 110
    assert legal_texts(s) == ["pay 1 card", "pay 1 loco", "decline"]
    act(s, "pay 1 card")
    assert claimed_by(s) and s.phase == Phase.TURN and s.player == 1 and s.points[0] == 4 and s.trains[0] == 42
    assert hand(s, 0) == {L: 1}
    assert discard(s) == Counter({"orange": 5, "red": 1, "green": 1})
    assert s.tunnels[:3] == [T, 1, 1] and s.revealed == [] and cards_in_play(s) == 110


def test_two_matches_paid_with_colour_and_locomotives():
    s = state({"orange": 4, L: 1}, pile_top=["orange", L, "green"])
    act(s, f"{CLAIM} 3 orange")
    assert s.tunnel_extra == 2
    assert legal_texts(s) == ["pay 1 card + 1 loco", "decline"]
    refused(s, "pay 2 cards", "has 1 orange, not 2")
    refused(s, "pay 2 loco", "has 1 locomotives, not 2")
    refused(s, "pay 1 card", "asks 2 extra card")
    act(s, "pay 1 card + 1 loco")
    assert claimed_by(s) and hand(s, 0) == {} and discard(s) == Counter({"orange": 5, L: 2, "green": 1})


def test_three_matches_after_a_payment_of_colour_and_locomotives():
    s = state({"orange": 4, L: 3}, pile_top=[L, "orange", "orange"])
    act(s, f"{CLAIM} 2 orange + 1 loco")
    assert s.tunnel_extra == 3 and hand(s, 0) == {"orange": 2, L: 2}
    assert legal_texts(s) == ["pay 2 cards + 1 loco", "pay 1 card + 2 loco", "decline"]
    act(s, "pay 1 card + 2 loco")
    assert claimed_by(s) and hand(s, 0) == {"orange": 1} and s.tunnels[:3] == [T, 3, 3]
    assert discard(s) == Counter({"orange": 5, L: 4}) and cards_in_play(s) == 110


def test_a_payment_of_locomotives_only_is_matched_by_locomotives_only():
    s = state({"orange": 2, L: 5}, pile_top=["orange", "orange", L])
    act(s, f"{CLAIM} 3 loco")
    assert s.tunnel_extra == 1  # the two orange cards turned over do not count
    assert legal_texts(s) == ["pay 1 loco", "decline"]
    refused(s, "pay 1 card", "locomotives only")
    act(s, "pay 1 loco")
    assert claimed_by(s) and hand(s, 0) == {"orange": 2, L: 1}


def test_a_payment_of_locomotives_only_asks_locomotives_the_hand_may_lack():
    s = state({"orange": 3, L: 4}, pile_top=[L, L, "orange"])
    act(s, f"{CLAIM} 3 loco")
    assert s.tunnel_extra == 2 and hand(s, 0) == {"orange": 3, L: 1}
    assert legal_texts(s) == ["decline"]
    refused(s, "pay 2 loco", "has 1 locomotives, not 2")
    refused(s, "pay 1 card + 1 loco", "locomotives only")


def test_a_payment_of_locomotives_only_with_no_locomotive_turned_over_claims_at_once():
    s = state({L: 3}, pile_top=["orange", "orange", "orange"])
    act(s, f"{CLAIM} 3 loco")
    assert claimed_by(s) and s.phase == Phase.TURN and s.tunnels[:3] == [T, 0, 0]


def test_a_gray_tunnel_is_matched_by_the_colour_paid():
    s = state({"blue": 3}, pile_top=["blue", "orange", "red"])
    act(s, "claim Paris-Zurich gray with 3 blue")
    assert s.tunnel_extra == 1 and legal_texts(s) == ["decline"]


# -- declining, and when only declining is legal ------------------------------------------------------------

def test_declining_returns_the_laid_cards_seen_by_all_and_ends_the_turn():
    s = state({"orange": 3, L: 1}, pile_top=["orange", "orange", "red"])
    act(s, f"{CLAIM} 2 orange + 1 loco")
    assert s.tunnel_extra == 2 and s.known[:9] == [0] * 9
    observed = s.observation(1)
    assert (str(observed.tunnel_pending), observed.tunnel_extra) == (f"{CLAIM} 2 orange + 1 loco", 2)
    assert observed.tunnel_revealed == (1, 1, 0) and observed.hand_sizes[0] == 1
    act(s, "decline")
    assert not claimed_by(s) and s.phase == Phase.TURN and s.player == 1 and s.turns == 1 and s.passes == 0
    assert hand(s, 0) == {"orange": 3, L: 1} and (s.trains[0], s.points[0]) == (45, 0)
    known = s.known[:9]
    assert known[1] == 2 and known[8] == 1  # the cards laid down are public now
    assert discard(s) == Counter({"orange": 2, "red": 1}) and s.tunnels[:3] == [T, 2, -1]
    assert s.observation(1).last_tunnels[0] == (T, 2, -1) and s.observation(1).tunnel_pending is None
    assert cards_in_play(s) == 110


def test_only_decline_is_legal_when_the_hand_cannot_pay():
    s = state({"orange": 3, "red": 2}, pile_top=["orange", L, "red"])
    act(s, f"{CLAIM} 3 orange")
    assert s.tunnel_extra == 2 and legal_texts(s) == ["decline"]
    refused(s, "pay 2 cards", "has 0 orange, not 2")
    refused(s, "pay 1 card + 1 loco", "has 0 orange, not 1")
    refused(s, "pay 2 loco", "has 0 locomotives, not 2")
    refused(s, "pay 3 cards", "asks 2 extra card")


def test_a_declined_tunnel_is_the_last_turn_of_the_final_round():
    s = state({"orange": 3}, pile_top=["orange", "red", "red"], final_turns_left=1)
    act(s, f"{CLAIM} 3 orange")
    assert not s.is_terminal()
    act(s, "decline")
    assert s.is_terminal() and not claimed_by(s)


# -- refusals around the tunnel phase ------------------------------------------------------------------------

def test_nothing_else_is_played_while_a_tunnel_waits():
    s = state({"orange": 4, "red": 3}, pile_top=["orange", "red", "green"])
    act(s, f"{CLAIM} 3 orange")
    for text in ("draw blind", "draw market 0", "tickets", "claim Angora-Constantinople gray with 2 red", "pass"):
        refused(s, text, "must first pay the tunnel's extra cards or decline")


def test_tunnel_decisions_are_refused_outside_a_tunnel():
    s = state({"orange": 4})
    for text in ("decline", "pay 1 card"):
        refused(s, text, "only allowed in the middle of another action")


def test_a_tunnel_needing_more_trains_than_the_player_has_is_illegal_at_once():
    s = state({"orange": 3, L: 3}, pile_top=[L, L, L], trains=[2, 45])
    assert not [t for t in legal_texts(s) if TUNNEL in t]
    refused(s, f"{CLAIM} 3 orange", "needs 3 trains and the player has 2")


def test_an_extra_payment_beyond_the_cards_turned_over_is_no_action_of_the_game():
    s = state({"orange": 4}, pile_top=["orange", "red", "green"])
    act(s, f"{CLAIM} 3 orange")
    with pytest.raises(IllegalActionError, match="asks 1 extra card"):
        s.apply(PayTunnel(4, 0))


# -- short piles -----------------------------------------------------------------------------------------------

def test_a_short_draw_pile_is_turned_over_then_restocked_from_the_discards():
    s = state({"orange": 3}, pile_top=["orange", "red"], pile_rest=False)
    assert len(s.pile) == 2 and sum(s.discard) > 90
    act(s, f"{CLAIM} 3 orange")
    assert s.revealed[:2] == [1, 0] and len(s.revealed) == 3  # the third from the reshuffled discards
    assert s.tunnel_extra == 1 + (s.revealed[2] in (1, 8))
    assert sum(s.discard) == 0 and cards_in_play(s) == 110
    act(s, "decline")
    assert cards_in_play(s) == 110 and len(s.pile) > 90


def test_fewer_cards_than_three_in_pile_and_discards_are_all_turned_over():
    market = ["red", "green", "blue", "black", "white"]
    mine = {"orange": 3}
    parked = rest_of_deck(mine, market, [L])
    s = make_state(2, board=BOARD, hands=[mine, parked], market=market, pile_top=[L], pile_rest=False)
    assert len(s.pile) == 1 and sum(s.discard) == 0
    act(s, f"{CLAIM} 3 orange")
    assert s.revealed == [8] and s.tunnel_extra == 1 and legal_texts(s) == ["decline"]
    act(s, "decline")
    # the turned-over locomotive was discarded and, the pile being empty, became the pile at once
    assert s.pile == [8] and sum(s.discard) == 0 and cards_in_play(s) == 110


def test_no_card_left_to_turn_over_asks_no_extra_card():
    market = ["red", "green", "blue", "black", "white"]
    mine = {"orange": 3}
    s = make_state(2, board=BOARD, hands=[mine, rest_of_deck(mine, market)], market=market, pile_rest=False)
    act(s, f"{CLAIM} 3 orange")
    assert claimed_by(s) and s.tunnels[:3] == [T, 0, 0]
    # the paid cards became the new draw pile at once
    assert sorted(s.pile) == [1, 1, 1] and sum(s.discard) == 0


# -- the state's tools in the tunnel phase -------------------------------------------------------------------

def test_a_snapshot_in_the_tunnel_phase_restores_the_same_position():
    s = state({"orange": 4, L: 2}, pile_top=["orange", L, "green"])
    act(s, f"{CLAIM} 3 orange")
    back = restore_state(BOARD, s.snapshot())
    assert back.phase == Phase.TUNNEL and back.legal_actions() == s.legal_actions()
    assert (canonical(back.face.g, back.s) == canonical(s.face.g, s.s)).all()
    snap = s.snapshot()
    snap["tunnel_claim"] = -1
    with pytest.raises(ValueError, match="tunnel_claim must name a claim exactly while the phase is tunnel"):
        restore_state(BOARD, snap)
    snap["tunnel_claim"] = 10 ** 6
    with pytest.raises(ValueError, match="tunnel_claim must be -1 or a claim"):
        restore_state(BOARD, snap)


@pytest.mark.parametrize("viewer", [0, 1])
def test_a_determinization_keeps_the_public_tunnel_and_hides_the_pile(viewer):
    s = state({"orange": 4, L: 2, "red": 2}, pile_top=["orange", L, "green"])
    act(s, f"{CLAIM} 3 orange")
    obs = s.observation(viewer)
    for seed in range(3):
        d = determinize(obs, random.Random(seed))
        assert d.phase == Phase.TUNNEL and d.tunnel_pending == s.tunnel_pending and d.revealed == s.revealed
        assert d.tunnel_extra == 2 and cards_in_play(d) == 110
        if viewer == 0:
            assert d.legal_actions() == s.legal_actions()
        assert d.observation(viewer)._replace(log=None) == obs._replace(log=None)
        act(d, "decline")
        assert cards_in_play(d) == 110
