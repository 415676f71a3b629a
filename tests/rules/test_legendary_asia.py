"""Legendary Asia: the variant's rules (the published rules of the variant)
on hand-built positions: setup with long tickets and the box, ferries, mountain routes, double
routes beside mountains, the Asian Explorer bonus, no longest-path bonus, the tie-breaks, long
tickets, and whole random games on the map."""

import itertools
import random
from collections import Counter

import pytest

from helpers import act, legal_texts, make_state, ticket_id, track_id
from rules_common import assert_legal_agrees, discard, hand, play_out, total_cards
from ttr_lab.strategies.random import Random
from ttr_lab import IllegalActionError, play_game
from ttr_lab.games.ticket_to_ride import CARD_NAMES, TicketToRide, Claim, KeepTickets, Phase, load_board, new_game, restore_state

BOARD = load_board("legendary_asia")
L = "locomotive"
TRACK = {t.label: t for t in BOARD.tracks}
LONG = {t.id for t in BOARD.tickets if t.deck == "long"}
REGULAR = {t.id for t in BOARD.tickets if t.deck == "regular"}
ALL_TICKETS = LONG | REGULAR


def colour(name):
    return CARD_NAMES.index(name)


def state(players=2, **kw):
    return make_state(players, board=BOARD, **kw)


def tid(label):
    return track_id(label, BOARD)


def tkt(cities):
    return ticket_id(cities, BOARD)


def claims_of(s, label):
    return sorted(t for t in legal_texts(s) if t.startswith(f"claim {label} with"))


def refused(s, text, match):
    """``text`` is not listed as legal and apply() refuses it with a message matching ``match``;
    the position is left unchanged."""
    assert text not in legal_texts(s)
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match=match):
        act(s, text)
    assert s.snapshot() == before


def refused_action(s, action, match):
    assert action not in s.legal_actions()
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match=match):
        s.apply(action)
    assert s.snapshot() == before


def finished(players=2, claimed=None, tickets_held=None, **kw):
    """A position in the last turn of the final round, played out: a finished game's result."""
    s = state(players, claimed=claimed, tickets_held=tickets_held, final_turns_left=1, **kw)
    play_out(s)
    assert s.is_terminal()
    return s.result()


def tickets_conserved(s):
    """Every one of the 36 tickets is in exactly one place: held, offered, the deck or the box."""
    places = [t for h in s.tickets for t in h] + [t for o in s.offers for t in o] + list(s.ticket_deck) + list(s.boxed)
    assert sorted(places) == sorted(ALL_TICKETS)


# -- the map's ruleset ----------------------------------------------------------------------------------------

def test_ruleset_of_the_map():
    r = BOARD.ruleset
    assert r.initial_long_tickets == 1 and r.initial_tickets == 3 and r.initial_keep_min == 2
    assert r.initial_rejects == "box"
    assert r.ticket_draw == 3 and r.ticket_keep_min == 1
    assert r.longest_path_bonus == 0 and r.explorer_bonus == 10
    assert r.tie_breaks == ("tickets", "mountains")
    assert r.mountain_points_per_space == 2
    assert r.trains_per_player == 45 and r.initial_hand == 4
    assert (BOARD.min_players, BOARD.max_players) == (2, 5)
    assert len(LONG) == 6 and len(REGULAR) == 30


# -- setup: 1 long + 3 regular, keep at least 2, rejects and undealt longs to the box ---------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 7, 2024])
def test_setup_deal_one_long_first_then_three_regular(players, seed):
    s = new_game(BOARD, players, seed)
    assert s.phase_name is Phase.INITIAL_TICKETS and s.current_player == 0
    offers = [s.offers[p] for p in range(players)]
    for offer in offers:
        assert len(offer) == 4
        assert offer[0] in LONG  # the long ticket comes first
        assert all(t in REGULAR for t in offer[1:])
    dealt = [t for o in offers for t in o]
    assert len(set(dealt)) == len(dealt)
    dealt_long = {o[0] for o in offers}
    # the 6 - n long tickets nobody was dealt are out of the game, unseen
    assert set(s.boxed) == LONG - dealt_long and len(s.boxed) == 6 - players
    assert s.snapshot()["boxed_by"] == [-1] * (6 - players)
    # the ticket deck: the 30 regular tickets minus those dealt, and no long ticket
    assert sorted(s.ticket_deck) == sorted(REGULAR - set(dealt))
    assert len(s.ticket_deck) == 30 - 3 * players
    assert not LONG & set(s.ticket_deck)
    snap = s.snapshot()
    assert [sum(h.values()) for h in snap["hands"]] == [4] * players
    assert snap["trains"] == [45] * players
    assert total_cards(s) == 110
    tickets_conserved(s)


def test_setup_keep_options_are_every_subset_of_at_least_two_of_four():
    s = new_game(BOARD, 2, 3)
    expected = {
        "keep " + ",".join(map(str, c)) for size in (2, 3, 4) for c in itertools.combinations(range(4), size)
    }
    assert len(expected) == 11
    assert set(legal_texts(s)) == expected
    assert len(legal_texts(s)) == 11
    assert_legal_agrees(s)


