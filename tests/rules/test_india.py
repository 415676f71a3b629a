"""India: the board's data, its ruleset, and its rules on hand-built positions: ferries with two
locomotive icons, double routes only at 4 players, the setup deal, the Grand Tour bonus (a ticket
joined by two paths of one's own tracks with no track in common) and the tie-breaks it stays out
of; then whole random games at 2-4 players checked against an independent max-flow count."""

import random
from collections import Counter

import networkx as nx
import pytest

from helpers import act, legal_texts, make_state, ticket_id
from rules_common import assert_legal_agrees, play_out, total_cards
from ttr_lab import ConfigError, IllegalActionError, play_game
from ttr_lab.games.ticket_to_ride import Claim, TicketToRide, load_board, new_game
from ttr_lab.games.ticket_to_ride.colours import GRAY
from ttr_lab.strategies.random import Random

BOARD = load_board("india")
L = "locomotive"
TOUR = (0, 5, 10, 20, 30, 40)
# A loop of 14 cities and 27 trains whose cities hold 12 of the map's tickets.
LOOP = ("Katni", "Bilaspur", "Raipur", "Waltain", "Bezwada", "Guntakal", "Mormugau", "Bombay", "Ahmadabad",
        "Jodhpur", "Bhatinda", "Ambala", "Bareilly", "Lucknow")
ON_LOOP = ("Ambala-Mormugau", "Ambala-Waltain", "Bareilly-Ahmadabad", "Bareilly-Guntakal", "Bhatinda-Bezwada",
           "Bhatinda-Bilaspur", "Bombay-Bezwada")


def state(players=2, **kw):
    return make_state(players, board=BOARD, **kw)


def tkt(cities):
    return ticket_id(cities, BOARD)


def track(a, b, which=0):
    return BOARD.tracks_between(a, b)[which].label


def path(*cities):
    """One track (the first) between each pair of consecutive cities."""
    return [track(a, b) for a, b in zip(cities, cities[1:])]


def finished(players=2, claimed=None, tickets_held=None, **kw):
    """A position in the last turn of the final round, played out: a finished game's result."""
    s = state(players, claimed=claimed, tickets_held=tickets_held, final_turns_left=1, **kw)
    play_out(s)
    assert s.is_terminal()
    return s.result()


def check_totals(r):
    for p in r.players:
        assert p.total == p.route_points + p.ticket_points + p.longest_bonus + p.grand_tour_bonus
        assert p.grand_tour_bonus == TOUR[min(p.grand_tour_tickets, 5)]
        assert p.grand_tour_tickets <= p.tickets_completed


# -- the board's data ------------------------------------------------------------------------------------------

