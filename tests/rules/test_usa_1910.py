"""The USA 1910 decks (variants usa_1910, usa_mega, usa_big_cities): their tickets, deal and keep
counts, the Globetrotter bonus and the tie-breaks, on hand-built positions."""

from collections import Counter

import pytest

from helpers import act, legal_texts, make_state, ticket_id
from rules_common import assert_legal_agrees, play_out
from ttr_lab import IllegalActionError, GameRecord, play_game
from ttr_lab.strategies.random import Random
from ttr_lab.games.ticket_to_ride import KeepTickets, Phase, TicketToRide, available_maps, load_board, new_game

USA = load_board("usa")
V1910, MEGA, BIG = load_board("usa_1910"), load_board("usa_mega"), load_board("usa_big_cities")
VARIANTS = (V1910, MEGA, BIG)
BIG_CITIES = {"Chicago", "Dallas", "Houston", "Los Angeles", "Miami", "New York", "Seattle"}


def pair(board, ticket):
    return frozenset((board.cities[ticket.a], board.cities[ticket.b]))


def deck(board):
    return {pair(board, t): t.points for t in board.tickets}


# -- the decks ---------------------------------------------------------------------------------------------

def test_variants_are_listed_and_named():
    assert {"usa_1910", "usa_mega", "usa_big_cities"} <= set(available_maps())
    for board in VARIANTS:
        assert load_board(board.name) is board
        assert board.reference == board.name and board.source is None
        assert TicketToRide(board.name).options == {"map": board.name}
    assert len({b.fingerprint for b in (USA, *VARIANTS)}) == 4


def test_variants_share_the_usa_board():
    for board in VARIANTS:
        assert board.cities == USA.cities and board.tracks == USA.tracks
        assert dict(board.positions) == dict(USA.positions)
        assert board.ruleset.route_scores == USA.ruleset.route_scores
        assert board.ruleset.trains_per_player == 45


def test_counts_and_point_totals():
    assert (len(V1910.tickets), sum(t.points for t in V1910.tickets)) == (35, 391)
    assert (len(MEGA.tickets), sum(t.points for t in MEGA.tickets)) == (69, 754)
    assert len(BIG.tickets) == 35
    assert all(t.deck == "regular" for b in VARIANTS for t in b.tickets)
    for board in VARIANTS:  # no city pair twice
        assert len(deck(board)) == len(board.tickets)


def test_mega_is_the_1910_deck_and_the_reprint():
    mega, new = deck(MEGA), deck(V1910)
    assert new.items() <= mega.items()
    reprint = {k: v for k, v in mega.items() if k not in new}
    assert len(reprint) == 34
    base = deck(USA)
    changed = {k: (base[k], v) for k, v in reprint.items() if k in base and base[k] != v}
    assert changed == {
        frozenset(("Los Angeles", "Miami")): (20, 19), frozenset(("Los Angeles", "New York")): (21, 20),
        frozenset(("Oklahoma City", "Sault St. Marie")): (9, 8), frozenset(("New York", "Seattle")): (22, 20),
    }
    assert {k: v for k, v in reprint.items() if k not in base} == {
        frozenset(("Boston", "Washington")): 4, frozenset(("Chicago", "Montreal")): 7,
        frozenset(("Omaha", "Winnipeg")): 6, frozenset(("Portland", "Vancouver")): 2,
    }
    assert set(base) <= set(reprint)


def test_big_cities_are_the_tickets_naming_a_big_city():
    assert set(deck(BIG)) == {k for k in deck(MEGA) if k & BIG_CITIES}
    assert deck(BIG).items() <= deck(MEGA).items()


# -- the ruleset of each variant -----------------------------------------------------------------------------

@pytest.mark.parametrize("board,deal,keep,draw,longest,trotter,ties", [
    (V1910, 3, 2, 3, 0, 15, ["tickets", "globetrotter"]),
    (MEGA, 5, 3, 4, 10, 15, ["tickets", "longest", "globetrotter"]),
    (BIG, 4, 2, 4, 10, 0, ["tickets", "longest"]),
])
def test_ruleset(board, deal, keep, draw, longest, trotter, ties):
    r = board.ruleset
    assert (r.initial_tickets, r.initial_keep_min, r.ticket_draw, r.ticket_keep_min) == (deal, keep, draw, 1)
    assert (r.longest_path_bonus, r.globetrotter_bonus, r.explorer_bonus) == (longest, trotter, 0)
    assert [t.value for t in r.tie_breaks] == ties
    assert r.initial_rejects == "bottom" and r.initial_long_tickets == 0
    assert USA.ruleset.globetrotter_bonus == 0