@pytest.mark.parametrize("text", ["keep 0", "keep 1", "keep 2", "keep 3"])
def test_setup_keeping_one_ticket_refused(text):
    s = new_game(BOARD, 2, 3)
    refused(s, text, "at least 2 of the 4")
    assert s.tickets[0] == () and s.phase_name is Phase.INITIAL_TICKETS


def test_setup_keeping_none_refused():
    s = new_game(BOARD, 3, 3)
    refused_action(s, KeepTickets(()), "at least 2 of the 4")


@pytest.mark.parametrize("kept", list(itertools.combinations(range(4), 2)))
def test_setup_any_two_may_be_kept_the_rest_go_to_the_box(kept):
    s = new_game(BOARD, 2, 11)
    offer, deck, boxed = s.offers[0], s.ticket_deck, s.boxed
    act(s, "keep " + ",".join(map(str, kept)))
    assert s.tickets[0] == tuple(offer[i] for i in kept)
    rejected = tuple(t for i, t in enumerate(offer) if i not in kept)
    assert s.boxed == boxed + rejected  # out of the game ...
    assert s.snapshot()["boxed_by"][-2:] == [0, 0]
    assert s.ticket_deck == deck  # ... never into the ticket deck
    assert s.current_player == 1 and s.phase_name is Phase.INITIAL_TICKETS
    tickets_conserved(s)


def test_setup_keeping_two_regular_tickets_drops_the_long_one():
    s = new_game(BOARD, 2, 5)
    long_one = s.offers[0][0]
    act(s, "keep 2,3")
    assert long_one not in s.tickets[0]
    assert long_one in s.boxed and long_one not in s.ticket_deck


def test_setup_keeping_all_four_boxes_nothing_more():
    s = new_game(BOARD, 2, 5)
    offer, deck, boxed = s.offers[0], s.ticket_deck, s.boxed
    act(s, "keep 0,1,2,3")
    assert s.tickets[0] == offer
    assert s.boxed == boxed and s.ticket_deck == deck


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_whole_round_then_player_0_turn(players):
    s = new_game(BOARD, players, 40 + players)
    offers = [s.offers[p] for p in range(players)]
    deck = s.ticket_deck
    choices = ["keep 0,1", "keep 1,2,3", "keep 0,1,2,3", "keep 2,3", "keep 0,3"][:players]
    for p, text in enumerate(choices):
        assert s.current_player == p and s.phase_name is Phase.INITIAL_TICKETS
        act(s, text)
    assert s.phase_name is Phase.TURN and s.current_player == 0
    assert s.ticket_deck == deck  # no setup reject ever reaches the deck
    kept = [t for h in s.tickets for t in h]
    rejected = [t for o in offers for t in o if t not in kept]
    assert set(s.boxed) == (LONG - {o[0] for o in offers}) | set(rejected)
    assert not LONG & set(s.ticket_deck)
    tickets_conserved(s)


def after_setup(players=2, seed=21):
    s = new_game(BOARD, players, seed)
    for _ in range(players):
        act(s, "keep 0,1")
    assert s.phase_name is Phase.TURN
    return s


def test_ticket_draw_in_play_three_regular_keep_one_rest_to_the_bottom():
    s = after_setup()
    deck, boxed = s.ticket_deck, s.boxed
    act(s, "tickets")
    offered = s.offers[0]
    assert offered == deck[:3] and all(t in REGULAR for t in offered)
    assert s.phase_name is Phase.KEEP_TICKETS
    expected = {"keep " + ",".join(map(str, c)) for size in (1, 2, 3) for c in itertools.combinations(range(3), size)}
    assert set(legal_texts(s)) == expected and len(legal_texts(s)) == 7
    assert_legal_agrees(s)
    refused_action(s, KeepTickets(()), "at least 1 of the 3")
    held = s.tickets[0]
    act(s, "keep 1")
    assert s.tickets[0] == held + (offered[1],)
    assert s.ticket_deck == deck[3:] + (offered[0], offered[2])  # to the bottom ...
    assert s.boxed == boxed  # ... not to the box
    assert s.snapshot()["ticket_deck_returned_by"][-2:] == [0, 0]
    assert s.current_player == 1 and s.phase_name is Phase.TURN
    tickets_conserved(s)


def test_ticket_draws_never_offer_a_long_or_boxed_ticket():
    s = after_setup(2, seed=8)
    boxed = s.boxed
    assert len(boxed) == 4 + 4  # 4 undealt long + 2 rejected by each player
    draws = 0
    while s.ticket_deck:
        act(s, "tickets")
        assert all(t in REGULAR and t not in boxed for t in s.offers[s.current_player])
        act(s, "keep 0,1,2")
        draws += 1
    assert draws == (30 - 6) // 3
    assert s.boxed == boxed
    assert all(t not in LONG for h in s.tickets for t in h[2:])  # beyond the two kept at setup
    refused(s, "tickets", "ticket deck is empty")
    tickets_conserved(s)