def test_board_counts_and_totals():
    tracks, tickets = BOARD.tracks, BOARD.tickets
    assert (len(BOARD.cities), len(tracks), len(tickets)) == (39, 108, 58)
    pairs = Counter(frozenset((t.a, t.b)) for t in tracks)
    assert len(pairs) == 80 and Counter(pairs.values()) == {1: 52, 2: 28}
    doubles = [t for t in tracks if t.twin > t.id]
    assert sum(1 for t in doubles if t.is_gray and tracks[t.twin].is_gray) == 9
    for t in doubles:
        twin = tracks[t.twin]
        assert (twin.length, twin.ferry_locomotives) == (t.length, t.ferry_locomotives)
        assert t.is_gray == twin.is_gray and (t.is_gray or t.colour != twin.colour)
    assert Counter(t.length for t in tracks) == {1: 31, 2: 47, 3: 17, 4: 9, 6: 3, 8: 1}
    assert sum(t.length for t in tracks) == 238
    spaces = Counter()
    for t in tracks:
        spaces[t.colour] += t.length
    assert all(spaces[c] == 20 for c in range(8)) and spaces[GRAY] == 78
    assert sum(1 for t in tracks if t.is_gray) == 30
    ferries = [t for t in tracks if t.ferry_locomotives]
    assert len(ferries) == 8 and sum(t.ferry_locomotives for t in ferries) == 12 and all(t.is_gray for t in ferries)
    assert sorted(t.label for t in ferries if t.ferry_locomotives == 2) == [
        "Bombay-Calicut gray", "Bombay-Karachi gray#1", "Bombay-Karachi gray#2", "Calcutta-Madras gray"]
    assert all(t.mountain_spaces == 0 for t in tracks)
    rules = BOARD.ruleset
    assert sum(rules.score_for_length(t.length) for t in tracks) == 322
    assert sum(rules.score_for_length(t.length) for t in tracks if t.twin < t.id) == 255
    assert sum(t.points for t in tickets) == 473 and min(t.points for t in tickets) == 5
    assert max(t.points for t in tickets) == 17 == tickets[tkt("Peshawar-Madras")].points
    assert len({frozenset((t.a, t.b)) for t in tickets}) == 58
    assert {c for t in tickets for c in (t.a, t.b)} == set(range(39))
    assert nx.is_connected(BOARD.graph)
    neighbours = {c: len(set(BOARD.graph.neighbors(c))) for c in BOARD.cities}
    assert min(neighbours.values()) == 2 and max(neighbours.values()) == 7
    assert sorted(c for c, k in neighbours.items() if k == 2) == ["Jarhat", "Peshawar", "Quilon"]
    assert [c for c, k in neighbours.items() if k == 7] == ["Calcutta"]
    colour_tracks = Counter(t.colour_name for t in tracks if not t.is_gray)
    assert colour_tracks == {c: 9 if c in ("orange", "yellow") else 10 for c in colour_tracks} and len(colour_tracks) == 8
    on_tickets = Counter(BOARD.cities[c] for t in tickets for c in (t.a, t.b))
    assert max(on_tickets.values()) == 5 and sorted(c for c, k in on_tickets.items() if k == 5) == [
        "Bombay", "Calcutta", "Delhi"]


def test_every_ticket_is_worth_its_shortest_path():
    g = nx.Graph()
    for t in BOARD.tracks:
        g.add_edge(t.a, t.b, weight=t.length)
    assert [nx.shortest_path_length(g, t.a, t.b, weight="weight") for t in BOARD.tickets] == \
        [t.points for t in BOARD.tickets]


def test_ruleset_of_the_map():
    r = BOARD.ruleset
    assert [r.score_for_length(n) for n in (1, 2, 3, 4, 6, 8)] == [1, 2, 4, 7, 15, 21]
    assert (r.initial_tickets, r.initial_keep_min, r.initial_rejects) == (4, 2, "bottom")
    assert (r.ticket_draw, r.ticket_keep_min, r.trains_per_player) == (3, 1, 45)
    assert (r.double_routes_min_players, r.longest_path_bonus, r.explorer_bonus) == (4, 10, 0)
    assert r.tie_breaks == ("tickets", "longest")
    assert r.grand_tour_bonus == TOUR and r.grand_tour
    assert (BOARD.min_players, BOARD.max_players) == (2, 4)


def test_no_other_map_plays_the_grand_tour():
    for name in ("usa", "legendary_asia"):
        assert load_board(name).ruleset.grand_tour_bonus == ()
        assert not load_board(name).ruleset.grand_tour


@pytest.mark.parametrize("bad", ["40", [5, -1], [1, "x"], {"1": 5}])
def test_a_malformed_grand_tour_table_is_refused(bad):
    with pytest.raises(ConfigError, match="grand_tour_bonus"):
        BOARD.ruleset.replace(grand_tour_bonus=bad)


@pytest.mark.parametrize("players", [1, 5])
def test_player_counts_outside_two_to_four_refused(players):
    with pytest.raises(ConfigError, match="india map is for 2-4 players, not"):
        new_game(BOARD, players, 1)


# -- setup: 4 dealt, keep at least 2, the rest to the bottom ---------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_four_and_rejects_go_to_the_bottom(players):
    s = new_game(BOARD, players, 3)
    assert [len(s.offers[p]) for p in range(players)] == [4] * players
    assert len(legal_texts(s)) == 11  # every subset of at least 2 of 4
    offer = s.offers[0]
    act(s, "keep 0,1")
    assert s.tickets[0] == tuple(offer[:2])
    assert tuple(s.ticket_deck[-2:]) == tuple(offer[2:]) and not s.boxed
    with pytest.raises(IllegalActionError, match="at least 2"):
        act(s, "keep 0")
    assert total_cards(s) == 110