# -- deal and keep -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("board", VARIANTS, ids=lambda b: b.name)
@pytest.mark.parametrize("players", [2, 5])
def test_deal(board, players):
    s = new_game(board, players, 7)
    snap = s.snapshot()
    deal = board.ruleset.initial_tickets
    assert [len(o) for o in snap["offered_tickets"]] == [deal] * players
    offered = [t for o in snap["offered_tickets"] for t in o]
    assert sorted(offered + snap["ticket_deck"]) == list(range(len(board.tickets)))


def test_mega_setup_keeps_three_of_five_rest_to_the_bottom():
    s = new_game(MEGA, 2, 3)
    keeps = legal_texts(s)
    assert len(keeps) == 10 + 5 + 1  # subsets of 3, 4 and 5 of the five dealt
    assert "keep 0,1,2" in keeps and "keep 0,1,2,3,4" in keeps
    assert_legal_agrees(s)
    offer, before = s.offers[0], s.ticket_deck
    act(s, "keep 0,2,4")
    assert s.tickets[0] == (offer[0], offer[2], offer[4])
    assert s.ticket_deck == before + (offer[1], offer[3])


@pytest.mark.parametrize("text", ["keep 0,1", "keep 3", "keep 2,4"])
def test_mega_setup_keep_two_of_five_refused(text):
    s = new_game(MEGA, 2, 3)
    assert text not in legal_texts(s)
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="at least 3"):
        act(s, text)
    assert s.snapshot() == before and s.phase_name is Phase.INITIAL_TICKETS


@pytest.mark.parametrize("board,allowed,refused", [
    (V1910, "keep 0,2", "keep 1"), (BIG, "keep 1,3", "keep 3"),
])
def test_setup_keep_two(board, allowed, refused):
    s = new_game(board, 3, 5)
    assert allowed in legal_texts(s) and refused not in legal_texts(s)
    with pytest.raises(IllegalActionError, match="at least 2"):
        act(s, refused)
    act(s, allowed)
    assert len(s.tickets[0]) == 2


@pytest.mark.parametrize("board,drawn", [(V1910, 3), (MEGA, 4), (BIG, 4)], ids=lambda x: getattr(x, "name", x))
def test_ticket_draw_offers_the_variants_count_keep_one(board, drawn):
    s = make_state(board=board)
    n = len(board.tickets)
    act(s, "tickets")
    assert s.offers[0] == tuple(range(drawn))
    assert len(legal_texts(s)) == 2 ** drawn - 1
    with pytest.raises(IllegalActionError, match="at least 1"):
        s.apply(KeepTickets(()))
    act(s, "keep 1")
    assert s.tickets[0] == (1,)
    assert s.ticket_deck == tuple(range(drawn, n)) + tuple(i for i in range(drawn) if i != 1)


def test_ticket_draw_with_fewer_left_than_four_offers_what_is_left():
    s = make_state(board=MEGA, tickets_held=[list(range(67)), []])
    act(s, "tickets")
    assert s.offers[0] == (67, 68) and s.ticket_deck == ()


# -- the Globetrotter ----------------------------------------------------------------------------------------

def finished(board, players=2, claimed=None, tickets_held=None):
    s = make_state(players, board=board, claimed=claimed, tickets_held=tickets_held, final_turns_left=1)
    play_out(s)
    assert s.is_terminal()
    return s.result()


def t(board, cities):
    return ticket_id(cities, board)


def totals_add_up(r):
    for p in r.players:
        assert p.total == p.route_points + p.ticket_points + p.longest_bonus + (p.globetrotter_bonus or 0)


# Chicago-Atlanta (5): Chicago-Saint Louis, Nashville-Saint Louis, Atlanta-Nashville
# Chicago-New York (5): Chicago-Pittsburgh, New York-Pittsburgh
CHI_ATL = {"Chicago-Saint Louis green": 0, "Nashville-Saint Louis gray": 0, "Atlanta-Nashville gray": 0}