# -- ferries: one locomotive per locomotive space -----------------------------------------------------------------

def test_gray_ferry_payment_list_kobe_seoul():
    s = state(hands=[{"red": 2, "blue": 1, L: 1}, {}])
    assert claims_of(s, "Kobe-Seoul gray") == sorted([
        "claim Kobe-Seoul gray with 1 red + 1 loco",
        "claim Kobe-Seoul gray with 1 blue + 1 loco",
    ])
    assert_legal_agrees(s)


def test_gray_ferry_payment_list_with_two_locomotives():
    s = state(hands=[{"red": 2, L: 2}, {}])
    assert claims_of(s, "Kobe-Seoul gray") == sorted([
        "claim Kobe-Seoul gray with 1 red + 1 loco",
        "claim Kobe-Seoul gray with 2 loco",
    ])


def test_gray_ferry_without_a_locomotive_refused():
    s = state(hands=[{"red": 5, "blue": 5}, {}])
    assert claims_of(s, "Kobe-Seoul gray") == []
    assert not any(isinstance(a, Claim) and BOARD.tracks[a.track].ferry_locomotives for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="not a payment this track accepts"):
        act(s, "claim Kobe-Seoul gray with 2 red")
    refused_action(s, Claim(tid("Kobe-Seoul gray"), colour("red"), 2, 0), "ferry needs at least 1 locomotive")
    assert_legal_agrees(s)


def test_gray_ferry_one_colour_only():
    s = state(hands=[{"red": 1, "blue": 1, L: 1}, {}])
    assert claims_of(s, "Peking-Seoul gray") == []  # 3 spaces: 1 loco + 2 cards of ONE colour
    with pytest.raises(IllegalActionError, match="one colour"):
        act(s, "claim Peking-Seoul gray with 1 red + 1 blue + 1 loco")
    s = state(hands=[{"red": 2, "blue": 1, L: 1}, {}])
    assert claims_of(s, "Peking-Seoul gray") == ["claim Peking-Seoul gray with 2 red + 1 loco"]


def test_gray_ferry_claim_pays_and_scores():
    s = state(hands=[{"red": 2, L: 1}, {}])
    act(s, "claim Kobe-Seoul gray with 1 red + 1 loco")
    snap = s.snapshot()
    assert snap["claimed"] == {str(tid("Kobe-Seoul gray")): 0}
    assert hand(s, 0) == {"red": 1}
    assert discard(s) == Counter({"red": 1, L: 1})
    assert snap["trains"] == [43, 45]  # a ferry costs no extra train
    assert snap["route_points"] == [2, 0]  # scores like any route of length 2


def test_gray_ferry_all_locomotives_allowed():
    s = state(hands=[{L: 2}, {}])
    assert claims_of(s, "Kobe-Seoul gray") == ["claim Kobe-Seoul gray with 2 loco"]
    act(s, "claim Kobe-Seoul gray with 2 loco")
    assert s.snapshot()["trains"] == [43, 45] and hand(s, 0) == {}


def test_coloured_ferry_payment_list_bombay_colombo():
    s = state(hands=[{"black": 4, "red": 4, "green": 4, L: 2}, {}])
    assert claims_of(s, "Bombay-Colombo black") == sorted([
        "claim Bombay-Colombo black with 3 black + 1 loco",
        "claim Bombay-Colombo black with 2 black + 2 loco",
    ])
    assert claims_of(s, "Bombay-Colombo red") == sorted([
        "claim Bombay-Colombo red with 3 red + 1 loco",
        "claim Bombay-Colombo red with 2 red + 2 loco",
    ])
    assert_legal_agrees(s)


def test_coloured_ferry_payment_list_with_four_locomotives():
    s = state(hands=[{"black": 3, L: 4}, {}])
    assert claims_of(s, "Bombay-Colombo black") == sorted([
        "claim Bombay-Colombo black with 3 black + 1 loco",
        "claim Bombay-Colombo black with 2 black + 2 loco",
        "claim Bombay-Colombo black with 1 black + 3 loco",
        "claim Bombay-Colombo black with 4 loco",
    ])
    assert claims_of(s, "Bombay-Colombo red") == ["claim Bombay-Colombo red with 4 loco"]


def test_coloured_ferry_without_a_locomotive_refused():
    s = state(hands=[{"black": 4, "red": 4}, {}])
    assert claims_of(s, "Bombay-Colombo black") == [] and claims_of(s, "Bombay-Colombo red") == []
    with pytest.raises(IllegalActionError, match="not a payment this track accepts"):
        act(s, "claim Bombay-Colombo black with 4 black")
    refused_action(s, Claim(tid("Bombay-Colombo black"), colour("black"), 4, 0), "ferry needs at least 1 locomotive")
    refused_action(s, Claim(tid("Bombay-Colombo red"), colour("red"), 4, 0), "ferry needs at least 1 locomotive")
    # the locomotive must be in hand
    refused_action(s, Claim(tid("Bombay-Colombo black"), colour("black"), 3, 1), "has 0 locomotives, not 1")


