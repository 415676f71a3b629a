"""Claiming a route: payments, trains, double routes, points, and the listed payment options."""

import random
from collections import Counter

import pytest

from helpers import act, legal_texts, make_state
from rules_common import assert_legal_agrees, discard, hand
from ttr_lab import IllegalActionError
from ttr_lab.games.ticket_to_ride import CARD_NAMES, GRAY, LOCOMOTIVE, Claim, Phase, load_board, parse_action

BOARD = load_board("usa")
L = "locomotive"
TRACK = {t.label: t for t in BOARD.tracks}


def claims_of(state, label):
    return [t for t in legal_texts(state) if t.startswith(f"claim {label} with")]


# -- payments -----------------------------------------------------------------------------------------

def test_coloured_track_payments_listed_exactly():
    s = make_state(hands=[{"blue": 3, L: 3}, {}])
    assert claims_of(s, "Atlanta-Miami blue") == [
        "claim Atlanta-Miami blue with 3 blue + 2 loco",
        "claim Atlanta-Miami blue with 2 blue + 3 loco",
    ]


def test_coloured_track_every_mix_of_colour_and_locomotives():
    s = make_state(hands=[{"blue": 6, L: 6, "red": 5}, {}])
    assert claims_of(s, "Atlanta-Miami blue") == [
        "claim Atlanta-Miami blue with 5 blue",
        "claim Atlanta-Miami blue with 4 blue + 1 loco",
        "claim Atlanta-Miami blue with 3 blue + 2 loco",
        "claim Atlanta-Miami blue with 2 blue + 3 loco",
        "claim Atlanta-Miami blue with 1 blue + 4 loco",
        "claim Atlanta-Miami blue with 5 loco",
    ]


def test_gray_track_payments_one_colour_each():
    s = make_state(hands=[{"red": 1, "blue": 3, "green": 2, L: 2}, {}])
    assert sorted(claims_of(s, "Calgary-Vancouver gray")) == sorted([
        "claim Calgary-Vancouver gray with 1 red + 2 loco",
        "claim Calgary-Vancouver gray with 2 green + 1 loco",
        "claim Calgary-Vancouver gray with 1 green + 2 loco",
        "claim Calgary-Vancouver gray with 3 blue",
        "claim Calgary-Vancouver gray with 2 blue + 1 loco",
        "claim Calgary-Vancouver gray with 1 blue + 2 loco",
    ])
    assert_legal_agrees(s)


def test_gray_three_paid_red_blue_green_refused():
    s = make_state(hands=[{"red": 1, "blue": 1, "green": 1}, {}])
    assert claims_of(s, "Calgary-Vancouver gray") == []
    three_long = [a for a in s.legal_actions() if isinstance(a, Claim) and BOARD.tracks[a.track].length == 3]
    assert three_long == []
    with pytest.raises(IllegalActionError, match="one colour"):
        parse_action("claim Calgary-Vancouver gray with 1 red + 1 blue + 1 green", BOARD)
    with pytest.raises(IllegalActionError, match="one colour"):
        parse_action("claim Calgary-Vancouver with 2 red + 1 blue", BOARD)


def test_gray_three_paid_red_and_two_locomotives():
    s = make_state(hands=[{"red": 1, L: 2}, {}])
    assert claims_of(s, "Calgary-Vancouver gray") == ["claim Calgary-Vancouver gray with 1 red + 2 loco"]
    act(s, "claim Calgary-Vancouver gray with 1 red + 2 loco")
    snap = s.snapshot()
    assert snap["claimed"] == {str(TRACK["Calgary-Vancouver gray"].id): 0}
    assert hand(s, 0) == {}
    assert discard(s) == Counter({"red": 1, L: 2})  # paid cards go to the discard pile
    assert snap["trains"] == [42, 45]
    assert snap["route_points"] == [4, 0]
    assert s.current_player == 1 and s.phase_name is Phase.TURN


def test_gray_three_paid_with_three_locomotives():
    s = make_state(hands=[{L: 3}, {}])
    assert claims_of(s, "Calgary-Vancouver gray") == ["claim Calgary-Vancouver gray with 3 loco"]
    act(s, "claim Calgary-Vancouver gray with 3 loco")
    assert discard(s) == Counter({L: 3})
    assert s.snapshot()["route_points"] == [4, 0]


