"""A person plays at the terminal (``ttr-lab play --human``) through standard input, line by
line as from a pipe: whole games of every game against a shipped strategy, bad input refused in
one line and asked again, help, an action typed as text, two people taking turns with a hand-over
between them, and the record that ``ttr-lab replay`` plays back."""

from __future__ import annotations

import re
from pathlib import Path

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


def test_quit_ends_the_game_politely_and_saves_no_record(tmp_path):
    result, path = _play(tmp_path, "--human", "0", "-s", "greedy", lines="keep 0,1,2\nquit\n")
    assert result.exit_code == 0, result.output[-2000:]
    assert result.stderr == "" and not any(line.startswith("error:") for line in result.output.splitlines())
    assert result.output.rstrip().splitlines()[-1].endswith(
        "seat 0 left the game: the game ended there, unfinished, and no record was saved (a record is a whole game)")
    assert not Path(path).exists()


def test_the_hand_and_tickets_are_shown_last_just_above_the_prompt(tmp_path):
    """A hand that can pay for many tracks lists dozens of claims: the state comes after them,
    so the hand and tickets are what the person sees above the prompt."""
    result, _ = _play(tmp_path, "--human", "0", "-s", "greedy", lines="keep 0,1,2\n" + "0\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    decisions = result.output.split("your action (number, text or ?): ")[:-1]
    assert len(decisions) > 10
    for shown in decisions:
        lines = shown.splitlines()
        numbered = max(i for i, line in enumerate(lines) if re.match(r"^ +\d+  ", line))
        hand = max(i for i, line in enumerate(lines) if line.lstrip().startswith("your hand:"))
        assert numbered < hand, shown[-1500:]


def test_a_ten_million_digit_line_is_not_a_move_number_and_is_asked_again(tmp_path):
    result, path = _play(tmp_path, "--human", "0", "-s", "random", lines="9" * 10_000_000 + "\n" + "0\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    errors = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert errors == ["error: a 10000000-digit number is not in the list (0 to 3)"], errors[:3]
    assert GameRecord.load(path).replay().is_terminal()


@pytest.mark.parametrize("where", ["folder", "dot"])
def test_a_record_path_that_is_a_folder_gets_a_new_file_inside_it_said_before_the_game(tmp_path, monkeypatch, where):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "games"
    folder.mkdir()
    target = str(folder) if where == "folder" else "./"
    result = CliRunner().invoke(app, ["play", "--seed", "3", "-p", "2", "--human", "0", "--record", target],
                                input="0\n" * 400)
    assert result.exit_code == 0, result.output[-2000:]
    inside = folder if where == "folder" else tmp_path
    (saved,) = inside.glob("game-*.json")
    first = result.output.splitlines()[0]
    assert first == f"--record {Path(target)} is a folder: the record will be saved in it as {saved.name}", first
    assert result.output.rstrip().endswith(f"record saved to {Path(target) / saved.name}")
    assert GameRecord.load(saved).replay().is_terminal()


def _foreign(tmp_path, monkeypatch):
    (tmp_path / "notes.json").write_text('{"mine": true}')
    return tmp_path / "notes.json", "is not a game record ttr-lab can replace"


def _read_only(tmp_path, monkeypatch):
    import os

    folder = tmp_path / "ro"
    folder.mkdir(mode=0o555)
    if os.geteuid() == 0:  # a folder's mode stops no root: the check is told what it would see as a user
        access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: access(p, mode) and Path(p) != folder)
    return folder / "g.json", "is not writable"


@pytest.mark.parametrize("make", [_foreign, _read_only], ids=["a file it did not write", "a read-only folder"])
def test_a_record_path_that_cannot_take_the_record_is_refused_before_the_game(tmp_path, monkeypatch, make):
    path, message = make(tmp_path, monkeypatch)
    before = path.read_text() if path.exists() else None
    result = CliRunner().invoke(app, ["play", "--seed", "3", "-p", "2", "--human", "0", "--record", str(path)], input="")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and message in result.stderr, result.output
    assert "you are seat" not in result.stdout  # refused before the game
    assert (path.read_text() if path.exists() else None) == before


def test_a_record_of_its_own_is_replaced(tmp_path):
    first, path = _play(tmp_path, "-s", "random", lines="")
    again, _ = _play(tmp_path, "-s", "random", "--seed", "4", lines="")
    assert first.exit_code == 0 and again.exit_code == 0, again.output
    assert GameRecord.load(path).seed == 4


def test_a_record_that_cannot_be_written_at_the_end_is_saved_elsewhere_and_said(tmp_path, monkeypatch):
    from ttr_lab.cli import record_path

    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    asked = tmp_path / "games" / "g.json"
    write = record_path._write

    def full_disk(path, text):
        if path == asked:
            raise OSError(28, "No space left on device")
        write(path, text)

    monkeypatch.setattr(record_path, "_write", full_disk)
    result = CliRunner().invoke(app, ["play", "--seed", "3", "-p", "2", "--human", "0", "--record", str(asked)],
                                input="0\n" * 400)
    assert result.exit_code == 1, result.output[-2000:]
    (saved,) = tmp_path.glob("game-*.json")
    assert result.stderr == (f"error: cannot write the record to {asked} (OSError: No space left on device); "
                             f"it is saved to {saved} instead\n"), result.stderr
    assert GameRecord.load(saved).replay().is_terminal() and not asked.exists()