def test_coloured_ferry_other_colour_refused():
    s = state(hands=[{"red": 3, L: 1}, {}])
    assert claims_of(s, "Bombay-Colombo black") == []
    refused_action(s, Claim(tid("Bombay-Colombo black"), colour("red"), 3, 1), "cannot be paid with red")
    assert claims_of(s, "Bombay-Colombo red") == ["claim Bombay-Colombo red with 3 red + 1 loco"]


def test_coloured_ferry_claim_pays_and_scores():
    s = state(hands=[{"black": 3, L: 1}, {}])
    act(s, "claim Bombay-Colombo black with 3 black + 1 loco")
    snap = s.snapshot()
    assert hand(s, 0) == {}
    assert discard(s) == Counter({"black": 3, L: 1})
    assert snap["trains"] == [41, 45] and snap["route_points"] == [7, 0]


def test_coloured_ferry_five_long_needs_its_colour_and_one_locomotive():
    s = state(hands=[{"pink": 4, "red": 4, L: 1}, {}])
    assert claims_of(s, "Astrakhan-Samarkand pink") == ["claim Astrakhan-Samarkand pink with 4 pink + 1 loco"]
    s = state(hands=[{"pink": 5}, {}])
    assert claims_of(s, "Astrakhan-Samarkand pink") == []
    refused_action(s, Claim(tid("Astrakhan-Samarkand pink"), colour("pink"), 5, 0), "ferry needs at least 1")


# -- mountain routes: one extra train and +2 points per X ---------------------------------------------------------

def test_mountain_claim_one_x():
    s = state(hands=[{"pink": 3, L: 2}, {}])
    # the payment is the usual 2 cards; no card is paid for the X
    assert claims_of(s, "Agra-Kathmandu pink") == sorted([
        "claim Agra-Kathmandu pink with 2 pink",
        "claim Agra-Kathmandu pink with 1 pink + 1 loco",
        "claim Agra-Kathmandu pink with 2 loco",
    ])
    with pytest.raises(IllegalActionError, match="needs 2"):
        act(s, "claim Agra-Kathmandu pink with 3 pink")
    act(s, "claim Agra-Kathmandu pink with 2 pink")
    snap = s.snapshot()
    assert hand(s, 0) == {"pink": 1, L: 2}
    assert discard(s) == Counter({"pink": 2})
    assert snap["trains"] == [42, 45]  # 2 on the route + 1 to the Mountain Crossing area
    assert snap["route_points"] == [2 + 2, 0]  # route table 2, +2 for the X at once


def test_mountain_claim_two_x():
    s = state(hands=[{"red": 2}, {}])
    act(s, "claim Hanoi-Mandalay red with 2 red")
    snap = s.snapshot()
    assert snap["trains"] == [41, 45]  # 2 + 2
    assert snap["route_points"] == [2 + 4, 0]


def test_plain_route_costs_no_extra_train():
    s = state(hands=[{"orange": 2}, {}])
    act(s, "claim Agra-Bombay orange with 2 orange")
    assert s.snapshot()["trains"] == [43, 45] and s.snapshot()["route_points"] == [2, 0]


@pytest.mark.parametrize("label,cards,need", [
    ("Agra-Kathmandu pink", "2 pink", 3),
    ("Hanoi-Mandalay red", "2 red", 4),
    ("Lhasa-Xian blue", "4 blue", 5),
])
def test_mountain_needs_trains_for_length_plus_x(label, cards, need):
    hands = [{"pink": 2, "red": 2, "blue": 4}, {}]
    length = TRACK[label].length
    s = state(hands=hands, trains=[length, 45])
    refused(s, f"claim {label} with {cards}", f"needs {need} trains and the player has {length}")
    assert claims_of(s, label) == []
    s = state(hands=hands, trains=[need - 1, 45])
    refused(s, f"claim {label} with {cards}", f"needs {need} trains and the player has {need - 1}")
    s = state(hands=hands, trains=[need, 45])
    assert claims_of(s, label) == [f"claim {label} with {cards}"]
    act(s, f"claim {label} with {cards}")
    assert s.snapshot()["trains"] == [0, 45]
    assert s.final_round


def test_mountain_refused_position_agrees():
    s = state(hands=[{"pink": 2, "red": 2, "orange": 2, L: 2}, {}], trains=[2, 45])
    assert_legal_agrees(s)


