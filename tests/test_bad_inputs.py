"""Bad inputs, as a hostile but realistic user gives them: each is one line on standard error,
naming the cause, with exit code 2, and nothing is lost or overwritten. One row per probe."""

from __future__ import annotations

import socket
import sys
import uuid
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from ttr_lab.cli import app

CONFIG = "name: t\nplayers: 2\ngames: 2\nbackend: serial\nentrants: [{name: g, strategy: greedy}, {name: e, strategy: %s}]\n"


def _module(tmp: Path, text: str) -> str:
    """A strategy module of its own name (modules are cached per process), importable from ``tmp``."""
    name = f"probe_{uuid.uuid4().hex[:8]}"
    (tmp / f"{name}.py").write_text(text)
    return name


def _config(tmp: Path, strategy: str = "random", extra: str = "") -> str:
    path = tmp / "cfg.yaml"
    path.write_text(CONFIG % strategy + extra)
    return str(path)


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def non_utf8(tmp):
    (tmp / "cfg.yaml").write_bytes(b"name: caf\xe9\nplayers: 2\n")
    return ["tournament", str(tmp / "cfg.yaml")], "not UTF-8 text (byte 0xe9"


def import_raises(tmp):
    module = _module(tmp, "raise RuntimeError('no import for you')\n")
    return ["tournament", _config(tmp, f"{module}:X")], "failed: RuntimeError: no import for you"


def import_syntax_error(tmp):
    module = _module(tmp, "class X:\n    def act(self\n")
    return ["tournament", _config(tmp, f"{module}:X")], "failed (line 2): SyntaxError"


def play_import_raises(tmp):
    module = _module(tmp, "raise RuntimeError('no import for you')\n")
    return ["play", "--strategy", f"{module}:X"], "failed: RuntimeError: no import for you"


def constructor_rejects(tmp):
    module = _module(tmp, "from strategies.random import Random\nclass X(Random):\n"
                          "    def __init__(self, *, depth: int = 1):\n"
                          "        if depth > 3:\n            raise ValueError(f'depth {depth} is too deep')\n")
    cfg = tmp / "cfg.yaml"
    cfg.write_text(CONFIG.replace("strategy: %s}", "strategy: %s, params: {depth: 9}}") % f"{module}:X")
    return ["tournament", str(cfg)], "cannot be built with params {'depth': 9}: ValueError: depth 9 is too deep"


def search_budget_out_of_range(tmp):
    cfg = tmp / "cfg.yaml"
    cfg.write_text(CONFIG.replace("strategy: %s}", "strategy: %s, params: {steps: 0}}") % "mcts")
    return ["tournament", str(cfg)], "strategy 'mcts': bad parameter value (steps: Input should be greater than 0)"


def misspelt_option_word(tmp):
    cfg = tmp / "cfg.yaml"
    cfg.write_text(CONFIG.replace("strategy: %s}", "strategy: %s, params: {turn_alternatives: 'tikets'}}") % "mcts")
    return ["tournament", str(cfg)], "turn_alternatives: String should match pattern"


def out_is_a_file(tmp):
    (tmp / "taken").write_text("mine")
    return ["tournament", _config(tmp), "--out", str(tmp / "taken")], "is a file, not a folder"


def out_is_someone_elses(tmp):
    (tmp / "mine").mkdir()
    (tmp / "mine" / "report.md").write_text("my notes")
    return ["tournament", _config(tmp), "--out", str(tmp / "mine")], "is not a ttr-lab results folder"


def huge_games(tmp):
    cfg = tmp / "cfg.yaml"
    cfg.write_text((CONFIG % "random").replace("games: 2", "games: 100000000000000"))
    return ["tournament", str(cfg)], "games: Input should be less than or equal to 10000000"


def dead_address(tmp):
    port = _dead_port()
    return (["tournament", _config(tmp), "--backend", "ray", "--address", f"127.0.0.1:{port}"],
            f"cannot connect to Ray at 127.0.0.1:{port}")