# -- ferries: one locomotive per icon, two on the long sea crossings ------------------------------------------

def claims_of(s, label):
    return sorted(t for t in legal_texts(s) if t.startswith(f"claim {label} "))


def test_two_icon_ferry_listed_only_with_two_locomotives():
    s = state(hands=[{"red": 6, "blue": 6, L: 2}, {}])
    assert claims_of(s, "Bombay-Karachi gray#1") == [
        "claim Bombay-Karachi gray#1 with 4 blue + 2 loco", "claim Bombay-Karachi gray#1 with 4 red + 2 loco"]
    assert_legal_agrees(s)


def test_two_icon_ferry_paid_with_one_locomotive_refused():
    s = state(hands=[{"red": 8, L: 1}, {}])
    assert claims_of(s, "Bombay-Karachi gray#1") == [] and claims_of(s, "Calcutta-Madras gray") == []
    before = s.snapshot()
    for text in ("claim Bombay-Karachi gray#1 with 5 red + 1 loco", "claim Calcutta-Madras gray with 7 red + 1 loco"):
        with pytest.raises(IllegalActionError):
            act(s, text)
    with pytest.raises(IllegalActionError, match="ferry needs at least 2 locomotive"):
        s.apply(Claim(BOARD.tracks_between("Bombay", "Karachi")[0].id, 0, 5, 1))
    assert s.snapshot() == before
    assert_legal_agrees(s)


def test_eight_space_ferry_claimed_scores_21():
    s = state(hands=[{"green": 6, L: 2}, {}])
    act(s, "claim Calcutta-Madras gray with 6 green + 2 loco")
    snap = s.snapshot()
    assert snap["trains"] == [37, 45] and snap["route_points"] == [21, 0]


def test_one_icon_ferry_still_takes_one():
    s = state(hands=[{"red": 1, L: 1}, {}])
    assert claims_of(s, "Calcutta-Chittagong gray#1") == ["claim Calcutta-Chittagong gray#1 with 1 red + 1 loco"]


# -- double routes: both tracks only with 4 players -------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3])
def test_double_route_closed_below_four_players(players):
    hands = [{"blue": 2}, {"blue": 2}] + [{} for _ in range(players - 2)]
    s = state(players, hands=hands, claimed={"Ambala-Delhi gray#1": 0}, current_player=1)
    assert claims_of(s, "Ambala-Delhi") == []
    with pytest.raises(IllegalActionError, match="only one track of a double route"):
        act(s, "claim Ambala-Delhi gray#2 with 2 blue")
    assert_legal_agrees(s)


def test_double_route_open_to_another_player_at_four():
    hands = [{"blue": 2}, {"blue": 2}, {}, {}]
    s = state(4, hands=hands, claimed={"Ambala-Delhi gray#1": 0}, current_player=1)
    assert claims_of(s, "Ambala-Delhi") == ["claim Ambala-Delhi gray#2 with 2 blue"]
    act(s, "claim Ambala-Delhi gray#2 with 2 blue")
    assert s.snapshot()["route_points"] == [2, 2, 0, 0]
    # never both by the same player
    s = state(4, hands=hands, claimed={"Ambala-Delhi gray#1": 0})
    with pytest.raises(IllegalActionError, match="may not claim both tracks"):
        act(s, "claim Ambala-Delhi gray#2 with 2 blue")


# -- the Grand Tour -----------------------------------------------------------------------------------------------

LAHORE_DELHI = tkt("Lahore-Delhi")


def test_lahore_delhi_joined_two_ways_qualifies():
    tracks = path("Lahore", "Bhatinda", "Delhi") + path("Lahore", "Ambala", "Delhi")
    r = finished(claimed={t: 0 for t in tracks}, tickets_held=[[LAHORE_DELHI], []])
    p = r.players[0]
    assert (p.tickets_completed, p.grand_tour_tickets, p.grand_tour_bonus) == (1, 1, 5)
    assert p.route_points == 2 + 4 + 7 + 2 and p.ticket_points == 5
    assert p.total == 15 + 5 + 10 + 5  # routes, ticket, the Indian Express (a loop of 11), the Grand Tour
    assert (r.players[1].grand_tour_tickets, r.players[1].grand_tour_bonus) == (0, 0)
    check_totals(r)