def test_globetrotter_to_the_single_player_with_most_tickets():
    r = finished(V1910, claimed={**CHI_ATL, "Chicago-Pittsburgh orange": 0, "New York-Pittsburgh green": 0,
                                 "Dallas-Houston gray#1": 1},
                 tickets_held=[[t(V1910, "Chicago-Atlanta"), t(V1910, "Chicago-New York")],
                               [t(V1910, "Houston-Washington")]])
    a, b = r.players
    assert (a.tickets_completed, b.tickets_completed) == (2, 0)
    assert (a.globetrotter_bonus, b.globetrotter_bonus) == (15, 0)
    assert a.longest_bonus == b.longest_bonus == 0  # no longest-path bonus in the 1910 deck
    totals_add_up(r)


def test_globetrotter_counts_tickets_not_points():
    # player 0: one ticket of 10 points (New York-Miami); player 1: two of 9 points in all
    # (Chicago-New York 5, Washington-Atlanta 4); 4 players, so both tracks of a double are open
    r = finished(V1910, 4, claimed={
        "New York-Washington black": 0, "Raleigh-Washington gray#2": 0, "Charleston-Raleigh gray": 0,
        "Charleston-Miami pink": 0,
        "Chicago-Pittsburgh orange": 1, "New York-Pittsburgh green": 1, "Atlanta-Raleigh gray#1": 1,
        "Raleigh-Washington gray#1": 1},
        tickets_held=[[t(V1910, "New York-Miami")], [t(V1910, "Chicago-New York"), t(V1910, "Washington-Atlanta")],
                      [], []])
    assert [p.tickets_completed for p in r.players] == [1, 2, 0, 0]
    assert [p.ticket_points for p in r.players] == [10, 9, 0, 0]
    assert [p.globetrotter_bonus for p in r.players] == [0, 15, 0, 0]
    totals_add_up(r)


def test_globetrotter_to_every_tied_player():
    r = finished(MEGA, 3, claimed={**CHI_ATL, "Chicago-Pittsburgh orange": 1, "New York-Pittsburgh green": 1},
                 tickets_held=[[t(MEGA, "Chicago-Atlanta")], [t(MEGA, "Chicago-New York")], []])
    assert [p.tickets_completed for p in r.players] == [1, 1, 0]
    assert [p.globetrotter_bonus for p in r.players] == [15, 15, 0]
    totals_add_up(r)


def test_nobody_with_a_completed_ticket_nobody_gets_the_globetrotter():
    r = finished(MEGA, claimed={"Chicago-Saint Louis green": 0},
                 tickets_held=[[t(MEGA, "Chicago-Atlanta")], []])
    assert [p.tickets_completed for p in r.players] == [0, 0]
    assert [p.globetrotter_bonus for p in r.players] == [0, 0]
    totals_add_up(r)


def test_no_globetrotter_in_big_cities_nor_usa():
    for board, ticket in ((BIG, "Chicago-Atlanta"), (USA, "New York-Atlanta")):
        r = finished(board, claimed=CHI_ATL, tickets_held=[[t(board, ticket)], []])
        assert all(p.globetrotter_bonus is None for p in r.players)
        assert all("globetrotter_bonus" not in p for p in r.to_dict()["players"])


# -- the tie-breaks ------------------------------------------------------------------------------------------

# player 0: Chicago-Atlanta done, 5 route points + 5 + the Globetrotter's 15 = 25;
# player 1: no ticket, 15 + 10 route points = 25
TIED_1910 = {**CHI_ATL, "Helena-Seattle yellow": 1, "Denver-Phoenix white": 1}


def test_1910_tie_on_points_broken_by_completed_tickets():
    r = finished(V1910, claimed=TIED_1910, tickets_held=[[t(V1910, "Chicago-Atlanta")], []])
    a, b = r.players
    assert (a.total, b.total) == (25, 25)
    assert (a.tickets_completed, b.tickets_completed) == (1, 0)
    assert (a.rank, b.rank) == (1, 2) and r.winners == (0,)
    totals_add_up(r)


