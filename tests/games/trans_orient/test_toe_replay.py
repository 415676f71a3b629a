"""The game's replay and play hooks: turns, a position in words, the finished game's table."""

from __future__ import annotations

import pytest

from ttr_lab.core.errors import TTRLabError
from ttr_lab.core.play import play_game
from ttr_lab.core.testing import RandomPlayer
from ttr_lab.games.trans_orient import TransOrientExpress

GAME = TransOrientExpress()


@pytest.fixture(scope="module")
def record():
    return play_game(GAME, [RandomPlayer() for _ in range(3)], 11)


def test_a_replay_stops_at_the_start_of_the_turn_asked(record):
    state, index = record.state_at(turn=5)
    assert state.turns == 5 and GAME.views.turn_number(state, index) == 5 and state.phase_name.name == "TAKE"
    assert 0 < index < len(record.actions)
    with pytest.raises(TTRLabError, match="turns"):
        record.state_at(turn=10_000)


def test_a_position_in_words_hides_luggage_until_the_end(record):
    state, index = record.state_at(turn=5)
    text = GAME.views.describe_state(state, record, index)
    assert f"after {index} actions" in text and "station:" in text and "objectives:" in text
    assert "hidden" in text and "final:" not in text
    end, last = record.state_at()
    text = GAME.views.describe_state(end, record, last)
    assert "game over" in text and "hidden" not in text and "final: seat 0" in text


def test_the_finished_game_table_adds_up_to_each_score(record):
    ending, headers, rows, lines = GAME.views.result_summary(record)
    assert ending.endswith("rounds") and len(rows) == 3 and len(lines) == 3
    parts = headers.index("travel"), headers.index("total")
    for row in rows:
        assert sum(int(x) for x in row[parts[0]:parts[1]]) == int(row[parts[1]])
    assert [int(r[0]) for r in rows] == sorted(int(r[0]) for r in rows)


def test_replay_command_draws_the_position_and_a_record_shows_itself_in_jupyter(record, tmp_path):
    from typer.testing import CliRunner

    from ttr_lab.cli import app

    path, picture = tmp_path / "game.json", tmp_path / "station.png"
    record.save(path)
    result = CliRunner().invoke(app, ["replay", str(path), "--turn", "8", "--picture", str(picture)])
    assert result.exit_code == 0, result.output
    assert "turn 8" in result.output and "station:" in result.output and picture.read_bytes()[:4] == b"\x89PNG"
    page = record._repr_html_()
    assert "<table>" in page and 'class="slider"' in page and "travel" in page  # the table, then the viewer