def test_colour_and_locomotive_payment_goes_to_discard():
    s = make_state(hands=[{"blue": 3, L: 3, "red": 2}, {}])
    act(s, "claim Atlanta-Miami blue with 2 blue + 3 loco")
    assert hand(s, 0) == {"blue": 1, "red": 2}
    assert discard(s) == Counter({"blue": 2, L: 3})


def test_not_enough_cards_refused():
    s = make_state(hands=[{"blue": 4}, {}])
    assert claims_of(s, "Atlanta-Miami blue") == []
    with pytest.raises(IllegalActionError, match="has 4 blue, not 5"):
        act(s, "claim Atlanta-Miami blue with 5 blue")
    with pytest.raises(IllegalActionError, match="has 0 locomotives, not 1"):
        act(s, "claim Atlanta-Miami blue with 4 blue + 1 loco")
    assert hand(s, 0) == {"blue": 4} and s.snapshot()["claimed"] == {}
    assert s.current_player == 0


def test_wrong_colour_refused():
    s = make_state(hands=[{"red": 5}, {}])
    assert claims_of(s, "Atlanta-Miami blue") == []
    with pytest.raises(IllegalActionError, match="not a payment this track accepts"):
        parse_action("claim Atlanta-Miami blue with 5 red", BOARD)
    with pytest.raises(IllegalActionError, match="cannot be paid with red"):
        s.apply(Claim(TRACK["Atlanta-Miami blue"].id, CARD_NAMES.index("red"), 5, 0))


def test_payment_of_wrong_size_refused():
    with pytest.raises(IllegalActionError, match="needs 5"):
        parse_action("claim Atlanta-Miami blue with 4 blue", BOARD)
    with pytest.raises(IllegalActionError, match="needs 3"):
        parse_action("claim Calgary-Vancouver gray with 2 red + 2 loco", BOARD)
    s = make_state(hands=[{"blue": 6}, {}])
    with pytest.raises(IllegalActionError, match="needs 5 cards"):
        s.apply(Claim(TRACK["Atlanta-Miami blue"].id, CARD_NAMES.index("blue"), 6, 0))


# -- trains ------------------------------------------------------------------------------------------------

def test_too_few_trains_refused_exactly_enough_allowed():
    s = make_state(hands=[{"blue": 5, "orange": 4}, {}], trains=[4, 45])
    assert claims_of(s, "Atlanta-Miami blue") == []
    with pytest.raises(IllegalActionError, match="needs 5 trains and the player has 4"):
        act(s, "claim Atlanta-Miami blue with 5 blue")
    assert claims_of(s, "Atlanta-New Orleans orange") == ["claim Atlanta-New Orleans orange with 4 orange"]
    act(s, "claim Atlanta-New Orleans orange with 4 orange")
    assert s.snapshot()["trains"] == [0, 45]
    assert_legal_agrees(make_state(hands=[{"blue": 5, "orange": 4}, {}], trains=[4, 45]))


# -- double routes -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("holder", [0, 1])
def test_double_route_closed_at_two_and_three_players(players, holder):
    hands = [{"orange": 4}] + [{}] * (players - 1)
    s = make_state(players, hands=hands, claimed={"Denver-Kansas City black": holder})
    assert claims_of(s, "Denver-Kansas City orange") == []
    with pytest.raises(IllegalActionError, match="only one track of a double route"):
        act(s, "claim Denver-Kansas City orange with 4 orange")
    assert_legal_agrees(s)


@pytest.mark.parametrize("players", [2, 3])
def test_double_route_closes_for_everyone_in_play(players):
    hands = [{"black": 4}, {"orange": 4}] + [{}] * (players - 2)
    s = make_state(players, hands=hands)
    assert claims_of(s, "Denver-Kansas City black") == ["claim Denver-Kansas City black with 4 black"]
    act(s, "claim Denver-Kansas City black with 4 black")
    assert s.current_player == 1
    assert claims_of(s, "Denver-Kansas City orange") == []
    with pytest.raises(IllegalActionError, match="only one track"):
        act(s, "claim Denver-Kansas City orange with 4 orange")
    # a gray pair closes the same way
    s2 = make_state(players, hands=[{"red": 2}] + [{}] * (players - 1), claimed={"Atlanta-Raleigh gray#1": 1})
    assert claims_of(s2, "Atlanta-Raleigh gray#2") == []
    with pytest.raises(IllegalActionError, match="only one track"):
        act(s2, "claim Atlanta-Raleigh gray#2 with 2 red")