def test_mountain_trains_trigger_the_final_round():
    # 5 trains: the 2-space mountain route leaves 2 (final round); a plain 2-space route leaves 3
    s = state(hands=[{"pink": 2, "orange": 2}, {}], trains=[5, 45])
    plain = s.clone()
    act(s, "claim Agra-Kathmandu pink with 2 pink")
    assert s.snapshot()["trains"] == [2, 45]
    assert s.final_round and s.snapshot()["final_turns_left"] == 2
    act(plain, "claim Agra-Bombay orange with 2 orange")
    assert plain.snapshot()["trains"] == [3, 45]
    assert not plain.final_round
    # the final round: the other player once, then the trigger player once
    seats = []
    while not s.is_terminal():
        seats.append(s.current_player)
        act(s, "draw blind")
        if s.phase_name is Phase.SECOND_DRAW:
            act(s, "draw blind")
        assert len(seats) < 5
    assert seats == [1, 0]
    r = s.result()
    assert r.players[0].trains_left == 2 and r.players[0].route_points == 4


def test_mountain_points_in_the_end_result():
    r = finished(claimed={"Hanoi-Mandalay red": 0, "Agra-Kathmandu pink": 0, "Agra-Bombay orange": 1,
                          "Khabarovsk-Vladivostok gray#2": 1})
    assert [p.route_points for p in r.players] == [6 + 4, 2 + 4]
    assert [p.trains_left for p in r.players] == [45 - 4 - 3, 45 - 2 - 3]
    assert [p.mountain_routes for p in r.players] == [2, 1]


# -- double routes beside mountains ----------------------------------------------------------------------------

BESIDE = [  # (plain gray track, coloured mountain track beside it, its colour)
    ("Moscow-Perm gray", "Moscow-Perm red", "red"),
    ("Omsk-Perm gray", "Omsk-Perm white", "white"),
    ("Krasnoyarsk-Omsk gray", "Krasnoyarsk-Omsk pink", "pink"),
    ("Irkutsk-Krasnoyarsk gray", "Irkutsk-Krasnoyarsk blue", "blue"),
    ("Chita-Irkutsk gray", "Chita-Irkutsk white", "white"),
]


@pytest.mark.parametrize("gray,mountain,col", BESIDE)
def test_gray_beside_mountain_costs_no_extra_train(gray, mountain, col):
    length = TRACK[gray].length
    assert TRACK[gray].mountain_spaces == 0 and TRACK[mountain].mountain_spaces == 1
    s = state(hands=[{col: length}, {}])
    # the gray track may be paid with the colour of the track beside it
    assert f"claim {gray} with {length} {col}" in legal_texts(s)
    assert f"claim {mountain} with {length} {col}" in legal_texts(s)
    g = s.clone()
    act(g, f"claim {gray} with {length} {col}")
    assert g.snapshot()["trains"] == [45 - length, 45]
    assert g.snapshot()["route_points"] == [BOARD.ruleset.route_scores[length], 0]
    act(s, f"claim {mountain} with {length} {col}")
    assert s.snapshot()["trains"] == [45 - length - 1, 45]
    assert s.snapshot()["route_points"] == [BOARD.ruleset.route_scores[length] + 2, 0]


@pytest.mark.parametrize("gray,mountain,col", BESIDE)
def test_gray_beside_mountain_with_exactly_length_trains(gray, mountain, col):
    length = TRACK[gray].length
    s = state(hands=[{col: length}, {}], trains=[length, 45])
    refused(s, f"claim {mountain} with {length} {col}", f"needs {length + 1} trains")
    assert claims_of(s, gray) == [f"claim {gray} with {length} {col}"]
    act(s, f"claim {gray} with {length} {col}")
    assert s.snapshot()["trains"] == [0, 45]


def test_khabarovsk_vladivostok_only_the_track_with_x_costs_extra():
    s = state(hands=[{"green": 2}, {}])
    one = s.clone()
    act(one, "claim Khabarovsk-Vladivostok gray#1 with 2 green")
    assert one.snapshot()["trains"] == [43, 45] and one.snapshot()["route_points"] == [2, 0]
    act(s, "claim Khabarovsk-Vladivostok gray#2 with 2 green")
    assert s.snapshot()["trains"] == [42, 45] and s.snapshot()["route_points"] == [4, 0]
    s = state(hands=[{"green": 2}, {}], trains=[2, 45])
    assert claims_of(s, "Khabarovsk-Vladivostok gray#1") == ["claim Khabarovsk-Vladivostok gray#1 with 2 green"]
    assert claims_of(s, "Khabarovsk-Vladivostok gray#2") == []
    refused(s, "claim Khabarovsk-Vladivostok gray#2 with 2 green", "needs 3 trains and the player has 2")


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("first,second", [("Moscow-Perm gray", "Moscow-Perm red"),
                                          ("Moscow-Perm red", "Moscow-Perm gray")])