def test_lahore_delhi_through_one_shared_track_does_not_qualify():
    # every path from Lahore uses Lahore-Bhatinda
    tracks = path("Lahore", "Bhatinda", "Delhi") + path("Bhatinda", "Ambala", "Delhi")
    r = finished(claimed={t: 0 for t in tracks}, tickets_held=[[LAHORE_DELHI], []])
    p = r.players[0]
    assert (p.tickets_completed, p.grand_tour_tickets, p.grand_tour_bonus) == (1, 0, 0)
    check_totals(r)


def test_only_the_players_own_tracks_count():
    mine = path("Lahore", "Bhatinda", "Delhi") + path("Ambala", "Delhi")
    r = finished(claimed={**{t: 0 for t in mine}, track("Lahore", "Ambala"): 1}, tickets_held=[[LAHORE_DELHI], []])
    assert r.players[0].grand_tour_tickets == 0 and r.players[0].tickets_completed == 1


def test_parallel_tracks_count_as_two_paths():
    # Not reachable under the rules (one player never holds both tracks of a double), but the
    # test is on tracks: two parallel tracks are two paths with no track in common.
    both = [track(a, b, i) for a, b in (("Lahore", "Bhatinda"), ("Bhatinda", "Ambala"), ("Ambala", "Delhi"))
            for i in (0, 1)]
    r = finished(4, claimed={t: 0 for t in both}, tickets_held=[[LAHORE_DELHI], [], [], []])
    assert r.players[0].grand_tour_tickets == 1
    r = finished(4, claimed={t: 0 for t in both if t != track("Bhatinda", "Ambala", 1)},
                 tickets_held=[[LAHORE_DELHI], [], [], []])
    assert r.players[0].grand_tour_tickets == 0 and r.players[0].tickets_completed == 1


def loop_tracks():
    return path(*LOOP, LOOP[0])


def test_one_loop_makes_two_tickets_qualify():
    held = [tkt("Jodhpur-Lucknow"), tkt("Katni-Waltain"), tkt("Lahore-Delhi")]
    r = finished(claimed={t: 0 for t in loop_tracks()}, tickets_held=[held, []])
    p = r.players[0]
    assert [t.completed for t in p.tickets] == [True, True, False]
    assert (p.grand_tour_tickets, p.grand_tour_bonus) == (2, 10)
    check_totals(r)


@pytest.mark.parametrize("qualifying,bonus", [(0, 0), (1, 5), (2, 10), (3, 20), (4, 30), (5, 40), (6, 40)])
def test_bonus_table(qualifying, bonus):
    held = [tkt(t) for t in ON_LOOP[:qualifying]] + [tkt("Lahore-Dhubri")]
    r = finished(claimed={t: 0 for t in loop_tracks()}, tickets_held=[held, []])
    p = r.players[0]
    assert (p.grand_tour_tickets, p.grand_tour_bonus) == (qualifying, bonus)
    check_totals(r)


def test_a_ticket_not_completed_never_qualifies():
    # Lahore sits on a loop of its own, Dhubri is far away: the ticket fails and scores no bonus
    tracks = path("Lahore", "Bhatinda", "Delhi") + path("Lahore", "Ambala", "Delhi")
    r = finished(claimed={t: 0 for t in tracks}, tickets_held=[[tkt("Lahore-Dhubri")], []])
    p = r.players[0]
    assert (p.tickets_completed, p.grand_tour_tickets, p.grand_tour_bonus) == (0, 0, 0)
    assert p.ticket_points == -12
    check_totals(r)


