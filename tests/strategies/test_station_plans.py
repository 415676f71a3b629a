"""Greedy and the planner build a train station when it repairs a blocked ticket worth more than
the station costs, and not otherwise; the searches' nodes open one station move per city where it
repairs something, not every payment on every city (hand-built Europe positions)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from helpers import decide, make_state
from ttr_lab.core.registry import build
from ttr_lab.games.ticket_to_ride import BuildStation, load_board
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.strategies.ticket_to_ride.greedy import Greedy
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, tables_of
from ttr_lab.strategies.ticket_to_ride.search.root_kernels import root_order
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

BOARD = load_board("europe")
TICKET = {t.label.rsplit(" (", 1)[0]: t.id for t in BOARD.tickets}
CITY = {name: i for i, name in enumerate(BOARD.cities)}
# Player 1 holds London's way to the continent (its twin then closed at 2 players): a London
# ticket of player 0 is blocked, repaired by a station on London or Dieppe borrowing that track.
LONDON_CUT = {"Dieppe-London gray#1": 1, "Amsterdam-London gray": 1}
TO_WIEN = {"Dieppe-Paris pink": 0, "Paris-Zurich gray": 0, "Munchen-Zurich yellow": 0, "Munchen-Wien orange": 0}
# Kobenhavn's ways south and east held by player 1; player 0 reaches Essen from Frankfurt.
KOBENHAVN_CUT = {"Essen-Kobenhavn gray#1": 1, "Petrograd-Stockholm gray": 1, "Essen-Frankfurt green": 0}
HAND = {"red": 3, "blue": 2, "green": 2, "yellow": 1, "locomotive": 1}


def position(claimed, ticket, final_turns_left=-1):
    return make_state(2, board=BOARD, hands=[HAND, {"black": 2}], claimed=claimed, final_turns_left=final_turns_left,
                      tickets_held=[[TICKET[ticket]], [TICKET["Athina-Angora"]]])


def players(**knobs):
    greedy_knobs = {} if not knobs else {"stations": bool(knobs["stations"])}
    return [Greedy(**greedy_knobs), TicketPlanner(**knobs)]


@pytest.mark.parametrize("who", [0, 1], ids=["greedy", "ticket_planner"])
def test_a_station_repairing_a_ten_point_ticket_is_built_there(who):
    s = position({**LONDON_CUT, **TO_WIEN}, "London-Wien")
    action = decide(players()[who], s)
    assert type(action) is BuildStation and BOARD.cities[action.city] in ("London", "Dieppe")
    assert action.locomotives == 0  # one card, and not the locomotive
    s.apply(action)
    assert s.stations[action.city] == 0


@pytest.mark.parametrize("who", [0, 1], ids=["greedy", "ticket_planner"])
def test_with_stations_off_the_old_play_builds_none(who):
    s = position({**LONDON_CUT, **TO_WIEN}, "London-Wien")
    assert type(decide(players(stations=0)[who], s)) is not BuildStation


@pytest.mark.parametrize("who", [0, 1], ids=["greedy", "ticket_planner"])
def test_a_blocked_ticket_no_station_can_repair_gets_none(who):
    claimed = {**LONDON_CUT, **TO_WIEN}
    del claimed["Dieppe-Paris pink"]  # the network no longer reaches Dieppe: one borrowed track is not enough
    s = position(claimed, "London-Wien")
    assert type(decide(players()[who], s)) is not BuildStation


@pytest.mark.parametrize("who", [0, 1], ids=["greedy", "ticket_planner"])
def test_a_five_point_repair_is_not_worth_four_points_a_card_and_a_turn(who):
    s = position(KOBENHAVN_CUT, "Frankfurt-Kobenhavn")
    assert type(decide(players()[who], s)) is not BuildStation
    # The same repair is built once the station costs less than the ticket (margin 0: 4 + 1 <= 5).
    assert type(decide(TicketPlanner(station_margin=0.0), s)) is BuildStation


def root_stations(s):
    g, view = s.face.g, s.clone()
    pt, w = tables_of(g)
    na = int(g[L.N_ACTIONS])
    out, score, ids = np.empty(na, np.int64), np.empty(na, np.float64), np.empty(na, np.int64)
    m = root_order(g, pt, view.s, DEFAULT_PARAMS, w, -1, out, score, ids)
    return [int(a) for a in out[:m] if g[L.ID_STATION] <= a < g[L.ID_CLAIM]], m


def test_the_root_opens_one_station_move_per_city_where_it_repairs():
    s = position({**LONDON_CUT, **TO_WIEN}, "London-Wien")
    legal = [a for a in s.legal_actions() if type(a) is BuildStation]
    assert len(legal) > 150
    stations, m = root_stations(s)
    cities = sorted(BOARD.cities[s.face.actions[a].city] for a in stations)
    assert cities == ["Dieppe", "London"]
    assert m < len(s.legal_actions()) - len(legal) + 3
    # Nothing to repair: no station move at all.
    stations, _ = root_stations(position(TO_WIEN, "London-Wien"))
    assert stations == []


def test_a_search_plays_the_repairing_station():
    s = position({**LONDON_CUT, **TO_WIEN}, "London-Wien")
    search = build("mcts", {"iterations": 8}, "ticket_to_ride")
    action = search.act(s.observation(0), s.legal_actions(), random.Random(1))
    assert type(action) is BuildStation


@pytest.mark.parametrize("who", [0, 1], ids=["greedy", "ticket_planner"])
def test_in_the_final_round_an_unfinished_ticket_a_station_joins_now_is_repaired(who):
    # London-Wien could still be finished over open tracks (nothing is cut), but not in one turn.
    claimed = {"Dieppe-London gray#1": 1, **TO_WIEN}
    s = position(claimed, "London-Wien")
    assert type(decide(players()[who], s)) is not BuildStation  # earlier: claim, draw or plan
    action = decide(players()[who], position(claimed, "London-Wien", final_turns_left=1))
    assert type(action) is BuildStation and BOARD.cities[action.city] in ("London", "Dieppe")
