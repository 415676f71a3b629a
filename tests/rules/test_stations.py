"""Train stations (a ruleset feature, played here on the USA map): building one (cost, payment,
one per city, how many), and the final scoring (the borrowed tracks, the points of the stations
kept, the "stations" tie-break)."""

import pytest

from helpers import act, legal_texts, make_state
from rules_common import discard, hand
from ttr_lab import IllegalActionError
from ttr_lab.core.errors import ConfigError
from ttr_lab.games.ticket_to_ride import BuildStation, Phase, Ruleset, load_board, parse_action
from ttr_lab.games.ticket_to_ride.actions import all_actions
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.game_array import game_array
from ttr_lab.games.ticket_to_ride.tables import tables_for

BOARD = load_board("usa")
RULES = BOARD.ruleset.replace(stations_per_player=3)
LOCO = "locomotive"
CITY = {name: i for i, name in enumerate(BOARD.cities)}
TRACK = {t.label: t.id for t in BOARD.tracks}
TICKET = {t.label.rsplit(" (", 1)[0]: t.id for t in BOARD.tickets}


def position(players=2, stations=None, **kw):
    """A hand-built position with stations on; ``stations``: {city name: seat}."""
    s = make_state(players, ruleset=kw.pop("ruleset", RULES), **kw)
    placed = [-1] * len(BOARD.cities)
    for name, seat in (stations or {}).items():
        placed[CITY[name]] = seat
    s.stations = placed
    s.stations_built = [placed.count(p) for p in range(players)]
    return s


def assert_stations_agree(state):
    """Every station build of the game applies (on a clone) exactly when legal_actions() lists
    it, and every listed action applies, once."""
    ids = state.legal_action_ids()
    assert len(ids) == len(set(ids)) and min(ids) >= 0
    legal = state.legal_actions()
    for a in legal:
        state.clone().apply(a)
    listed = set(legal)
    for a in all_actions(BOARD, state.ruleset):
        if type(a) is not BuildStation:
            continue
        try:
            state.clone().apply(a)
        except IllegalActionError:
            assert a not in listed, a
        else:
            assert a in listed, a


def stations_of(state, city):
    return [t for t in legal_texts(state) if t.startswith(f"station {city} with")]


def scored(state):
    state.phase = int(Phase.OVER)
    return state.result()


# -- the rules' numbers -----------------------------------------------------------------------------

def test_ruleset_defaults_have_no_stations_and_usa_no_station_actions():
    assert BOARD.ruleset.stations_per_player == 0
    assert not any(type(a) is BuildStation for a in all_actions(BOARD, BOARD.ruleset))
    g = game_array(tables_for(BOARD, 2, BOARD.ruleset))
    assert g[L.ID_STATION] == g[L.ID_CLAIM] and g[L.STATION_CITIES] == 0


@pytest.mark.parametrize("changes,message", [
    ({"stations_per_player": 4}, "fewer than the 4 stations_per_player"),
    ({"station_costs": (1, 0, 3)}, "1..10 each"),
    ({"station_costs": "123"}, "list of cards per station"),
    ({"station_points": -1}, "station_points must be a non-negative integer"),
    ({"tie_breaks": ("stations", "stations")}, "names a tie-break twice"),
])
def test_ruleset_refuses_bad_station_numbers(changes, message):
    with pytest.raises(ConfigError, match=message):
        RULES.replace(**changes)


def test_station_ids_lie_between_keeps_and_claims():
    actions = all_actions(BOARD, RULES)
    g = game_array(tables_for(BOARD, 2, RULES))
    kinds = [type(a).__name__ for a in actions]
    assert kinds[g[L.ID_STATION] - 1] == "KeepTickets" and kinds[g[L.ID_CLAIM]] == "Claim"
    assert set(kinds[g[L.ID_STATION]:g[L.ID_CLAIM]]) == {"BuildStation"}
    # the USA ids of every other action are those of the game without stations
    usa = all_actions(BOARD, BOARD.ruleset)
    assert actions[:g[L.ID_STATION]] == usa[:g[L.ID_STATION]]
    assert actions[g[L.ID_CLAIM]:] == usa[g[L.ID_STATION]:]
    # per city 9 + 17 + 25 payments (costs 1, 2, 3)
    assert g[L.ID_CLAIM] - g[L.ID_STATION] == len(BOARD.cities) * 51