def test_double_beside_mountain_closed_at_two_and_three_players(players, first, second):
    hands = [{"red": 3}, {"red": 3}] + [{} for _ in range(players - 2)]
    s = state(players, hands=hands)
    act(s, f"claim {first} with 3 red")
    assert s.current_player == 1
    refused(s, f"claim {second} with 3 red", "only one track of a double route")
    assert claims_of(s, "Moscow-Perm") == []
    assert_legal_agrees(s)
    # and for the player who holds the first track
    s = state(players, hands=hands, claimed={first: 0})
    refused(s, f"claim {second} with 3 red", "only one track of a double route")


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("first,second", [("Moscow-Perm gray", "Moscow-Perm red"),
                                          ("Moscow-Perm red", "Moscow-Perm gray")])
def test_double_beside_mountain_at_four_and_five_players(players, first, second):
    hands = [{"red": 3}, {"red": 3}] + [{} for _ in range(players - 2)]
    # never both by the same player
    s = state(players, hands=hands, claimed={first: 0})
    refused(s, f"claim {second} with 3 red", "may not claim both tracks")
    assert claims_of(s, "Moscow-Perm") == []
    assert_legal_agrees(s)
    # another player may take the other track (and pays its own train cost)
    s = state(players, hands=hands, claimed={first: 0}, current_player=1)
    assert claims_of(s, second) == [f"claim {second} with 3 red"]
    act(s, f"claim {second} with 3 red")
    extra = TRACK[second].mountain_spaces
    assert s.snapshot()["trains"][1] == 45 - 3 - extra
    assert s.snapshot()["route_points"][1] == 4 + 2 * extra
    assert s.snapshot()["claimed"] == {str(tid(first)): 0, str(tid(second)): 1}


# -- end scoring: no longest-path bonus, the Asian Explorer bonus -------------------------------------------------

def check_totals(r):
    for p in r.players:
        assert p.longest_bonus == 0
        assert p.total == p.route_points + p.ticket_points + p.explorer_bonus


def test_no_longest_path_bonus():
    # player 0: a clear longest trail of 11 (Peking-Dihua-Omsk); player 1: a single 1-space track
    r = finished(claimed={"Dihua-Peking gray": 0, "Dihua-Omsk orange": 0, "Bangkok-Saigon pink": 1})
    p0, p1 = r.players
    assert p0.longest_trail == 11 and p1.longest_trail == 1
    assert p0.longest_bonus == 0 and p1.longest_bonus == 0
    assert p0.route_points == 25 and p0.explorer_bonus == 10 and p0.total == 35
    check_totals(r)


def test_no_longest_path_bonus_for_anyone_when_tied():
    r = finished(claimed={"Agra-Bombay orange": 0, "Agra-Karachi red": 1})
    assert [p.longest_bonus for p in r.players] == [0, 0]
    assert [p.total for p in r.players] == [12, 12]  # 2 route points + 10 explorer each
    check_totals(r)


def test_explorer_counts_cities_not_trains():
    # player 0: five cities with five trains; player 1: four cities with sixteen trains
    p0 = ["Calcutta-Mandalay gray#1", "Mandalay-Rangoon gray", "Bangkok-Rangoon green", "Bangkok-Saigon pink"]
    p1 = ["Dihua-Peking gray", "Dihua-Omsk orange", "Dihua-Xian yellow"]
    r = finished(claimed={**{c: 0 for c in p0}, **{c: 1 for c in p1}})
    a, b = r.players
    assert a.largest_network == 5 and b.largest_network == 4
    assert a.explorer_bonus == 10 and b.explorer_bonus == 0
    assert b.longest_trail > a.longest_trail
    check_totals(r)


def test_explorer_branching_network_and_loop_count_each_city_once():
    # player 0: a star of five tracks around Mandalay (6 cities)
    star = ["Calcutta-Mandalay gray#1", "Mandalay-Rangoon gray", "Hanoi-Mandalay red", "Lhasa-Mandalay black",
            "Kathmandu-Mandalay orange"]
    # player 1: the loop Peking-Shanghai-Macau-Xian-Peking with two tails (6 cities on 6 tracks)
    loop = ["Peking-Shanghai green", "Macau-Shanghai gray", "Macau-Xian green", "Peking-Xian gray#1",
            "Dihua-Xian yellow", "Hanoi-Macau gray#1"]
    r = finished(claimed={**{c: 0 for c in star}, **{c: 1 for c in loop}})
    a, b = r.players
    assert a.largest_network == 6 and b.largest_network == 6
    assert a.explorer_bonus == 10 and b.explorer_bonus == 10  # a tie: each scores the 10
    check_totals(r)


def test_explorer_loop_alone():
    loop = ["Peking-Shanghai green", "Macau-Shanghai gray", "Macau-Xian green", "Peking-Xian gray#1"]
    chain = ["Bangkok-Rangoon green", "Bangkok-Saigon pink", "Bangkok-Singapore black", "Calcutta-Rangoon black"]
    r = finished(claimed={**{c: 0 for c in loop}, **{c: 1 for c in chain}})
    a, b = r.players
    assert a.largest_network == 4  # 4 tracks, 4 cities
    assert b.largest_network == 5  # 4 tracks, 5 cities
    assert (a.explorer_bonus, b.explorer_bonus) == (0, 10)