def test_mega_tie_on_points_and_tickets_broken_by_the_longest_path():
    # Both complete one ticket of 5 (both Globetrotters); player 0 has 18 route points in pieces
    # of 5 trains at most, player 1 8 route points on a trail of 7 and the longest-path bonus.
    p0 = {**CHI_ATL, "Denver-Kansas City black": 0, "Duluth-Omaha gray#1": 0, "El Paso-Phoenix gray": 0}
    p1 = {"Chicago-Pittsburgh orange": 1, "New York-Pittsburgh green": 1, "Boston-New York red": 1}
    r = finished(MEGA, claimed={**p0, **p1},
                 tickets_held=[[t(MEGA, "Chicago-Atlanta")], [t(MEGA, "Chicago-New York")]])
    a, b = r.players
    assert a.tickets_completed == b.tickets_completed == 1
    assert a.globetrotter_bonus == b.globetrotter_bonus == 15
    assert (a.longest_trail, b.longest_trail) == (5, 7) and (a.longest_bonus, b.longest_bonus) == (0, 10)
    assert a.total == b.total == 38
    assert (a.rank, b.rank) == (2, 1)
    totals_add_up(r)


@pytest.mark.parametrize("ties,ranks", [(["globetrotter"], [1, 2]), ([], [1, 1])])
def test_globetrotter_tie_break_orders_players_tied_on_points(ties, ranks):
    rules = V1910.ruleset.replace(tie_breaks=ties)
    s = make_state(board=V1910, ruleset=rules, final_turns_left=1, claimed=TIED_1910,
                   tickets_held=[[t(V1910, "Chicago-Atlanta")], []])
    play_out(s)
    a, b = s.result().players
    assert a.total == b.total and (a.globetrotter_bonus, b.globetrotter_bonus) == (15, 0)
    assert [a.rank, b.rank] == ranks


# -- whole games ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("board", VARIANTS, ids=lambda b: b.name)
def test_random_games_replay_and_score(board):
    game = TicketToRide(board.name)
    for n, seed in ((2, 1), (4, 2)):
        record = play_game(game, [Random() for _ in range(n)], seed)
        assert record.options == {"map": board.name}
        again = GameRecord.from_json(record.to_json())
        assert again.replay().result().to_dict() == record.result
        rows = record.result["players"]
        most = max(p["tickets_completed"] for p in rows)
        bonus = board.ruleset.globetrotter_bonus
        for p in rows:
            assert p.get("globetrotter_bonus") == ((bonus if most and p["tickets_completed"] == most else 0)
                                                   if bonus else None)
        kept = Counter(len(p["tickets"]) >= board.ruleset.initial_keep_min for p in rows)
        assert kept == {True: n}


# -- a variant table's mistakes --------------------------------------------------------------------------------

ROWS = [{"city_a": "Boston", "city_b": "Miami", "points": "12", "edition": "1910"},
        {"city_a": "Denver", "city_b": "El Paso", "points": "4", "edition": "reprint"}]


@pytest.mark.parametrize("where,kept", [(None, 2), ({"edition": "1910"}, 1), ({"edition": ["1910", "reprint"]}, 2)])
def test_tickets_where_keeps_the_rows_with_the_values_and_their_line_numbers(where, kept):
    from ttr_lab.games.ticket_to_ride.map_variants import select_tickets

    rows = select_tickets(ROWS, where, "t.csv", "m")
    assert len(rows) == kept and rows[0] == (2, ROWS[0])


@pytest.mark.parametrize("where,message", [
    ({"deck": "1910"}, "t.csv has no column 'deck'"), ({"edition": "1911"}, "no row of t.csv matches"),
    ("1910", "tickets_where must be a table"),
])
def test_a_bad_tickets_where_is_one_line(where, message):
    from ttr_lab import BoardDataError
    from ttr_lab.games.ticket_to_ride.map_variants import select_tickets

    with pytest.raises(BoardDataError, match=message) as exc:
        select_tickets(ROWS, where, "t.csv", "m")
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("meta,message", [
    ({"variants": {"x": {"tickets": "t.csv", "colour": 1}}}, "variants.x has unknown key"),
    ({"variants": {"x": 3}}, "variants.x must be a table"), ({"variants": 3}, "variants must be a table"),
])
def test_a_bad_variant_table_is_one_line(meta, message):
    from ttr_lab import BoardDataError
    from ttr_lab.games.ticket_to_ride.map_variants import variant_tables

    with pytest.raises(BoardDataError, match=message) as exc:
        variant_tables(meta, "m")
    assert "\n" not in str(exc.value)