def test_station_text_reads_back():
    for text in ("station Denver with 2 red + 1 loco", "station Santa Fe with 3 loco", "station Omaha with 1 blue"):
        a = parse_action(text, BOARD)
        assert type(a) is BuildStation and str(a) == text
    assert parse_action("station #6 with 1 loco", BOARD) == parse_action("station Denver with 1 loco", BOARD)
    with pytest.raises(IllegalActionError, match="one colour"):
        parse_action("station Denver with 1 red + 1 blue", BOARD)
    with pytest.raises(IllegalActionError, match="no city named"):
        parse_action("station Atlantis with 1 red", BOARD)


# -- building ----------------------------------------------------------------------------------------

def test_first_station_costs_one_card_any_colour_or_a_locomotive():
    s = position(hands=[{"red": 1, "blue": 2, LOCO: 1}, {}])
    assert stations_of(s, "Denver") == [
        "station Denver with 1 red", "station Denver with 1 blue", "station Denver with 1 loco"]
    act(s, "station Denver with 1 blue")
    assert s.stations[CITY["Denver"]] == 0 and s.stations_built == [1, 0]
    assert hand(s, 0) == {"red": 1, "blue": 1, LOCO: 1} and discard(s)["blue"] == 1
    assert s.trains == [45, 45] and s.current_player == 1  # no trains; the turn is over


def test_second_station_costs_two_one_colour_with_locomotives():
    s = position(hands=[{"red": 1, "blue": 2, LOCO: 1}, {}], stations={"Omaha": 0})
    assert stations_of(s, "Denver") == [
        "station Denver with 1 red + 1 loco", "station Denver with 2 blue", "station Denver with 1 blue + 1 loco"]
    assert_stations_agree(s)
    with pytest.raises(IllegalActionError, match="costs 2 card"):
        act(s, "station Denver with 1 blue")
    act(s, "station Denver with 1 red + 1 loco")
    assert s.stations_built == [2, 0] and hand(s, 0) == {"blue": 2}


def test_third_station_costs_three_mixed_colours_refused_locomotives_only_fine():
    s = position(hands=[{"red": 2, "blue": 1, LOCO: 3}, {}], stations={"Omaha": 0, "Dallas": 0})
    texts = stations_of(s, "Denver")
    assert "station Denver with 3 loco" in texts and "station Denver with 2 red + 1 loco" in texts
    # two red and one blue is no payment: the parser refuses the mix, the list never offers it
    with pytest.raises(IllegalActionError, match="one colour"):
        parse_action("station Denver with 2 red + 1 blue", BOARD)
    s2 = position(hands=[{"red": 2, "blue": 1}, {}], stations={"Omaha": 0, "Dallas": 0})
    assert stations_of(s2, "Denver") == []
    act(s, "station Denver with 3 loco")
    assert s.stations_built == [3, 0] and hand(s, 0) == {"red": 2, "blue": 1}


def test_a_fourth_station_is_refused():
    s = position(hands=[{"red": 4, LOCO: 4}, {}], stations={"Omaha": 0, "Dallas": 0, "Miami": 0})
    assert not any(t.startswith("station ") for t in legal_texts(s))
    assert_stations_agree(s)
    with pytest.raises(IllegalActionError, match="built all 3"):
        act(s, "station Denver with 1 red")


def test_a_second_station_on_a_city_is_refused():
    s = position(hands=[{"red": 4}, {}], stations={"Denver": 1})
    assert stations_of(s, "Denver") == [] and stations_of(s, "Omaha") == ["station Omaha with 1 red"]
    assert_stations_agree(s)
    with pytest.raises(IllegalActionError, match="already holds a station"):
        act(s, "station Denver with 1 red")


def test_a_station_on_a_city_with_no_track_yet():
    s = position(hands=[{"red": 1}, {}])
    assert not any(o >= 0 for o in s.owner)
    act(s, "station Santa Fe with 1 red")
    assert s.stations[CITY["Santa Fe"]] == 0


def test_a_station_without_the_cards_is_refused_and_state_unchanged():
    s = position(hands=[{"red": 1}, {}], stations={"Omaha": 0})
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="has 1 red, not 2"):
        act(s, "station Denver with 2 red")
    assert s.snapshot() == before


def test_no_station_in_a_game_without_stations():
    s = make_state(hands=[{"red": 1}, {}])
    assert not any(t.startswith("station ") for t in legal_texts(s))
    with pytest.raises(IllegalActionError, match="no train stations"):
        act(s, "station Denver with 1 red")


def test_stations_are_listed_after_ticket_draws_and_before_claims():
    s = position(hands=[{"red": 2}, {}])
    kinds = [type(a).__name__ for a in s.legal_actions()]
    first, last = kinds.index("BuildStation"), len(kinds) - 1 - kinds[::-1].index("BuildStation")
    assert kinds[first - 1] == "DrawTickets" and kinds[last + 1] == "Claim"
    assert set(kinds[first:last + 1]) == {"BuildStation"}