def test_explorer_tie_among_three_players():
    r = finished(3, claimed={
        "Ankara-Tbilisi yellow": 0, "Tbilisi-Tehran orange": 0,
        "Peking-Shanghai green": 1, "Macau-Shanghai gray": 1,
        "Dihua-Peking gray": 2,
    })
    assert [p.largest_network for p in r.players] == [3, 3, 2]
    assert [p.explorer_bonus for p in r.players] == [10, 10, 0]
    check_totals(r)


def test_explorer_separate_networks_do_not_add_up():
    # player 0: two separate networks of 3 cities each (6 cities in all); player 1: one of 4
    r = finished(claimed={
        "Ankara-Tbilisi yellow": 0, "Tbilisi-Tehran orange": 0,
        "Peking-Shanghai green": 0, "Macau-Shanghai gray": 0,
        "Bangkok-Rangoon green": 1, "Bangkok-Saigon pink": 1, "Bangkok-Singapore black": 1,
    })
    a, b = r.players
    assert a.largest_network == 3 and b.largest_network == 4
    assert (a.explorer_bonus, b.explorer_bonus) == (0, 10)
    check_totals(r)


def test_explorer_player_without_tracks_scores_nothing():
    r = finished(claimed={"Agra-Bombay orange": 0})
    assert [p.largest_network for p in r.players] == [2, 0]
    assert [p.explorer_bonus for p in r.players] == [10, 0]


def test_explorer_ignores_the_other_players_tracks():
    # player 0's two tracks touch Tbilisi only through player 1's track: two networks of 2
    r = finished(claimed={"Ankara-Tbilisi yellow": 0, "Tbilisi-Tehran orange": 1, "Shiraz-Tehran green": 0,
                          "Baghdad-Tehran blue": 1})
    assert [p.largest_network for p in r.players] == [2, 3]
    assert [p.explorer_bonus for p in r.players] == [0, 10]


# -- winner and ties ------------------------------------------------------------------------------------------

def test_highest_total_wins_even_with_fewer_tickets():
    r = finished(claimed={"Dihua-Peking gray": 0, "Dihua-Omsk orange": 0,
                          "Agra-Kathmandu pink": 1, "Agra-Calcutta gray": 1},
                 tickets_held=[[], [tkt("Kathmandu-Calcutta")]])
    a, b = r.players
    assert a.total == 25 + 10 and b.total == 6 + 5 + 10
    assert (a.tickets_completed, b.tickets_completed) == (0, 1)
    assert (a.rank, b.rank) == (1, 2) and r.winners == (0,)


def test_tie_on_points_broken_by_completed_tickets():
    # player 0: 6 route points + Kathmandu-Calcutta (5) completed, 1 mountain route, 3 cities
    # player 1: 16 route points, Xian-Taipei (5) failed, 3 mountain routes, 3 cities at most
    r = finished(
        claimed={"Agra-Kathmandu pink": 0, "Agra-Calcutta gray": 0,
                 "Ankara-Tbilisi yellow": 1, "Tbilisi-Tehran orange": 1, "Rawalpindi-Samarkand blue": 1,
                 "Astrakhan-Perm blue": 1},
        tickets_held=[[tkt("Kathmandu-Calcutta")], [tkt("Xian-Taipei")]],
    )
    a, b = r.players
    assert b.route_points == 4 + 4 + 4 + 4
    assert a.largest_network == b.largest_network == 3
    assert a.total == b.total == 21
    assert (a.tickets_completed, b.tickets_completed) == (1, 0)
    assert (a.mountain_routes, b.mountain_routes) == (1, 3)  # tickets decide before mountains
    assert (a.rank, b.rank) == (1, 2) and r.winners == (0,)
    check_totals(r)


def test_tie_on_points_and_tickets_broken_by_mountain_routes_not_x_spaces():
    # player 0: 2 mountain routes with 2 X each (4 X); player 1: 3 mountain routes with 1 X each (3 X)
    r = finished(claimed={
        "Hanoi-Mandalay red": 0, "Kathmandu-Mandalay orange": 0,
        "Ankara-Tbilisi yellow": 1, "Tbilisi-Tehran orange": 1, "Khabarovsk-Vladivostok gray#2": 1,
    })
    a, b = r.players
    assert a.total == b.total == 12 + 10
    assert a.tickets_completed == b.tickets_completed == 0
    assert (a.mountain_routes, b.mountain_routes) == (2, 3)
    assert (a.rank, b.rank) == (2, 1) and r.winners == (1,)
    check_totals(r)


def test_tie_on_points_tickets_and_mountains_shares_the_rank():
    # players 0 and 1: one 1-X mountain route each, 4 route points + 10 explorer, no tickets
    r = finished(3, claimed={"Agra-Kathmandu pink": 0, "Agra-Rawalpindi green": 1, "Agra-Bombay orange": 2})
    assert [p.total for p in r.players] == [14, 14, 12]
    assert [p.mountain_routes for p in r.players] == [1, 1, 0]
    assert [p.rank for p in r.players] == [1, 1, 3]
    assert r.winners == (0, 1)