def report_foreign_parquet(tmp):
    (tmp / "r" / "results").mkdir(parents=True)
    pq.write_table(pa.table({"a": [1], "b": ["x"]}), tmp / "r" / "results" / "theirs.parquet")
    return ["report", str(tmp / "r")], "is not a ttr-lab results table (no game_id, deal"


def report_damaged_part(tmp):
    (tmp / "r" / "results").mkdir(parents=True)
    (tmp / "r" / "results" / "part-1.parquet").write_bytes(b"PAR1 garbled")
    return ["report", str(tmp / "r")], "part-1.parquet is damaged"


def _record(tmp: Path, change) -> str:
    from ttr_lab.core.play import play_game
    from strategies.random import Random

    data = play_game("ticket_to_ride", [Random(), Random()], 3, map="usa").to_dict()
    change(data)
    path = tmp / "game.json"
    import json

    path.write_text(json.dumps(data))
    return str(path)


def replay_a_list(tmp):
    (tmp / "game.json").write_text("[1, 2]")
    return ["replay", str(tmp / "game.json")], "a game record is a JSON object, not a list"


def replay_an_empty_object(tmp):
    (tmp / "game.json").write_text("{}")
    return ["replay", str(tmp / "game.json")], "a game record needs the field 'game'"


def replay_too_few_strategies(tmp):
    return ["replay", _record(tmp, lambda d: d.update(strategies=d["strategies"][:1]))], \
        "the record names 1 strategies for 2 players"


def replay_format_99(tmp):
    return ["replay", _record(tmp, lambda d: d.update(format=99))], "unknown record format 99"


def replay_negative_action(tmp):
    return ["replay", _record(tmp, lambda d: None), "--action", "-1"], "a turn or action count is 0 or more, not -1"


def play_record_into_a_missing_folder(tmp):
    return ["play", "-p", "2", "--record", str(tmp / "nowhere" / "g.json")], "the folder"


def replay_picture_into_a_missing_folder(tmp):
    return ["replay", _record(tmp, lambda d: None), "--picture", str(tmp / "nowhere" / "b.png")], "does not exist"


def tune_into_a_tournament_folder(tmp):
    (tmp / "t").mkdir()
    (tmp / "t" / "meta.json").write_text("{}")
    (tmp / "t" / "report.md").write_text("the tournament's report")
    config = Path(__file__).resolve().parents[1] / "configs" / "tune-greedy.yaml"
    return ["tune", str(config), "--out", str(tmp / "t"), "--trials", "1"], "is not a tuning run's folder"


PROBES = [non_utf8, import_raises, import_syntax_error, play_import_raises, constructor_rejects,
          search_budget_out_of_range, misspelt_option_word, out_is_a_file,
          out_is_someone_elses, huge_games, dead_address, report_foreign_parquet, report_damaged_part,
          replay_a_list, replay_an_empty_object, replay_too_few_strategies, replay_format_99, replay_negative_action,
          play_record_into_a_missing_folder, replay_picture_into_a_missing_folder, tune_into_a_tournament_folder]


@pytest.mark.parametrize("probe", PROBES, ids=[p.__name__ for p in PROBES])
def test_a_bad_input_is_one_line_naming_its_cause_with_exit_code_2(tmp_path, monkeypatch, probe):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    args, cause = probe(tmp_path)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert cause in result.stderr, result.stderr
    assert {p: p.read_bytes() for p in before} == before  # nothing overwritten or lost


def test_names_and_errors_with_markup_are_printed_as_they_are(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("name: 'x [/x]'\nplayers: 2\ngames: 2\nbackend: serial\nentrants: [{name: 'greedy [v2]', strategy: "
                   "greedy}, {name: '[/bold]r', strategy: tests_support_strategy:Crashy}]\n")
    result = CliRunner().invoke(app, ["tournament", str(cfg), "--out", str(tmp_path / "o"), "--no-report"],
                                terminal_width=200)
    assert result.exit_code == 0, (result.output, result.exception)
    assert "greedy [v2]" in result.output and "[/bold]r" in result.output
