"""Train stations in the terminal (``ttr-lab play`` on ``--map europe``): a city's station
payments share one line of the action list, as a track's claims do, and the end-of-game summary
counts each seat's stations built beside the points for those kept, and names each station's city
and the track it borrowed (never city or track ids)."""

from __future__ import annotations

import copy
import io
import random
import re
from pathlib import Path

from ttr_lab.core.game import load_game
from ttr_lab.core.record import GameRecord
from ttr_lab.games.ticket_to_ride.actions import BuildStation, KeepTickets
from ttr_lab.human.terminal import Terminal, TerminalSeat

EUROPE = load_game("ticket_to_ride", map="europe")
RECORD = GameRecord.load(Path(__file__).parents[1] / "golden" / "europe-3p-seed31.json")


def test_a_citys_station_payments_share_one_line():
    state = EUROPE.new_game(2, 4)
    while keeps := [a for a in state.legal_actions() if isinstance(a, KeepTickets)]:
        state.apply(max(keeps, key=lambda a: len(a.indices)))
    legal = state.legal_actions()
    out = io.StringIO()
    seat = TerminalSeat(EUROPE, state.current_player, Terminal(io.StringIO("0\n"), out, ["you", "greedy"]))
    seat.act(state.observation(state.current_player), legal, random.Random(0))
    lines = [line for line in out.getvalue().splitlines() if re.match(r" +\d+ +station ", line)]
    builds = [(i, a) for i, a in enumerate(legal) if isinstance(a, BuildStation)]
    cities = sorted({a.city for _, a in builds})
    assert len(lines) == len(cities) > 1  # one line per city, however many payments
    first = [(i, a) for i, a in builds if a.city == cities[0]]
    assert len(first) > 1
    city = EUROPE.board.cities[cities[0]]
    rest = " | ".join(f"{i} {str(a).rsplit(' with ', 1)[1]}" for i, a in first[1:])
    assert lines[0].strip() == f"{first[0][0]}  station {city} with {str(first[0][1]).rsplit(' with ', 1)[1]} | {rest}"


def test_the_summary_counts_stations_built_and_names_the_borrowed_tracks():
    board = RECORD.load_game().board
    record = copy.deepcopy(RECORD)
    row = record.result["players"][1]
    track = next(t for t in board.tracks if t.a == row["station_tracks"][0][0] or t.b == row["station_tracks"][0][0])
    row["station_tracks"][0] = [row["station_tracks"][0][0], track.id]
    _, headers, rows, lines = EUROPE.views.result_summary(record)
    assert headers[-1] == "stations built" and "stations kept" in headers
    for r in rows:
        parts = dict(zip(headers, r))
        p = record.result["players"][int(parts["seat"])]
        assert parts["stations built"] == str(p["stations_built"]) and parts["stations kept"] == str(p["station_points"])
    said = next(line for line in lines if line.startswith("seat 1 stations: "))
    cities = [board.cities[c] for c, _ in row["station_tracks"]]
    assert said == (f"seat 1 stations: {cities[0]} borrows {track.label}, "
                    + ", ".join(f"{c} borrows none" for c in cities[1:]))
    assert not re.search(r"#\d", "\n".join(lines))  # no ids


def test_a_map_without_stations_has_no_station_column():
    usa = GameRecord.load(next((Path(__file__).parents[1] / "golden").glob("usa-*.json")))
    _, headers, _, lines = load_game("ticket_to_ride").views.result_summary(usa)
    assert "stations built" not in headers and not any("stations" in line for line in lines)


def test_the_pages_last_view_gets_the_borrowed_tracks_from_the_result():
    live = EUROPE.views.live()
    assert live.final(RECORD) == {}  # this record's stations borrowed nothing
    record = copy.deepcopy(RECORD)
    row = record.result["players"][2]
    row["station_tracks"][1] = [row["station_tracks"][1][0], 11]
    assert live.final(record) == {"borrowed": [[2, row["station_tracks"][1][0], 11]]}
    assert load_game("ticket_to_ride").views.live().final(GameRecord.load(
        next((Path(__file__).parents[1] / "golden").glob("usa-*.json")))) == {}
