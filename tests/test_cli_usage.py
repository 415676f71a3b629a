"""The command line as a new user meets it: help text, strategy parameters, the games list, and
errors that blame what the user actually typed."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from ttr_lab import GameRecord
from ttr_lab.cli import app
from ttr_lab.cli.games import seat_specs
from ttr_lab.core.errors import ConfigError

WIDE = {"COLUMNS": "140", "TERMINAL_WIDTH": "140", "NO_COLOR": "1"}


def _help(*args: str) -> str:
    result = CliRunner().invoke(app, [*args, "--help"], env=WIDE)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", [[], ["tournament"], ["play"], ["bench"], ["bench", "strength"], ["replay"]])
def test_help_shows_no_python_type_names(command):
    text = _help(*command)
    assert not re.search(r"<(bool|int|str|float|path|list\[str\])>", text), text
    usage = next(row for row in text.splitlines() if "Usage:" in row)
    assert "{" not in usage, usage


def test_help_usage_names_an_argument_in_capitals_and_flags_take_no_value():
    text = _help("tournament")
    assert "tournament [OPTIONS] CONFIG" in text and "{config}" not in text
    line = next(row for row in text.splitlines() if "--games" in row)
    assert "INTEGER" in line
    line = next(row for row in text.splitlines() if "--isolate" in row)
    assert "<" not in line and "BOOL" not in line.upper().replace("--ISOLATE", "")


def test_a_docstring_line_break_is_not_one_on_the_screen():
    text = _help("bench")
    row = next(row for row in text.splitlines() if " tournament " in row)
    # Before: the source's line break ended the row after "files," with room to spare.
    assert not row.rstrip(" │").endswith("files,"), text


def test_top_level_help_names_every_game():
    text = " ".join(_help().split())
    assert "Trans-Orient Express" in text and "Ticket to Ride" in text and "ttr-lab games" in text


def test_games_lists_the_registered_games_and_their_options():
    result = CliRunner().invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "ticket_to_ride" in result.output and "trans_orient" in result.output
    assert "map = 'usa'" in result.output and "deck = 'standin'" in result.output


def test_seat_specs_read_parameters_after_a_colon():
    specs = seat_specs(["mcts:steps=20,exploration=1.5,random", "ttr_lab.strategies.random:Random", "greedy:"])
    assert [(s.strategy, s.params) for s in specs] == [
        ("mcts", {"steps": 20, "exploration": 1.5}), ("random", {}), ("ttr_lab.strategies.random:Random", {}), ("greedy", {}),
    ]
    assert seat_specs(["ttr_lab.strategies.random:Random:x=1"])[0].params == {"x": 1}
    with pytest.raises(ConfigError, match="before any strategy name"):
        seat_specs(["steps=3"])


def test_play_passes_strategy_parameters(tmp_path):
    out = tmp_path / "game.json"
    result = CliRunner().invoke(app, ["play", "-p", "2", "-s", "greedy:seed_bias=1", "--record", str(out)])
    assert result.exit_code == 2 and "has no parameter 'seed_bias'" in result.output, result.output
    result = CliRunner().invoke(app, ["play", "-p", "2", "-s", "mcts:steps=5,iterations=5", "-s", "random",
                                      "--seed", "3", "--record", str(out)])
    assert result.exit_code == 0, result.output
    assert GameRecord.load(out).strategies[1] == "random"


def test_an_unknown_option_is_named_alone():
    result = CliRunner().invoke(app, ["play", "-o", "steps=0"])
    assert result.exit_code == 2
    assert result.output.strip() == "error: game 'ticket_to_ride' takes the options map, ruleset, edits, not steps"
    result = CliRunner().invoke(app, ["play", "--map", "usa", "-o", "steps=0"])
    assert result.output.strip().endswith("not steps"), result.output


def test_a_bad_backend_on_the_command_line_is_blamed_on_the_option():
    result = CliRunner().invoke(app, ["tournament", "configs/smoke.yaml", "--backend", "sereal"], env=WIDE)
    assert result.exit_code == 2
    assert "--backend" in result.output and "smoke.yaml" not in result.output, result.output


@pytest.mark.parametrize("command, config, meant", [
    ("tournament", "configs/study/longest-bonus.yaml", "ttr-lab study"),
    ("tournament", "configs/study/balance.yaml", "ttr-lab study"),
    ("tune", "configs/smoke.yaml", "ttr-lab tournament"),
    ("study", "configs/4p.yaml", "ttr-lab tournament"),
    ("study", "configs/tune/greedy.yaml", "ttr-lab tune"),
])
def test_a_config_given_to_the_wrong_command_names_the_command_it_is_for(command, config, meant):
    result = CliRunner().invoke(app, [command, config])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and f"`{meant} {config}`" in lines[0], result.output


@pytest.mark.parametrize("wrong", ["game", "gmaes"])
def test_a_misspelt_key_says_which_key_was_meant(tmp_path, wrong):
    text = open("configs/smoke.yaml", encoding="utf-8").read().replace("games: 8", f"{wrong}: 8")
    (tmp_path / "c.yaml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["tournament", str(tmp_path / "c.yaml")])
    assert result.exit_code == 2
    line = result.output.strip()
    assert "\n" not in line and "did you mean 'games'?" in line and "map" not in line.split(":", 2)[2], line