def test_pass_only_when_no_station_either():
    # Nothing to draw, no ticket, no claim affordable: a station is still legal, so no pass.
    spare = {"red": 11, "orange": 12, "yellow": 12, "green": 12, "blue": 12, "black": 12, "white": 12, "pink": 12,
             LOCO: 14}
    s = position(hands=[{"red": 1}, spare], market=(), pile_rest=False, trains=[0, 45],
                 tickets_held=[[], []])
    s.ticket_deck = ()
    assert legal_texts(s) == [f"station {c} with 1 red" for c in BOARD.cities]
    with pytest.raises(IllegalActionError, match="pass only when"):
        act(s, "pass")


# -- final scoring -----------------------------------------------------------------------------------

def test_ticket_completed_only_through_a_station():
    claimed = {"Denver-Santa Fe gray": 0, "El Paso-Santa Fe gray": 1}
    held = [[TICKET["Denver-El Paso"]], []]
    without = scored(position(claimed=claimed, tickets_held=held))
    assert without.players[0].ticket_points == -4
    r = scored(position(claimed=claimed, tickets_held=held, stations={"Santa Fe": 0}))
    p = r.players[0]
    assert p.ticket_points == 4 and p.tickets_completed == 1 and p.tickets[0].completed
    assert p.station_tracks == ((CITY["Santa Fe"], TRACK["El Paso-Santa Fe gray"]),)
    assert p.longest_trail == 2  # a borrowed track never counts for the longest path
    assert p.stations_built == 1 and p.station_points == 8
    assert p.longest_bonus == 10  # both trails are 2: a shared bonus
    assert p.total == 2 + 4 + 10 + 8


def test_a_station_borrows_the_track_worth_the_most_points():
    # Player 0's network meets at Oklahoma City; a station there may join Denver (Denver-El
    # Paso, 4) or Kansas City (Kansas City-Houston, 5), not both: the 5 is worth more.
    claimed = {"El Paso-Oklahoma City yellow": 0, "Dallas-Oklahoma City gray#1": 0, "Dallas-Houston gray#1": 0,
               "Denver-Oklahoma City red": 1, "Kansas City-Oklahoma City gray#1": 1}
    held = [[TICKET["Denver-El Paso"], TICKET["Kansas City-Houston"]], []]
    p = scored(position(claimed=claimed, tickets_held=held, stations={"Oklahoma City": 0})).players[0]
    assert p.station_tracks == ((CITY["Oklahoma City"], TRACK["Kansas City-Oklahoma City gray#1"]),)
    assert p.ticket_points == 5 - 4 and [t.completed for t in p.tickets] == [False, True]
    # With two stations both tickets complete (one at Denver lends the Denver track).
    p = scored(position(claimed=claimed, tickets_held=held, stations={"Oklahoma City": 0, "Denver": 0})).players[0]
    assert p.ticket_points == 9 and p.tickets_completed == 2
    assert dict(p.station_tracks) == {CITY["Denver"]: TRACK["Denver-Oklahoma City red"],
                                      CITY["Oklahoma City"]: TRACK["Kansas City-Oklahoma City gray#1"]}


def test_a_station_that_helps_no_ticket_borrows_nothing():
    claimed = {"Denver-Santa Fe gray": 0, "Phoenix-Santa Fe gray": 1}
    held = [[TICKET["Denver-El Paso"]], []]
    p = scored(position(claimed=claimed, tickets_held=held, stations={"Santa Fe": 0})).players[0]
    assert p.station_tracks == ((CITY["Santa Fe"], -1),) and p.ticket_points == -4


def test_a_station_borrows_only_other_players_tracks():
    # Player 1's station at Santa Fe would join its ticket through player 1's own... no: through
    # player 0's tracks only; a track nobody holds lends nothing.
    claimed = {"Denver-Santa Fe gray": 0}
    held = [[], [TICKET["Denver-El Paso"]]]
    p = scored(position(claimed=claimed, tickets_held=held, stations={"Santa Fe": 1})).players[1]
    assert p.station_tracks == ((CITY["Santa Fe"], -1),) and p.ticket_points == -4