def test_the_bonus_is_no_tie_break():
    # Seat 0: the Lahore-Delhi loop and its ticket; seat 1: Patna-Madras along a shortest path.
    # Without the Express, and with a Grand Tour worth exactly the gap between them, their totals
    # tie with one completed ticket each: they share the rank.
    loop = path("Lahore", "Bhatinda", "Delhi") + path("Lahore", "Ambala", "Delhi")
    board = nx.Graph((t.a, t.b, {"weight": t.length}) for t in BOARD.tracks)
    ticket = BOARD.tickets[tkt("Patna-Madras")]
    line = path(*(BOARD.cities[c] for c in nx.shortest_path(board, ticket.a, ticket.b, weight="weight")))
    assert not set(line) & set(loop)
    claimed, held = {**{t: 0 for t in loop}, **{t: 1 for t in line}}, [[LAHORE_DELHI], [ticket.id]]
    rules = BOARD.ruleset.replace(longest_path_bonus=0)
    plain = finished(claimed=claimed, tickets_held=held, ruleset=rules.replace(grand_tour_bonus=()))
    gap = plain.players[1].total - plain.players[0].total
    assert gap > 0 and plain.players[0].grand_tour_tickets is None
    r = finished(claimed=claimed, tickets_held=held, ruleset=rules.replace(grand_tour_bonus=(0, gap)))
    a, b = r.players
    assert a.grand_tour_tickets == 1 and a.grand_tour_bonus == gap and a.total == b.total
    assert a.tickets_completed == b.tickets_completed == 1 and a.longest_bonus == b.longest_bonus == 0
    assert (a.rank, b.rank) == (1, 1)


# -- whole random games -------------------------------------------------------------------------------------------

def two_paths(owned, a, b):
    """Independent of the kernel: a max flow of at least 2 with one unit per track."""
    g = nx.Graph()
    for t in owned:
        u, v = BOARD.tracks[t].a, BOARD.tracks[t].b
        if g.has_edge(u, v):
            g[u][v]["capacity"] += 1
        else:
            g.add_edge(u, v, capacity=1)
    return a in g and b in g and nx.maximum_flow_value(g, a, b) >= 2


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (2, 4), (3, 5), (4, 6)])
def test_random_game_invariants(players, seed):
    rng = random.Random(seed)
    s = new_game(BOARD, players, seed)
    steps = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        if steps % 50 == 0:
            assert_legal_agrees(s)
        s.apply(rng.choice(legal))
        steps += 1
        assert steps < 5000 and total_cards(s) == 110
        for t in BOARD.tracks:
            if t.twin >= 0 and s.owner[t.id] >= 0 and s.owner[t.twin] >= 0:
                assert players == 4 and s.owner[t.id] != s.owner[t.twin]
    r = s.result()
    check_totals(r)
    for p in r.players:
        mine = [t for t, o in enumerate(s.owner) if o == p.player]
        qualifying = [two_paths(mine, BOARD.tickets[t.ticket].a, BOARD.tickets[t.ticket].b) for t in p.tickets]
        assert p.grand_tour_tickets == sum(qualifying)
        assert all(t.completed for t, q in zip(p.tickets, qualifying) if q)
        assert p.trains_left == 45 - sum(BOARD.tracks[t].length for t in mine)


@pytest.mark.parametrize("players,seed", [(2, 7), (3, 8), (4, 9)])
def test_random_game_with_play_game(players, seed):
    record = play_game(TicketToRide("india"), [Random() for _ in range(players)], seed)
    assert record.options == {"map": "india"} and record.num_players == players
    rows = record.result["players"]
    assert min(p["rank"] for p in rows) == 1
    for p in rows:
        assert p["total"] == p["route_points"] + p["ticket_points"] + p["longest_bonus"] + p["grand_tour_bonus"]
        assert p["grand_tour_bonus"] == TOUR[min(p["grand_tour_tickets"], 5)]
    assert "grand_tour_bonus" not in play_game(TicketToRide("usa"), [Random(), Random()], seed).result["players"][0]


def test_the_grand_tour_is_a_rule_any_map_can_take():
    from ttr_lab.games.ticket_to_ride import Ruleset

    rules = BOARD.ruleset
    assert Ruleset.from_mapping(rules.to_dict()) == rules and rules.to_dict()["grand_tour_bonus"] == list(TOUR)
    game = TicketToRide("usa", ruleset={"grand_tour_bonus": [0, 7]})
    assert game.variant == "usa, grand_tour_bonus=[0, 7]"
    record = play_game(game, [Random(), Random()], 3)
    assert all(p["grand_tour_bonus"] == 7 * (p["grand_tour_tickets"] > 0) for p in record.result["players"])