@pytest.mark.parametrize("players", [4, 5])
def test_double_route_other_player_may_take_the_twin_at_four_and_five(players):
    hands = [{"orange": 4}] + [{}] * (players - 1)
    s = make_state(players, hands=hands, claimed={"Denver-Kansas City black": 1})
    assert claims_of(s, "Denver-Kansas City orange") == ["claim Denver-Kansas City orange with 4 orange"]
    assert_legal_agrees(s)
    act(s, "claim Denver-Kansas City orange with 4 orange")
    claimed = s.snapshot()["claimed"]
    assert claimed == {str(TRACK["Denver-Kansas City black"].id): 1, str(TRACK["Denver-Kansas City orange"].id): 0}


@pytest.mark.parametrize("players", [4, 5])
def test_double_route_same_player_never_both_at_four_and_five(players):
    hands = [{"orange": 4, "red": 2}] + [{}] * (players - 1)
    s = make_state(players, hands=hands, claimed={"Denver-Kansas City black": 0, "Atlanta-Raleigh gray#2": 0})
    assert claims_of(s, "Denver-Kansas City orange") == []
    assert claims_of(s, "Atlanta-Raleigh gray#1") == []
    with pytest.raises(IllegalActionError, match="both tracks"):
        act(s, "claim Denver-Kansas City orange with 4 orange")
    with pytest.raises(IllegalActionError, match="both tracks"):
        act(s, "claim Atlanta-Raleigh gray#1 with 2 red")
    assert_legal_agrees(s)


@pytest.mark.parametrize("players", [4, 5])
def test_double_route_both_tracks_taken_closes_the_pair(players):
    hands = [{"orange": 4}] + [{}] * (players - 1)
    s = make_state(players, hands=hands, claimed={"Denver-Kansas City black": 1, "Denver-Kansas City orange": 2})
    assert claims_of(s, "Denver-Kansas City orange") == []
    with pytest.raises(IllegalActionError, match="already claimed"):
        act(s, "claim Denver-Kansas City orange with 4 orange")


# -- already claimed -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("holder", [0, 1])
def test_already_claimed_track_refused(holder):
    s = make_state(hands=[{"blue": 5}, {}], claimed={"Atlanta-Miami blue": holder})
    assert claims_of(s, "Atlanta-Miami blue") == []
    with pytest.raises(IllegalActionError, match="already claimed"):
        act(s, "claim Atlanta-Miami blue with 5 blue")
    assert hand(s, 0) == {"blue": 5}


# -- points --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("label,length,points", [
    ("Atlanta-Nashville gray", 1, 1),
    ("Atlanta-Charleston gray", 2, 2),
    ("Calgary-Vancouver gray", 3, 4),
    ("Calgary-Helena gray", 4, 7),
    ("Atlanta-Miami blue", 5, 10),
    ("Calgary-Winnipeg white", 6, 15),
])
def test_route_points_table(label, length, points):
    assert TRACK[label].length == length
    s = make_state(hands=[{L: 6}, {}], route_points=[3, 0])
    act(s, f"claim {label} with {length} loco")
    snap = s.snapshot()
    assert snap["route_points"] == [3 + points, 0]
    assert snap["trains"] == [45 - length, 45]
    assert s.observation(1).route_points == (3 + points, 0)  # scores are public


# -- timing and naming ---------------------------------------------------------------------------------------

def test_claim_not_allowed_while_choosing_tickets():
    s = make_state(hands=[{"blue": 5}, {}], offered=[[0, 1, 2], []], phase="keep_tickets")
    assert all(t.startswith("keep") for t in legal_texts(s))
    with pytest.raises(IllegalActionError, match="choose which drawn tickets"):
        act(s, "claim Atlanta-Miami blue with 5 blue")


