"""The offline HTML replay viewer of Trans-Orient Express (``replay_html.py``): the positions it
embeds, checked by hand on a short seeded game and against the engine on a whole one; the page
(self-contained, names escaped) and ``ttr-lab replay --html``. The browser test, which runs the
page's script, is in tests/test_replay_viewer.py."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_lab.cli import app
from ttr_lab.core.play import play_game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.registry import build
from ttr_lab.games import trans_orient
from ttr_lab.games.trans_orient import TransOrientExpress
from ttr_lab.games.trans_orient.replay_html import positions, viewer_page

GAME = TransOrientExpress()

# Seed 3 with 2 players (the stand-in deck): seat 0 starts; lower row 58, 33, 64, 62, 26 over
# piles {blue, green, yellow}, {blue, green, purple}, {green, 2 yellow}, {yellow, red, purple},
# {blue, yellow, red}; seat 0 holds 2 red, seat 1 a yellow and a purple. Objectives: visa 4
# (medals 9 / 5 / 2 by passports), season 8 (blue + green + yellow: 6), route 14 (run 3: 6, 5: 15).
# Card 33 (destination 7, yellow) costs 1 blue + 2 yellow, is worth 4 VP, shows a passport and
# draws luggage: 11 (a wild number) and 7 (1 VP per luggage card) are on top of that deck.
SHORT = ("take tokens 2", "take tokens 0", "take card 1", "play 33", "keep luggage 7", "take card 4")
SEATS = (0, 1, 1, 1, 1, 0)  # the 2-player round: starter, the other twice, the starter


@pytest.fixture(scope="module")
def short() -> list[dict]:
    record = GameRecord(game="trans_orient", options=GAME.options, num_players=2, seed=3,
                        strategies=("first", "second"), actions=tuple(zip(SEATS, SHORT)), result={})
    return positions(record)


def test_the_start_as_dealt(short):
    s = short[0]
    assert (s["round"], s["turn"], s["to_play"], s["action"]) == (1, 0, 0, None)
    assert s["lower"] == [58, 33, 64, 62, 26] and s["upper"] == [65, 6, 36, 51, 16]
    assert s["piles"][1] == {"blue": 1, "green": 1, "purple": 1} and s["piles"][2] == {"green": 1, "yellow": 2}
    assert s["reserves"] == [{"red": 2}, {"yellow": 1, "purple": 1}]
    assert s["bag"] == {"blue": 7, "green": 7, "yellow": 4, "red": 6, "purple": 7} and s["deck"] == 62
    assert s["score"] == [9, 9]  # no passport yet: both share the first visa medal


def test_a_pile_take_and_a_card_take(short):
    s = short[1]
    assert s["action"] == "seat 0: take tokens 2 (card 64)" and s["action_hidden"] is None
    assert s["reserves"][0] == {"green": 1, "yellow": 2, "red": 2} and s["piles"][2] == {}
    assert s["lower"][2] == 0 and s["deck"] == 63  # card 64 went under the draw deck
    assert (s["turn"], s["to_play"], s["doing"]) == (1, 1, "take a card or a pile")
    s = short[3]
    assert s["action"] == "seat 1: take card 1 (card 33)" and s["hands"][1] == [33]
    assert s["bag"] == {"blue": 8, "green": 8, "yellow": 4, "red": 6, "purple": 8}  # the pile went back
    assert s["turn"] is None and s["doing"] == "play a card or not"  # mid-turn


def test_a_play_and_a_secret_luggage_card(short):
    s = short[4]
    assert s["played"][1] == [33] and s["hands"][1] == [] and s["reserves"][1] == {"green": 1, "purple": 1}
    assert s["bag"] == {"blue": 9, "green": 8, "yellow": 6, "red": 6, "purple": 8}
    assert s["score"] == [5, 13]  # seat 1: 4 VP + the first visa medal; seat 0 the second
    assert s["offer"] == [7, 11] and s["doing"] == "keep a luggage card"
    s = short[5]
    assert s["action"] == "seat 1: kept luggage" and s["action_hidden"] == "seat 1: keep luggage 7"
    assert s["luggage_count"] == [0, 1] and s["luggage"] == [[], [7]] and s["offer"] == []
    assert s["score"] == [5, 13] and s["score_all"] == [5, 14]  # luggage 7: 1 VP per luggage card


def test_the_round_ends_and_the_next_one_starts(short):
    s = short[6]
    assert (s["round"], s["turn"], s["to_play"], s["master"], s["mcol"]) == (2, 4, 1, 1, -1)
    assert s["hands"][0] == [26] and s["reserves"][0] == {"green": 1, "yellow": 2, "red": 2}
    assert s["lower"] == [65, 6, 36, 62, 16]  # the upper cards slid down; 62 stayed
    assert s["upper"] == [9, 67, 18, 51, 8] and s["deck"] == 60  # dealt from the top; 64 and 58 lie under
    assert sum(s["piles"][3].values()) == 4  # the column left gained a token


@pytest.fixture(scope="module")
def whole() -> GameRecord:
    return play_game(GAME, [build("planner", game="trans_orient"), build("greedy", game="trans_orient"),
                            build("random", game="trans_orient")], seed=3)


def test_every_step_follows_the_engine_and_hides_the_luggage(whole):
    steps = positions(whole)
    assert len(steps) == len(whole.actions) + 1
    kept = 0
    for s, state in zip(steps, whole.states()):
        assert s["lower"] == list(state.lower) and s["upper"] == list(state.upper)
        assert s["hands"] == [list(h) for h in state.hands] and s["played"] == [list(p) for p in state.played]
        assert sum(s["bag"].values()) + sum(sum(c.values()) for c in s["piles"] + s["reserves"]) == 50
        assert s["luggage_count"] == [len(x) for x in state.luggage]
        if s["action_hidden"]:
            kept += 1
            assert re.fullmatch(r"seat \d: kept luggage", s["action"]) and "keep luggage" in s["action_hidden"]
        if not state.is_terminal():
            assert all(s["score"][p] <= s["score_all"][p] for p in range(3))  # luggage scores nothing below 0
    assert kept == sum(len(x) for x in whole.replay().luggage) > 0
    end = steps[-1]
    assert end["to_play"] == -1 and end["turn"] == whole.result["turns"]
    assert end["score"] == end["score_all"] == [p["score"] for p in whole.result["players"]]


def test_the_page_is_self_contained_and_escapes_names(whole):
    named = dataclasses.replace(whole, strategies=("<script>alert(1)</script>", "a&b", "<b>x</b>"))
    text = viewer_page(named)
    assert text.startswith("<!doctype html>") and "<script" in text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)  # nothing fetched: works offline
    assert "<script>alert(1)" not in text and "<b>x</b>" not in text
    data = json.loads(re.search(r'<script type="application/json" id="[^"]+">(.*?)</script>', text, re.S).group(1))
    assert [p["name"] for p in data["players"]] == ["&lt;script&gt;alert(1)&lt;/script&gt;", "a&amp;b", "&lt;b&gt;x&lt;/b&gt;"]
    assert "final scores" in text and text.count("<li>") == 3  # the three objectives


def test_a_deck_whose_names_hold_markup_is_shown_as_text(tmp_path):
    shutil.copytree(Path(trans_orient.__file__).parent / "decks" / "standin", tmp_path / "deck")
    for name, old, new in (("travel.csv", "Western Europe", "West </script><b>x</b>"),
                           ("deck.toml", 'title = "', 'title = "<i>T</i> ')):
        path = tmp_path / "deck" / name
        path.write_text(path.read_text().replace(old, new))
    game = TransOrientExpress(str(tmp_path / "deck"))
    text = viewer_page(play_game(game, [build("greedy", game="trans_orient")] * 2, seed=1))
    assert "</script><b>" not in text and "<i>T</i>" not in text and "&lt;i&gt;T&lt;/i&gt;" in text
    data = json.loads(re.search(r'<script type="application/json" id="[^"]+">(.*?)</script>', text, re.S).group(1))
    assert any("West </script><b>x</b>" in card["title"] for card in data["cards"].values())  # escaped by the script


def test_replay_html_from_the_command_line(whole, tmp_path):
    whole.save(tmp_path / "game.json")
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "game.json"), "--html", str(tmp_path / "game.html")])
    assert result.exit_code == 0, result.output
    assert "replay viewer saved to" in result.output and "no HTML replay viewer" not in result.output
    assert "Trans-Orient Express" in (tmp_path / "game.html").read_text()


@pytest.mark.parametrize("args, message", [
    (["--html", "{tmp}/missing/game.html"], "folder"),
    (["--html", "{tmp}/game.html", "--turn", "10000"], "before turn 10000"),
])
def test_bad_replay_html_input_is_one_line_and_writes_nothing(whole, tmp_path, args, message):
    whole.save(tmp_path / "game.json")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "game.json"), *args])
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "game.html").exists()


def test_a_record_in_jupyter_shows_its_table_and_the_viewer(whole):
    shown = whole._repr_html_()
    assert shown.startswith("<p>") and "<table>" in shown
    assert 'class="slider"' in shown and "<img" not in shown  # the viewer, not a still picture
    assert shown.count('type="application/json"') == 1