def test_tickets_tie_break_counts_tickets_not_ticket_points():
    # equal totals, equal mountain routes (2 each); player 0 completed one ticket of 7 points,
    # player 1 two tickets of 5 points each: player 1 completed more and wins
    r = finished(
        claimed={"Ankara-Tbilisi yellow": 0, "Astrakhan-Tbilisi black": 0, "Astrakhan-Moscow green": 0,
                 "Moscow-Perm red": 0,
                 "Agra-Kathmandu pink": 1, "Agra-Calcutta gray": 1, "Agra-Bombay orange": 1,
                 "Agra-Rawalpindi green": 1},
        tickets_held=[[tkt("Moscow-Ankara")], [tkt("Kathmandu-Calcutta"), tkt("Rawalpindi-Bombay")]],
    )
    a, b = r.players
    assert a.largest_network == b.largest_network == 5
    assert (a.ticket_points, b.ticket_points) == (7, 10)
    assert a.total == b.total == 15 + 7 + 10
    assert (a.mountain_routes, b.mountain_routes) == (2, 2)
    assert (a.tickets_completed, b.tickets_completed) == (1, 2)
    assert (a.rank, b.rank) == (2, 1)
    check_totals(r)


# -- long tickets are scored like others ------------------------------------------------------------------------

def test_long_ticket_completed_scores_plus_failed_scores_minus():
    path = ["Astrakhan-Moscow green", "Astrakhan-Samarkand pink", "Rawalpindi-Samarkand blue",
            "Agra-Rawalpindi green", "Agra-Calcutta gray"]
    r = finished(claimed={c: 0 for c in path} | {"Dihua-Omsk orange": 1},
                 tickets_held=[[tkt("Moscow-Calcutta")], [tkt("Omsk-Kobe"), tkt("Irkutsk-Dihua")]])
    a, b = r.players
    assert a.tickets[0].points == 16 and a.tickets[0].completed
    assert a.ticket_points == 16 and a.tickets_completed == 1
    assert a.route_points == 4 + 10 + 4 + 4 + 2
    assert b.ticket_points == -16 - 6 and b.tickets_failed == 2
    check_totals(r)


def test_long_ticket_kept_at_setup_is_held_and_scored():
    s = new_game(BOARD, 2, 9)
    long0, long1 = s.offers[0][0], s.offers[1][0]
    act(s, "keep 0,1", "keep 1,2")
    assert long0 in s.tickets[0] and long1 not in s.tickets[1]
    snap = s.snapshot()
    snap["final_turns_left"] = 1
    t = restore_state(BOARD, snap)
    play_out(t)
    r = t.result()
    row = next(x for x in r.players[0].tickets if x.ticket == long0)
    assert row.points >= 16 and not row.completed
    assert r.players[0].ticket_points == -sum(BOARD.tickets[i].points for i in t.tickets[0])


# -- whole random games on the map -----------------------------------------------------------------------------

@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_random_game_with_play_game(players, seed):
    record = play_game(TicketToRide(BOARD), [Random() for _ in range(players)], seed)
    assert record.options == {"map": "legendary_asia"} and record.num_players == players
    rows = record.result["players"]
    assert len(rows) == players
    assert record.result["stalled"] is False  # ended by the final round
    assert min(p["trains_left"] for p in rows) <= 2
    assert min(p["rank"] for p in rows) == 1
    for p in rows:
        assert p["longest_bonus"] == 0
        assert p["explorer_bonus"] in (0, 10)
        assert p["total"] == p["route_points"] + p["ticket_points"] + p["explorer_bonus"]
    widest = max(p["largest_network"] for p in rows)
    assert [p["explorer_bonus"] for p in rows] == [10 if p["largest_network"] == widest else 0 for p in rows]


@pytest.mark.parametrize("players,seed", [(2, 5), (5, 6)])
def test_random_game_invariants(players, seed):
    rng = random.Random(seed)
    s = new_game(BOARD, players, seed)
    steps = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal
        if steps % 40 == 0:
            assert_legal_agrees(s)
        s.apply(rng.choice(legal))
        steps += 1
        assert steps < 5000
        assert total_cards(s) == 110
        tickets_conserved(s)
        assert not LONG & set(s.ticket_deck)
        assert all(t >= 0 for t in s.trains)
    r = s.result()
    game = s.tables
    for p in r.players:
        mine = [t for t, o in enumerate(s.owner) if o == p.player]
        assert p.trains_left == 45 - sum(game.track_trains[t] for t in mine)
        assert p.route_points == sum(game.track_points[t] for t in mine)
        assert p.mountain_routes == sum(1 for t in mine if BOARD.tracks[t].mountain_spaces)
    check_totals(r)