def test_four_points_per_station_not_built():
    r = scored(position(players=3, stations={"Denver": 1, "Omaha": 2, "Miami": 2}))
    assert [p.station_points for p in r.players] == [12, 8, 4]
    assert [p.stations_built for p in r.players] == [0, 1, 2]
    assert [p.total for p in r.players] == [12, 8, 4]
    rules = RULES.replace(station_points=5)
    r = scored(position(players=3, stations={"Denver": 1}, ruleset=rules))
    assert [p.station_points for p in r.players] == [15, 10, 15]


def test_result_columns_only_with_stations_and_they_read_back():
    from ttr_lab.games.ticket_to_ride.result import GameResult

    plain = scored(make_state(2)).to_dict()["players"][0]
    assert not {"stations_built", "station_points", "station_tracks"} & set(plain)
    r = scored(position(claimed={"Denver-Santa Fe gray": 0, "El Paso-Santa Fe gray": 1},
                        tickets_held=[[TICKET["Denver-El Paso"]], []], stations={"Santa Fe": 0}))
    data = r.to_dict()
    assert data["players"][0]["station_tracks"] == [[CITY["Santa Fe"], TRACK["El Paso-Santa Fe gray"]]]
    assert GameResult.from_dict(data) == r.__class__(
        players=tuple(p.__class__(**{**p.__dict__, "trains_placed": None, "ticket_draws": None, "tickets_drawn": None})
                      for p in r.players), stalled=r.stalled, turns=r.turns)


# -- the tie-breaks (route points 0, so the totals are set by bonuses and stations) ---------------------

ZERO = (0, 0, 0, 0, 0, 0, 0)


def tie_rules(order, bonus=4, scores=ZERO):
    return RULES.replace(route_scores=scores, longest_path_bonus=bonus, tie_breaks=order)


def test_tie_break_tickets_before_stations():
    # Player 0 completes a ticket (4) but built a station (8 kept); player 1: no ticket, 12 kept.
    kw = dict(claimed={"Denver-Santa Fe gray": 0, "El Paso-Santa Fe gray": 0},
              tickets_held=[[TICKET["Denver-El Paso"]], []], stations={"Omaha": 0})
    r = scored(position(ruleset=tie_rules(("tickets", "stations", "longest"), bonus=0), **kw))
    assert [p.total for p in r.players] == [12, 12] and [p.rank for p in r.players] == [1, 2]
    r = scored(position(ruleset=tie_rules(("stations", "tickets"), bonus=0), **kw))
    assert [p.rank for p in r.players] == [2, 1]


def test_tie_break_fewest_stations_before_longest():
    # Player 0 holds the longest bonus (4) with one station built (8 kept); player 1: 12 kept.
    kw = dict(claimed={"Denver-Santa Fe gray": 0}, stations={"Omaha": 0})
    r = scored(position(ruleset=tie_rules(("tickets", "stations", "longest")), **kw))
    assert [p.total for p in r.players] == [12, 12] and [p.rank for p in r.players] == [2, 1]
    r = scored(position(ruleset=tie_rules(("tickets", "longest", "stations")), **kw))
    assert [p.rank for p in r.players] == [1, 2]


def test_tie_break_longest_after_equal_stations():
    # One station each; player 0's trail (2, scoring 0) holds the bonus, player 1's track of 1
    # scores 4: equal totals, equal tickets and stations, so the bonus decides.
    kw = dict(claimed={"Denver-Santa Fe gray": 0, "Kansas City-Omaha gray#1": 1}, stations={"Omaha": 0, "Miami": 1})
    r = scored(position(ruleset=tie_rules(("tickets", "stations", "longest"), scores=(0, 4, 0, 0, 0, 0, 0)), **kw))
    assert [p.total for p in r.players] == [12, 12] and [p.rank for p in r.players] == [1, 2]
    r = scored(position(ruleset=tie_rules(("tickets", "stations"), scores=(0, 4, 0, 0, 0, 0, 0)), **kw))
    assert [p.rank for p in r.players] == [1, 1]


# -- snapshots -------------------------------------------------------------------------------------------

def test_snapshot_restores_the_stations():
    from ttr_lab.games.ticket_to_ride.restore import restore_state

    s = position(hands=[{"red": 2}, {}], stations={"Denver": 1, "Omaha": 0})
    snap = s.snapshot()
    assert snap["stations"] == {"Denver": 1, "Omaha": 0} and snap["stations_built"] == [1, 1]
    back = restore_state(BOARD, snap, RULES)
    assert back.stations == s.stations and back.stations_built == [1, 1]
    snap["stations_built"] = [2, 1]
    with pytest.raises(ValueError, match="differ from the stations it places"):
        restore_state(BOARD, snap, RULES)
    assert "stations" not in make_state(2).snapshot()
