"""The replay viewer on a Europe record with train stations: each step holds the stations built
so far (the engine's, city by city), the move list names each station's city, the page draws a
square in the owner's colour on each built city, and the last step outlines the tracks the
stations borrowed at the end (the result's ``station_tracks``)."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from ttr_lab.core.record import GameRecord
from ttr_lab.games.ticket_to_ride.replay_html import borrowed_tracks, positions, viewer_page

RECORD = GameRecord.load(Path(__file__).parent / "golden" / "europe-5p-seed57.json")


def test_each_step_holds_the_stations_built_and_the_move_names_the_city():
    board = RECORD.load_game().board
    steps = positions(RECORD)
    builds = 0
    for index, state in enumerate(RECORD.states()):
        assert steps[index]["stations"] == list(state.stations)
        if index and RECORD.actions[index - 1][1].startswith("station "):
            built = [c for c, (o, b) in enumerate(zip(steps[index]["stations"], steps[index - 1]["stations"])) if o != b]
            assert len(built) == 1 and steps[index]["stations"][built[0]] == RECORD.actions[index - 1][0]
            assert steps[index]["action"].startswith(f"seat {RECORD.actions[index - 1][0]}: station {board.cities[built[0]]} with ")
            builds += 1
    assert builds == 15 and steps[-1]["stations_left"] == [0] * 5  # five seats, three stations each


def _lending(monkeypatch, seat: int) -> GameRecord:
    """The record with ``seat``'s first station said to have borrowed track 7 (this record's
    stations borrowed none; the replay's check of the stored result is bypassed for it)."""
    monkeypatch.setattr(GameRecord, "_check_result", lambda self, replayed: None)
    record = copy.deepcopy(RECORD)
    row = record.result["players"][seat]
    row["station_tracks"] = [[row["station_tracks"][0][0], 7], *row["station_tracks"][1:]]
    return record


def test_the_last_step_outlines_the_borrowed_tracks(monkeypatch):
    assert positions(RECORD)[-1]["borrowed"] == borrowed_tracks(RECORD.result) == []  # this record's stations lent none
    record = _lending(monkeypatch, 1)
    row = record.result["players"][1]
    row = record.result["players"][1]
    assert positions(record)[-1]["borrowed"] == [[1, row["station_tracks"][0][0], 7]]
    assert "borrowed" not in positions(record)[-2]


def test_the_board_has_a_dot_per_city_and_a_layer_for_the_stations():
    page = viewer_page(RECORD)
    assert sorted(map(int, re.findall(r'<circle data-city="(\d+)"', page))) == list(range(len(RECORD.load_game().board.cities)))
    assert '<g class="station-layer"></g>' in page


def test_chromium_draws_the_stations_and_the_borrowed_tracks(tmp_path, monkeypatch):
    import sys

    sys.path.insert(0, str(Path(__file__).parent / "human"))
    from serving import CHROMEDRIVER, CHROMIUM, Browser

    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("no Chromium or chromedriver installed (apt-get install chromium chromium-driver)")
    record = _lending(monkeypatch, 2)
    steps = positions(record)
    first = next(i for i, s in enumerate(steps) if any(o >= 0 for o in s["stations"]))
    path = tmp_path / "game.html"
    path.write_text(viewer_page(record))
    browser = Browser()
    try:
        for step in (first - 1, first, len(steps) - 1):
            browser.go(f"file://{path}#step={step}")
            browser.wait("return document.querySelectorAll('line[data-track]').length")
            drawn = browser.run("return [...document.querySelectorAll('.station-layer .station')]"
                                ".map(e => [+e.dataset.station, +e.dataset.seat, e.querySelector('rect').getAttribute('fill')])")
            colours = browser.run("return [...document.querySelectorAll('tbody.players .swatch')].map(e => e.style.background)")
            want = [[c, o] for c, o in enumerate(steps[step]["stations"]) if o >= 0]
            assert [d[:2] for d in drawn] == want and len(want) == (15 if step == len(steps) - 1 else step >= first)
            assert all(d[2] for d in drawn) and len(colours) == 5
            lent = browser.run("return [...document.querySelectorAll('line.borrowed')].map(e => [+e.dataset.track, +e.dataset.borrowedBy])")
            assert lent == ([[7, 2]] if step == len(steps) - 1 else [])
    finally:
        browser.close()