def test_routes_need_not_connect():
    s = make_state(hands=[{"blue": 5}, {}], claimed={"Seattle-Vancouver gray#1": 0})
    act(s, "claim Atlanta-Miami blue with 5 blue")
    assert s.snapshot()["route_points"] == [11, 0]


def test_track_naming():
    a = parse_action("claim Miami-Atlanta blue with 5 blue", BOARD)
    assert a == parse_action("claim Atlanta-Miami with 5 blue", BOARD)
    assert a.track == TRACK["Atlanta-Miami blue"].id
    with pytest.raises(IllegalActionError, match="double route"):
        parse_action("claim Denver-Kansas City with 4 black", BOARD)
    with pytest.raises(IllegalActionError, match="no track joins"):
        parse_action("claim Miami-Seattle with 4 black", BOARD)
    with pytest.raises(IllegalActionError, match="unknown city"):
        parse_action("claim Atlantis-Miami with 4 black", BOARD)
    with pytest.raises(IllegalActionError, match="lacks its payment"):
        parse_action("claim Atlanta-Miami blue", BOARD)
    with pytest.raises(IllegalActionError):
        parse_action("claim Atlanta-Miami blue with 5 mauve", BOARD)


# -- the listed payments against a brute-force enumeration ---------------------------------------------------

def expected_claims(state):
    """Every (track, colour, cards, locomotives) the rules allow, enumerated independently."""
    snap = state.snapshot()
    p = state.current_player
    n = state.num_players
    owner = {int(t): o for t, o in snap["claimed"].items()}
    h = snap["hands"][p]
    locos = h[L]
    out = set()
    for t in BOARD.tracks:
        if t.id in owner:
            continue
        if t.twin >= 0 and t.twin in owner and (n < 4 or owner[t.twin] == p):
            continue
        if snap["trains"][p] < t.length:
            continue
        colours = range(8) if t.colour == GRAY else [t.colour]
        for c in colours:
            for k in range(0, t.length):  # k locomotives, at least one coloured card
                if h[CARD_NAMES[c]] >= t.length - k and locos >= k:
                    out.add((t.id, c, t.length - k, k))
        if locos >= t.length:
            out.add((t.id, LOCOMOTIVE, 0, t.length))
    return out


@pytest.mark.parametrize("seed", range(30))
def test_payment_enumeration_matches_brute_force(seed):
    rng = random.Random(seed)
    players = rng.choice([2, 3, 4, 5])
    h = {name: rng.choice([0, 0, 1, 2, 3, 4, 6]) for name in CARD_NAMES}
    claimed = {}
    for t in rng.sample(range(100), rng.randint(0, 30)):
        seat = rng.randrange(players)
        tw = BOARD.tracks[t].twin
        if tw in claimed and (players < 4 or claimed[tw] == seat):
            continue  # a position the rules cannot reach
        claimed[t] = seat
    trains = [rng.choice([1, 2, 3, 4, 6, 45])] + [45] * (players - 1)
    s = make_state(players, hands=[h] + [{}] * (players - 1), claimed=claimed, trains=trains)
    legal = [a for a in s.legal_actions() if isinstance(a, Claim)]
    got = [(a.track, a.colour, a.cards, a.locomotives) for a in legal]
    assert len(got) == len(set(got)), "a payment is listed twice"
    assert set(got) == expected_claims(s)
    for a in legal[:: max(1, len(legal) // 25)]:
        c = s.clone()
        c.apply(a)
        paid = Counter({CARD_NAMES[a.colour]: a.cards} if a.cards else {})
        paid[L] += a.locomotives
        assert discard(c) == +paid
        assert c.snapshot()["claimed"][str(a.track)] == 0


@pytest.mark.parametrize("seed", range(6))
def test_claims_legal_actions_and_apply_agree(seed):
    rng = random.Random(100 + seed)
    players = [2, 4][seed % 2]
    h = {name: rng.choice([0, 1, 2, 3, 5]) for name in CARD_NAMES}
    claimed = {t: rng.randrange(players) for t in rng.sample(range(100), 20) if BOARD.tracks[t].twin < 0}
    s = make_state(players, hands=[h] + [{}] * (players - 1), claimed=claimed,
                   trains=[rng.choice([3, 5, 45])] + [45] * (players - 1))
    assert_legal_agrees(s)
