"""End scoring: route points from the board, tickets, the longest trail, the ranking."""

import itertools
import random

import pytest

from helpers import make_state
from rules_common import play_out
from ttr_lab.games.ticket_to_ride import load_board
from ttr_lab.games.ticket_to_ride.scoring import connected_components, longest_trail, rank_order

BOARD = load_board("usa")
TICKET = {f"{t.label.rsplit(' (', 1)[0]}": t for t in BOARD.tickets}


def finished(players=2, claimed=None, tickets_held=None, **kw):
    """A position in the last turn of the final round, played out: a finished game."""
    s = make_state(players, claimed=claimed, tickets_held=tickets_held, final_turns_left=1, **kw)
    play_out(s)
    return s.result()


# -- longest trail, directly ------------------------------------------------------------------------------

def brute_force_longest(edges):
    """Independent check: a set of edges can be walked as one trail iff it is connected and has
    0 or 2 odd-degree cities (Euler); the longest trail is the heaviest such set."""
    best = 0
    for r in range(1, len(edges) + 1):
        for subset in itertools.combinations(edges, r):
            degree = {}
            for a, b, _ in subset:
                degree[a] = degree.get(a, 0) + 1
                degree[b] = degree.get(b, 0) + 1
            if sum(d % 2 for d in degree.values()) > 2:
                continue
            cities = sorted(degree)
            index = {c: i for i, c in enumerate(cities)}
            roots = connected_components(len(cities), [(index[a], index[b]) for a, b, _ in subset])
            if len(set(roots)) == 1:
                best = max(best, sum(w for _, _, w in subset))
    return best


def test_longest_trail_empty_and_single():
    assert longest_trail([]) == 0
    assert longest_trail([(0, 1, 3)]) == 3


def test_longest_trail_star_uses_two_branches():
    assert longest_trail([(0, 1, 5), (0, 2, 4), (0, 3, 3)]) == 9


def test_longest_trail_greedy_walk_is_wrong():
    # from city 0 the long edge 1-2 is a dead end; the best trail is 2-1-3-4
    edges = [(0, 1, 1), (1, 2, 10), (1, 3, 6), (3, 4, 6)]
    assert longest_trail(edges) == 22


def test_longest_trail_loop_with_tail_revisits_a_city():
    # triangle 0-1-2 (2 each) with a tail 0-3 (1): 3-0-1-2-0 passes city 0 twice
    edges = [(0, 1, 2), (1, 2, 2), (2, 0, 2), (0, 3, 1)]
    assert longest_trail(edges) == 7


def test_longest_trail_figure_eight():
    # two triangles sharing city 0 (passed twice) and a tail at city 1: all 12 in one trail
    eight = [(0, 1, 1), (1, 2, 1), (2, 0, 1), (0, 3, 2), (3, 4, 2), (4, 0, 2)]
    assert longest_trail(eight) == 9
    assert longest_trail(eight + [(1, 5, 3)]) == 12
    # a second tail at city 4 makes four odd cities: the trail drops the shorter tail (3)
    assert longest_trail(eight + [(1, 5, 3), (4, 6, 4)]) == 13


def test_longest_trail_two_loops_joined_by_a_bridge():
    # loop 0-1-2 (3 each), bridge 2-3 (1), loop 3-4-5 (3 each): all 19 in one trail
    edges = [(0, 1, 3), (1, 2, 3), (2, 0, 3), (2, 3, 1), (3, 4, 3), (4, 5, 3), (5, 3, 3)]
    assert longest_trail(edges) == 19


def test_longest_trail_cannot_use_every_track():
    # four dead ends around a cycle: only two of them can be on one trail
    edges = [(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 0, 1), (0, 4, 5), (1, 5, 5), (2, 6, 5), (3, 7, 5)]
    assert longest_trail(edges) == 5 + 3 + 5


def test_longest_trail_separate_pieces_take_the_longest():
    assert longest_trail([(0, 1, 2), (1, 2, 2), (5, 6, 6)]) == 6


def test_longest_trail_parallel_tracks():
    assert longest_trail([(0, 1, 2), (0, 1, 3)]) == 5


@pytest.mark.parametrize("seed", range(40))
def test_longest_trail_matches_brute_force(seed):
    rng = random.Random(seed)
    cities = rng.randint(3, 7)
    edges = [(a, b, rng.randint(1, 6))
             for a, b in (rng.sample(range(cities), 2) for _ in range(rng.randint(1, 9)))]
    assert longest_trail(edges) == brute_force_longest(edges)


def test_connected_components():
    roots = connected_components(6, [(0, 1), (1, 2), (4, 5)])
    assert roots[0] == roots[1] == roots[2]
    assert roots[4] == roots[5]
    assert len({roots[0], roots[3], roots[4]}) == 3


