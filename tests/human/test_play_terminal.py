"""A person plays at the terminal (``ttr-lab play --human``) through standard input, line by
line as from a pipe: whole games of every game against a shipped strategy, bad input refused in
one line and asked again, help, an action typed as text, two people taking turns with a hand-over
between them, and the record that ``ttr-lab replay`` plays back."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from ttr_lab.cli import app
from ttr_lab.core.record import GameRecord


def _play(tmp_path, *args: str, lines: str) -> tuple[object, str]:
    path = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "--seed", "3", "-p", "2", "--record", str(path), *args], input=lines)
    return result, str(path)


def test_a_whole_ticket_to_ride_game_through_stdin(tmp_path):
    # Bad input first (not an action, out of the list, an action not legal while keeping tickets), then help, then the
    # ticket keep typed as text, then always the first action listed.
    lines = "bogus\n9999\ndraw blind\n?\nkeep 0,1,2\n" + "0\n" * 400
    result, path = _play(tmp_path, "--human", "0", "-s", "greedy", lines=lines)
    out = result.output
    assert result.exit_code == 0, out[-2000:]
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert len(errors) == 3 and "9999 is not in the list" in errors[1] and "not legal now" in errors[2], errors
    assert "type the number of an action" in out  # the help
    assert "your hand:" in out and "tickets offered: 0:" in out and "market: 0:" in out
    assert re.search(r"since your last turn: seat 1 \(greedy\) (claim|draw|tickets|kept)", out)
    assert re.search(r"^ +0 +draw blind$", out, re.M)  # the legal actions, numbered, in the action language
    record = GameRecord.load(path)
    assert record.strategies == ("human", "greedy") and record.actions[0] == (0, "keep 0,1,2")
    assert record.replay().is_terminal()
    replayed = CliRunner().invoke(app, ["replay", path])
    assert replayed.exit_code == 0 and "game over" in replayed.output


def test_a_whole_trans_orient_game_through_stdin(tmp_path):
    result, path = _play(tmp_path, "-g", "trans_orient", "--human", "1", "-s", "random", lines="0\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    assert GameRecord.load(path).strategies == ("random", "human")


def test_two_people_take_turns_with_a_hand_over(tmp_path):
    result, path = _play(tmp_path, "--human", "0,1", lines="0\n" * 600)
    assert result.exit_code == 0, result.output[-2000:]
    assert "--- pass to seat 1 (human) ---" in result.output and "--- pass to seat 0 (human) ---" in result.output
    assert GameRecord.load(path).strategies == ("human", "human")


@pytest.mark.parametrize("args, lines, message", [
    (["--human", "0"], "0\n" * 3, "standard input ended before the game did"),
    (["--human", "0"], "quit\n", "seat 0 left the game"),
    (["--human", "2"], "", "--human '2': '2' is not a seat (0 to 1)"),
    (["--human", "0,0"], "", "seat 0 is named twice"),
    (["--human", "0", "-s", "greedy,random"], "", "2 strategies given for the 1 seats no person takes"),
    (["--human", "0", "--think", "0"], "", "--think is a number of seconds above 0"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, lines, message):
    result, path = _play(tmp_path, *args, lines=lines)
    assert result.exit_code == 2, result.output[-2000:]
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr, result.stderr