def test_rank_order():
    assert rank_order([(10,), (20,), (15,)]) == [3, 1, 2]
    assert rank_order([(20, 1, False), (20, 2, False)]) == [2, 1]
    assert rank_order([(20, 1, True), (20, 1, False)]) == [1, 2]
    assert rank_order([(20, 1, True), (20, 1, True), (5, 0, False)])[:2] == [1, 1]


# -- route points and tickets through a result -------------------------------------------------------------

def test_route_points_are_recomputed_from_the_board():
    r = finished(claimed={"Atlanta-Miami blue": 0, "Calgary-Winnipeg white": 1, "Dallas-Houston gray#1": 1},
                 route_points=[999, 0])
    assert [p.route_points for p in r.players] == [10, 16]


def test_ticket_connected_through_other_cities():
    r = finished(claimed={"Denver-Santa Fe gray": 0, "El Paso-Santa Fe gray": 0},
                 tickets_held=[[TICKET["Denver-El Paso"].id], []])
    p0 = r.players[0]
    assert p0.tickets_completed == 1 and p0.tickets_failed == 0
    assert p0.ticket_points == 4
    assert p0.tickets[0].completed is True


def test_ticket_connected_through_a_long_chain():
    # Seattle-New York (22) over seven tracks and six cities between
    chain = ["Helena-Seattle yellow", "Helena-Omaha red", "Kansas City-Omaha gray#1",
             "Kansas City-Saint Louis blue", "Chicago-Saint Louis green", "Chicago-Pittsburgh black",
             "New York-Pittsburgh green"]
    r = finished(claimed={c: 0 for c in chain}, tickets_held=[[TICKET["Seattle-New York"].id], []])
    assert r.players[0].ticket_points == 22


def test_ticket_not_connected_by_own_tracks_is_negative():
    # the link Santa Fe-El Paso belongs to the other player
    r = finished(claimed={"Denver-Santa Fe gray": 0, "El Paso-Santa Fe gray": 1},
                 tickets_held=[[TICKET["Denver-El Paso"].id], [TICKET["Chicago-New Orleans"].id]])
    p0, p1 = r.players
    assert p0.ticket_points == -4 and p0.tickets_completed == 0 and p0.tickets_failed == 1
    assert p1.ticket_points == -7


RULEBOOK_P0 = [
    # Duluth - El Paso (10): 2 + 1 + 2 + 10 = 15 points
    "Duluth-Omaha gray#1", "Kansas City-Omaha gray#1", "Kansas City-Oklahoma City gray#1",
    "El Paso-Oklahoma City yellow",
    # Helena - Los Angeles (8): 4 + 4 + 2 = 10 points
    "Helena-Salt Lake City pink", "Las Vegas-Salt Lake City orange", "Las Vegas-Los Angeles gray",
    # elsewhere: 15 + 4 + 1 = 20 points
    "Calgary-Winnipeg white", "Calgary-Vancouver gray", "Seattle-Vancouver gray#1",
]
RULEBOOK_TICKETS = ["Duluth-El Paso", "Helena-Los Angeles", "Chicago-New Orleans"]  # 10, 8 done; 7 failed


def test_rulebook_example_56_before_the_bonus():
    # player 1's trail (13) beats player 0's (10), so player 0 gets no bonus
    p1 = ["Portland-San Francisco green", "Salt Lake City-San Francisco orange", "Denver-Salt Lake City red"]
    claimed = {c: 0 for c in RULEBOOK_P0} | {c: 1 for c in p1}
    r = finished(claimed=claimed, tickets_held=[[TICKET[t].id for t in RULEBOOK_TICKETS], []])
    p0 = r.players[0]
    assert p0.route_points == 45
    assert [t.completed for t in p0.tickets] == [True, True, False]
    assert p0.ticket_points == 10 + 8 - 7
    assert p0.tickets_completed == 2 and p0.tickets_failed == 1
    assert p0.longest_trail == 10 and p0.longest_bonus == 0
    assert p0.total == 56
    p1r = r.players[1]
    assert p1r.longest_trail == 13 and p1r.longest_bonus == 10 and p1r.total == 24 + 10
    assert r.winners == (0,)
    assert r.scores == (56, 34)


def test_rulebook_example_with_the_bonus_is_66():
    r = finished(claimed={c: 0 for c in RULEBOOK_P0},
                 tickets_held=[[TICKET[t].id for t in RULEBOOK_TICKETS], []])
    assert r.players[0].longest_bonus == 10
    assert r.players[0].total == 66


# -- longest trail through a result ---------------------------------------------------------------------------

def test_longest_trail_on_the_board_revisits_denver():
    # Helena-Denver-Omaha-Kansas City-Denver = 4 + 4 + 1 + 4 = 13 (Denver twice); the Saint Louis
    # spur cannot join it. A walk that never revisits a city finds at most 11.
    mine = ["Denver-Helena green", "Denver-Kansas City black", "Kansas City-Omaha gray#1",
            "Denver-Omaha pink", "Kansas City-Saint Louis blue"]
    r = finished(claimed={c: 0 for c in mine} | {"Atlanta-Miami blue": 1})
    assert r.players[0].longest_trail == 13
    assert r.players[1].longest_trail == 5
    assert [p.longest_bonus for p in r.players] == [10, 0]
    assert r.players[0].total == 7 + 7 + 1 + 7 + 2 + 10


def test_longest_trail_tie_everyone_gets_the_bonus():
    r = finished(3, claimed={"Atlanta-Miami blue": 0, "Portland-San Francisco green": 1, "Calgary-Vancouver gray": 2})
    assert [p.longest_trail for p in r.players] == [5, 5, 3]
    assert [p.longest_bonus for p in r.players] == [10, 10, 0]
    assert [p.total for p in r.players] == [20, 20, 4]


def test_no_tracks_no_bonus():
    r = finished()
    assert [p.longest_bonus for p in r.players] == [0, 0]
    assert [p.total for p in r.players] == [0, 0]


# -- ranking --------------------------------------------------------------------------------------------------

def test_highest_total_wins():
    r = finished(claimed={"Calgary-Winnipeg white": 1, "Atlanta-Miami blue": 0})
    assert [p.total for p in r.players] == [10, 25]
    assert [p.rank for p in r.players] == [2, 1]
    assert r.winners == (1,)


def test_tie_broken_by_more_completed_tickets():
    claimed = {"Denver-Santa Fe gray": 0, "El Paso-Santa Fe gray": 0,
               "Atlanta-New Orleans orange": 1, "Seattle-Vancouver gray#1": 1}
    r = finished(claimed=claimed, tickets_held=[[TICKET["Denver-El Paso"].id], []])
    assert [p.total for p in r.players] == [18, 18]
    assert [p.longest_bonus for p in r.players] == [10, 10]
    assert [p.rank for p in r.players] == [1, 2]
    assert r.winners == (0,)


def test_tie_on_total_and_tickets_broken_by_the_longest_bonus():
    claimed = {"Calgary-Winnipeg white": 0,
               "Atlanta-Miami blue": 1, "Portland-San Francisco green": 1, "Calgary-Vancouver gray": 1,
               "Dallas-Houston gray#1": 1}
    r = finished(claimed=claimed)
    assert [p.total for p in r.players] == [25, 25]
    assert [p.longest_bonus for p in r.players] == [10, 0]
    assert [p.rank for p in r.players] == [1, 2]


def test_completed_tickets_count_before_the_longest_bonus():
    claimed = {"Calgary-Winnipeg white": 0,
               "Denver-Santa Fe gray": 1, "El Paso-Santa Fe gray": 1, "Atlanta-Miami blue": 1,
               "Calgary-Vancouver gray": 1, "Boston-New York red": 1, "Dallas-Houston gray#1": 1}
    r = finished(claimed=claimed, tickets_held=[[], [TICKET["Denver-El Paso"].id]])
    assert [p.total for p in r.players] == [25, 25]
    assert [p.longest_bonus for p in r.players] == [10, 0]
    assert [p.tickets_completed for p in r.players] == [0, 1]
    assert [p.rank for p in r.players] == [2, 1]


def test_full_tie_shares_the_rank():
    r = finished(claimed={"Atlanta-Miami blue": 0, "Portland-San Francisco green": 1})
    assert [p.total for p in r.players] == [20, 20]
    assert [p.rank for p in r.players] == [1, 1]
    assert r.winners == (0, 1)


def test_shared_first_place_with_three_players():
    r = finished(3, claimed={"Atlanta-Miami blue": 0, "Portland-San Francisco green": 1, "Calgary-Vancouver gray": 2})
    ranks = [p.rank for p in r.players]
    assert ranks[0] == ranks[1] == 1
    assert ranks[2] > 1
    assert r.winners == (0, 1)


def test_cards_and_trains_left_score_nothing():
    a = finished(claimed={"Atlanta-Miami blue": 0}, hands=[{"locomotive": 10, "red": 5}, {}])
    b = finished(claimed={"Atlanta-Miami blue": 0}, hands=[{}, {}], trains=[5, 45])
    assert a.players[0].total == b.players[0].total == 20
    assert a.players[0].cards_left >= 15
