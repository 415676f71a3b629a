"""Bad inputs, as a hostile but realistic user gives them: each is one line on standard error,
naming the cause, with exit code 2, and nothing is lost or overwritten. One row per probe."""

from __future__ import annotations

import hashlib
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
    module = _module(tmp, "from ttr_lab.strategies.random import Random\nclass X(Random):\n"
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
    from ttr_lab.strategies.random import Random

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
    config = Path(__file__).resolve().parents[1] / "configs" / "tune" / "greedy.yaml"
    return ["tune", str(config), "--out", str(tmp / "t"), "--trials", "1"], "is not a tuning run's folder"


def play_map_of_a_game_without_maps(tmp):
    return ["play", "--game", "trans_orient", "-p", "3", "--map", "usa"], \
        "game 'trans_orient' takes the options deck, ruleset, not map"


def tournament_shorthand_the_game_does_not_declare(tmp):
    path = tmp / "cfg.yaml"
    path.write_text("game: trans_orient\nmap: usa\nplayers: 3\nentrants: [{name: a, strategy: random}]\n"
                    "design: round_robin\n")
    return ["tournament", str(path)], "cfg.yaml: map: game 'trans_orient' declares no config shorthand 'map'"


PROBES = [non_utf8, import_raises, import_syntax_error, play_import_raises, constructor_rejects,
          search_budget_out_of_range, misspelt_option_word, out_is_a_file,
          out_is_someone_elses, huge_games, dead_address, report_foreign_parquet, report_damaged_part,
          replay_a_list, replay_an_empty_object, replay_too_few_strategies, replay_format_99, replay_negative_action,
          play_record_into_a_missing_folder, replay_picture_into_a_missing_folder, tune_into_a_tournament_folder,
          play_map_of_a_game_without_maps, tournament_shorthand_the_game_does_not_declare]


# Faults and data: loaders that refuse what would hang, lie or break later, in one line.

def _map(tmp: Path, edit=None, ruleset: str = "") -> str:
    """A copy of the USA map in ``tmp/map``, its CSV files passed through ``edit`` (name, text) -> text."""
    import shutil

    from ttr_lab.games.ticket_to_ride import board

    folder = tmp / "map"
    shutil.copytree(Path(board.__file__).parent / "maps" / "usa", folder)
    for file in folder.glob("*.csv"):
        if edit is not None:
            file.write_text(edit(file.name, file.read_text()))
    toml = folder / "map.toml"
    toml.write_text(toml.read_text().replace('name = "usa"', f'name = "probe-{uuid.uuid4().hex[:6]}"') + ruleset)
    return str(folder)


def yaml_alias_bomb(tmp):
    rows = ['a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    rows += [f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]" for i in range(8)]
    (tmp / "cfg.yaml").write_text("\n".join(rows) + "\n")
    return ["tournament", str(tmp / "cfg.yaml")], "more than 100,000 values once its aliases are expanded"


def yaml_duplicate_key(tmp):
    return ["tournament", _config(tmp, extra="games: 40\n")], "key 'games' given twice (first at line 3)"


def round_robin_counted_before_planning(tmp):
    cfg = tmp / "cfg.yaml"
    cfg.write_text("players: 5\ngames: 1\nbackend: serial\ndesign: round_robin\nentrants: ["
                   + ", ".join(f"{{name: e{i}, strategy: random}}" for i in range(200)) + "]\n")
    return ["tournament", str(cfg)], "is 12,678,250,200 games; at most 10,000,000"


def move_time_limit_infinite(tmp):
    return ["tournament", _config(tmp, extra="move_time_limit: .inf\n")], "move_time_limit: Input should be a finite number"


def move_time_limit_1e300(tmp):
    return ["tournament", _config(tmp, extra="move_time_limit: 1e300\n")], "move_time_limit: Input should be less than"


def entrant_name_with_an_escape_code(tmp):
    cfg = tmp / "cfg.yaml"
    cfg.write_text(CONFIG.replace("{name: e,", '{name: "e\\e[2J\\e]0;pwned\\a",') % "random")
    return ["tournament", str(cfg)], "holds the control character '\\x1b'"


def entrant_name_with_a_right_to_left_override(tmp):
    cfg = tmp / "cfg.yaml"
    cfg.write_text(CONFIG.replace("{name: e,", '{name: "e\\u202egnp",') % "random")
    return ["tournament", str(cfg)], "holds the control character '\\u202e'"


def ruleset_offering_100_tickets(tmp):
    return ["play", "-p", "2", "--map", _map(tmp, ruleset="initial_tickets = 100\n")], \
        "offers 100 tickets at once"


def ruleset_drawing_40_tickets(tmp):
    return ["play", "-p", "2", "--map", _map(tmp, ruleset="ticket_draw = 40\n")], "offers 40 tickets at once"


def map_ticket_joining_a_city_to_itself(tmp):
    folder = _map(tmp, lambda name, text: text.replace("Boston,Miami,12", "Boston,Boston,12") if name == "tickets.csv" else text)
    return ["play", "-p", "2", "--map", folder], "tickets.csv line 2: the ticket joins Boston to itself"


def map_ticket_worth_1e23_points(tmp):
    folder = _map(tmp, lambda name, text: text.replace("Boston,Miami,12", "Boston,Miami,100000000000000000000000")
                  if name == "tickets.csv" else text)
    return ["play", "-p", "2", "--map", folder], "tickets.csv line 2: a ticket is worth 1 to 1000 points, not 1000000"


def map_ticket_to_a_city_no_track_reaches(tmp):
    folder = _map(tmp, lambda name, text: text + "Atlantis\n" if name == "cities.csv" else
                  text.replace("Boston,Miami,12", "Boston,Atlantis,12") if name == "tickets.csv" else text)
    return ["play", "-p", "2", "--map", folder], \
        "tickets.csv line 2: no chain of tracks joins Boston to Atlantis: the ticket could never be completed"


def map_city_with_a_nan_latitude(tmp):
    def edit(name, text):
        if name != "positions.csv":
            return text
        lines = text.splitlines()
        city, _lat, lon = lines[1].split(",")
        return "\n".join([lines[0], f"{city},nan,{lon}", *lines[2:]]) + "\n"
    return ["play", "-p", "2", "--map", _map(tmp, edit)], \
        "positions.csv line 2: lat must be a finite number, got 'nan'"


def policy_file_of_the_wrong_width(tmp):
    import numpy as np

    from ttr_lab.strategies.policy import LinearPolicy

    LinearPolicy(np.zeros((5, 3)), np.zeros(5), "ticket_to_ride", {"map": "usa"}).save(tmp / "narrow.npz")
    cfg = tmp / "cfg.yaml"
    cfg.write_text(CONFIG.replace("strategy: %s}", "strategy: %s, params: {policy: narrow.npz}}")
                   % "ttr_lab.strategies.policy:PolicyPlayer")
    return ["tournament", str(cfg)], "narrow.npz: weights of shape (5, 3), but Ticket to Ride"


def learned_weights_not_an_npz(tmp):
    (tmp / "net.npz").write_bytes(b"PK\x03\x04 not really a zip")
    cfg = tmp / "cfg.yaml"
    cfg.write_text(CONFIG.replace("strategy: %s}", "strategy: %s, params: {weights: net.npz}}") % "learned")
    return ["tournament", str(cfg)], "cannot read network weights from net.npz"


def map_with_too_few_tickets(tmp):
    folder = _map(tmp, lambda name, text: "\n".join(text.splitlines()[:6]) + "\n" if name == "tickets.csv" else text)
    return ["play", "-p", "3", "--map", folder], "has 5 regular tickets, fewer than the 9 dealt at setup to 3 players"


def map_names_a_claim_cannot_be_read_back_from(tmp):
    # North-East to South and North to East-South: both claims print "North-East-South gray".
    def edit(name, text):
        if name == "cities.csv":
            return text + "North\nNorth-East\nEast-South\nSouth\n"
        if name == "routes.csv":
            return text + "North-East,South,2,gray,0,0\nNorth,East-South,2,gray,0,0\n"
        return text
    return ["play", "-p", "2", "--map", _map(tmp, edit)], "cannot be read back from its text"


def map_city_with_a_tab(tmp):
    folder = _map(tmp, lambda name, text: text.replace("Boston", "Bos\tton"))
    return ["play", "-p", "2", "--map", folder], "holds a control character or a run of spaces"


def results_without_meta_json(tmp):
    (tmp / "other" / "results").mkdir(parents=True)
    pq.write_table(pa.table({"game_id": ["d0-t0-s0"]}), tmp / "other" / "results" / "part-1.parquet")
    return ["tournament", _config(tmp), "--out", str(tmp / "other")], "holds results/ but no meta.json"


def tune_with_a_corrupt_tune_json(tmp):
    (tmp / "t").mkdir()
    (tmp / "t" / "tune.json").write_text('{"identity_hash": "3f')
    config = Path(__file__).resolve().parents[1] / "configs" / "tune" / "greedy.yaml"
    return ["tune", str(config), "--out", str(tmp / "t"), "--trials", "1"], "tune.json is unreadable (JSONDecodeError)"


def report_forged_column_types(tmp):
    (tmp / "r" / "results").mkdir(parents=True)
    columns = {"game_id": ["g"] * 2, "deal": [0, 0], "table": [0, 0], "seating": [0, 0], "seat": ["0", "0"],
               "entrant": ["a", "b"], "win": [1.0, 0.0]}
    pq.write_table(pa.table(columns), tmp / "r" / "results" / "part-1.parquet")
    return ["report", str(tmp / "r")], "its seat column is string, not int64"


def replay_an_edited_record(tmp):
    def edit(d):
        d["result"]["players"][0]["route_points"] += 5
    return ["replay", _record(tmp, edit)], "replay to another result than the one stored in it (differs in players)"


FAULT_PROBES = [yaml_alias_bomb, yaml_duplicate_key, round_robin_counted_before_planning, move_time_limit_infinite,
                move_time_limit_1e300, entrant_name_with_an_escape_code, entrant_name_with_a_right_to_left_override,
                ruleset_offering_100_tickets,
                ruleset_drawing_40_tickets, map_ticket_joining_a_city_to_itself, map_with_too_few_tickets,
                policy_file_of_the_wrong_width, learned_weights_not_an_npz,
                map_ticket_worth_1e23_points, map_ticket_to_a_city_no_track_reaches, map_city_with_a_nan_latitude,
                map_names_a_claim_cannot_be_read_back_from, map_city_with_a_tab, results_without_meta_json,
                tune_with_a_corrupt_tune_json, report_forged_column_types,
                replay_an_edited_record]
PROBES += FAULT_PROBES


# ---- analyses that combine runs: refused unless the runs describe the same games ---------------

def _run(tmp: Path, name: str, game: str = "", players: int = 2, seed: int = 1, second: str = "r") -> str:
    """A 2-game run of random players into ``tmp/name`` (greedy plays Ticket to Ride only)."""
    (tmp / f"{name}.yaml").write_text(f"name: {name}\n{game}players: {players}\ngames: 2\nseed: {seed}\n"
                                      f"backend: serial\nentrants: [{{name: a, strategy: random}}, "
                                      f"{{name: {second}, strategy: random}}"
                                      + ", {name: c, strategy: random}" * (players - 2) + "]\n")
    result = CliRunner().invoke(app, ["tournament", str(tmp / f"{name}.yaml"), "--out", str(tmp / name), "--no-report",
                                      "--no-progress"])
    assert result.exit_code == 0, result.output
    return str(tmp / name)


def compare_runs_of_two_games(tmp):
    return ["compare", _run(tmp, "usa"), _run(tmp, "toe", "game: trans_orient\n")], \
        "usa) is ticket_to_ride and B (" + str(tmp / "toe") + ") is trans_orient: runs of different games cannot be compared"


def compare_runs_of_two_games_unpaired(tmp):
    return ["compare", _run(tmp, "usa"), _run(tmp, "toe", "game: trans_orient\n"), "--unpaired"], \
        "runs of different games cannot be compared"


def compare_runs_on_two_maps(tmp):
    return ["compare", _run(tmp, "usa"), _run(tmp, "asia", "map: legendary_asia\n")], \
        "usa) is ticket_to_ride usa and B (" + str(tmp / "asia") + ") legendary_asia: different variants; --unpaired compares them"


def compare_runs_at_two_player_counts(tmp):
    return ["compare", _run(tmp, "two"), _run(tmp, "three", players=3)], \
        "two) has 2 players and B (" + str(tmp / "three") + ") 3: runs at different player counts cannot be compared"


def compare_runs_on_other_deals(tmp):
    return ["compare", _run(tmp, "one"), _run(tmp, "two", seed=2)], \
        "(different seeds): the runs played different deals, so they cannot be paired; --unpaired"


COMPARE_PROBES = [compare_runs_of_two_games, compare_runs_of_two_games_unpaired, compare_runs_on_two_maps,
                  compare_runs_at_two_player_counts, compare_runs_on_other_deals]
PROBES += COMPARE_PROBES


def report_score_of_text(tmp):
    folder = Path(_run(tmp, "r"))
    (part,) = sorted((folder / "results").glob("*.parquet"))
    table = pq.read_table(part)
    at = table.schema.get_field_index("score")
    pq.write_table(table.set_column(at, "score", pa.array([str(v) for v in table.column("score").to_pylist()])), part)
    # Renamed after its new content (a checksum anyone can compute): else it is not counted at all.
    checksum = hashlib.blake2b(part.read_bytes(), digest_size=8).hexdigest()
    part = part.rename(part.with_name(f"part-{'0' * 16}-{checksum}.parquet"))
    return ["report", str(folder)], f"results part {part} is not a ttr-lab results table (its score column is string, not double)"


PROBES.append(report_score_of_text)


# ttr-lab serve refuses at start-up, before it listens (its endpoints' bad requests: tests/human).

def serve_a_map_folder_that_is_not_there(tmp):
    return ["serve", "--map", str(tmp / "nowhere")], "not a folder"


def serve_on_a_port_in_use(tmp):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    serve_on_a_port_in_use.keep = taken  # held open until the probe has run
    return ["serve", "--port", str(taken.getsockname()[1])], "cannot listen on 127.0.0.1:"


def serve_thinking_no_time(tmp):
    return ["serve", "--think", "0"], "--think is above 0"


PROBES += [serve_a_map_folder_that_is_not_there, serve_on_a_port_in_use, serve_thinking_no_time]


# Weights no strategy can play, refused when the strategy is built; training's own files and
# settings; a record path that cannot take the record, refused before the game.

def _weights(tmp: Path, name: str, poison) -> str:
    from ttr_lab.core.game import load_game
    from ttr_lab.strategies.ticket_to_ride.learned import market_slots
    from ttr_lab.strategies.ticket_to_ride.network import Network

    game = load_game("ticket_to_ride", map="usa")
    net = Network.initial(game, hidden=4, seed=1, slots=market_slots(game))
    poison(net.params)
    net.save(tmp / name)
    return name


def learned_weights_with_a_nan(tmp):
    name = _weights(tmp, "nan.npz", lambda p: p["wp"].__setitem__((0, 0), float("nan")))
    return ["play", "-p", "2", "-s", f"learned:weights={name}", "-s", "random"], \
        "nan.npz: parameter wp holds 1 NaN value(s); these weights cannot play"


def learned_weights_with_an_inf(tmp):
    name = _weights(tmp, "inf.npz", lambda p: p["b1"].__setitem__(0, float("inf")))
    cfg = tmp / "cfg.yaml"
    cfg.write_text(CONFIG.replace("strategy: %s}", "strategy: %s, params: {weights: inf.npz}}") % "learned")
    return ["tournament", str(cfg)], "inf.npz: parameter b1 holds 1 infinite value(s)"


def learned_weights_all_zero(tmp):
    name = _weights(tmp, "zero.npz", lambda p: [a.fill(0) for a in p.values()])
    return ["play", "-p", "2", "-s", f"learned:weights={name}", "-s", "random"], "zero.npz: every parameter is zero"


def mcts_learned_prior_with_a_nan(tmp):
    name = _weights(tmp, "nan.npz", lambda p: p["w2"].__setitem__((1, 1), float("nan")))
    return ["play", "-p", "2", "-s", f"mcts_learned:policy={name},iterations=4", "-s", "random"], \
        "nan.npz: parameter w2 holds 1 NaN value(s)"


def _train_config(tmp: Path, extra: str = "") -> str:
    (tmp / "t.yaml").write_text("name: t\nmap: usa\nplayers: 2\nhidden: 4\niterations: 1\nenvs: 1\nsteps: 2\n"
                                "judge_games: 0\n" + extra)
    return str(tmp / "t.yaml")


def train_out_a_file(tmp):
    (tmp / "notes.txt").write_text("mine")
    return ["train", _train_config(tmp), "--out", str(tmp / "notes.txt")], "is a file, not a folder"


def train_out_a_folder_of_the_users_files(tmp):
    (tmp / "mine").mkdir()
    (tmp / "mine" / "config.json").write_text("{}")
    return ["train", _train_config(tmp), "--out", str(tmp / "mine")], "is not a ttr-lab training folder"


def train_lr_infinite(tmp):
    return ["train", _train_config(tmp, "lr: .inf\n")], "lr: Input should be a finite number"


def train_value_weight_infinite_suggests_no_other_key(tmp):
    # The key is spelt right; only its value is out of range: no "did you mean 'answer_weight'?".
    return ["train", _train_config(tmp, "value_weight: .inf\n")], "value_weight: Input should be a finite number\n"


def play_record_over_a_file_it_did_not_write(tmp):
    (tmp / "notes.json").write_text('{"mine": 1}')
    return ["play", "-p", "2", "--record", str(tmp / "notes.json")], "is not a game record ttr-lab can replace"


PROBES += [learned_weights_with_a_nan, learned_weights_with_an_inf, learned_weights_all_zero,
           mcts_learned_prior_with_a_nan, train_out_a_file, train_out_a_folder_of_the_users_files, train_lr_infinite,
           play_record_over_a_file_it_did_not_write, train_value_weight_infinite_suggests_no_other_key]


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


# ---- a strategy's objects: whatever it returns or raises, a forfeit naming its seat --------------

_HEAD = "from dataclasses import replace\nfrom ttr_lab.strategies.random import Random\nclass X(Random):\n" \
        "    def act(self, observation, legal, rng):\n"
_CLAIM = "        claims = [a for a in legal if type(a).__name__ == 'Claim' and a.cards]\n" \
         "        if not claims:\n            return super().act(observation, legal, rng)\n"
STRATEGY_FAULTS = {
    # (the body of act, what the forfeit says in-process[, what it says isolated])
    "half_a_card": (_CLAIM + "        return replace(claims[0], cards=claims[0].cards - 0.5, "
                    "locomotives=claims[0].locomotives + 0.5)\n",
                    "raised IllegalActionError in act: Claim.cards must be a whole number (int), not float"),
    "a_float_from_a_division": (_CLAIM + "        return replace(claims[0], cards=claims[0].cards * 2 / 2)\n",
                                "raised IllegalActionError in act: Claim.cards must be a whole number (int), "
                                "not float"),
    "str_raises": ("        class Odd:\n            def __str__(self):\n                raise RuntimeError('no text')\n"
                   "        return Odd()\n",
                   "chose something that is not an action of the game (Odd): RuntimeError: no text",
                   "chose an illegal action: '<Odd whose str() raised RuntimeError>' is not legal"),
    "base_exception": ("        class Boom(BaseException):\n            pass\n        raise Boom('boom')\n",
                       "raised Boom in act: boom"),
    "generator_exit": ("        raise GeneratorExit('bye')\n", "raised GeneratorExit in act: bye"),
    "error_whose_str_raises": ("        class Mute(Exception):\n            def __str__(self):\n"
                               "                raise ValueError('mute')\n        raise Mute()\n",
                               "raised Mute in act: <its str() raised ValueError>",
                               "raised Mute in act: <Mute whose str() raised ValueError>"),
}


@pytest.mark.parametrize("isolate", [False, True], ids=["in_process", "isolated"])
@pytest.mark.parametrize("fault", list(STRATEGY_FAULTS))
def test_what_a_strategy_returns_or_raises_is_a_forfeit_naming_it(tmp_path, monkeypatch, fault, isolate):
    from ttr_lab.core.results import read_results

    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    body, in_process, *isolated = STRATEGY_FAULTS[fault]
    module = _module(tmp_path, _HEAD + body)
    args = ["tournament", _config(tmp_path, f"{module}:X"), "--out", str(tmp_path / "o"), "--no-report", "--no-progress"]
    result = CliRunner().invoke(app, args + (["--isolate"] if isolate else []))
    assert result.exit_code == 0, (result.output, result.exception)
    frame = read_results(tmp_path / "o")
    lost = frame[frame["forfeit"]]
    assert sorted(lost["game_id"]) == sorted(frame["game_id"].unique()) and set(lost["entrant"]) == {"e"}
    cause = (isolated or [in_process])[0] if isolate else in_process
    assert lost["error"].str.contains(cause, regex=False).all(), lost["error"].tolist()


def test_an_action_field_that_is_a_bool_or_a_float_is_refused_naming_the_field():
    from ttr_lab.core.errors import IllegalActionError
    from ttr_lab.games.ticket_to_ride.actions import Claim, DrawMarket, KeepTickets
    from ttr_lab.games.trans_orient.actions import GiveToken, Play

    for make, field in [(lambda: Claim(1, 2, True, 1), "Claim.cards"), (lambda: Claim(1, 2, 3.0, 1), "Claim.cards"),
                        (lambda: DrawMarket(1.0), "DrawMarket.slot"), (lambda: KeepTickets((0.0,)), "KeepTickets.indices"),
                        (lambda: Play(False), "Play.card"), (lambda: GiveToken(2.0), "GiveToken.colour")]:
        with pytest.raises(IllegalActionError, match=field):
            make()


def test_a_truncated_records_file_is_named_by_report(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "r"
    assert CliRunner().invoke(app, ["tournament", _config(tmp_path), "--out", str(out), "--records", "--no-report",
                                    "--no-progress"]).exit_code == 0
    (part,) = (out / "records").glob("*.jsonl.gz")
    part.write_bytes(part.read_bytes()[:-40])  # a copy or a disk that stopped short
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 2, (result.output, result.exception)  # not click's bare "Aborted."
    last = result.stderr.splitlines()[-1]  # after the report's progress lines
    assert last.startswith("error: records part ") and f"{part.name} is damaged (EOFError" in last, result.stderr


def test_a_map_city_with_a_hyphen_or_punctuation_plays_and_replays(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = _map(tmp_path, lambda name, text: text.replace("Raleigh", "Winston-Salem").replace("Atlanta", "At<l(a=nta"))
    toml = Path(folder) / "map.toml"  # named by its path, so the record's map option loads it again
    toml.write_text("\n".join(f'name = "{folder}"' if line.startswith("name = ") else line
                              for line in toml.read_text().splitlines()) + "\n")
    record = tmp_path / "g.json"
    for seed in range(3):
        played = CliRunner().invoke(app, ["play", "-p", "2", "--map", folder, "--seed", str(seed), "--record", str(record)])
        assert played.exit_code == 0, (played.output, played.exception)
        replayed = CliRunner().invoke(app, ["replay", str(record)])
        assert replayed.exit_code == 0 and "game over" in replayed.output, (replayed.output, replayed.stderr)
    from ttr_lab.games.ticket_to_ride.actions import all_actions, parse_action
    from ttr_lab.games.ticket_to_ride.board import load_board

    board = load_board(folder)
    assert all(parse_action(str(a), board) == a for a in all_actions(board, board.ruleset))


def test_a_round_robin_says_how_many_games_its_deals_mean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("players: 2\ngames: 1\nbackend: serial\ndesign: round_robin\nentrants: ["
                   + ", ".join(f"{{name: e{i}, strategy: random}}" for i in range(3)) + "]\n")
    result = CliRunner().invoke(app, ["tournament", str(cfg), "--out", str(tmp_path / "o"), "--no-report", "--no-progress"])
    assert result.exit_code == 0, (result.output, result.exception)
    assert "note: games: 1 rounds up to 6 games (whole deals of 6" in result.output


def test_compare_names_the_entrants_in_one_run_only_and_compares_two_maps_when_asked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    a, b = _run(tmp_path, "a"), _run(tmp_path, "b", second="renamed")
    result = CliRunner().invoke(app, ["compare", a, b], terminal_width=200)
    assert result.exit_code == 0, (result.output, result.exception)
    assert "paired on 1 deals" in result.output
    assert "in A only (compared with nothing): r" in result.output
    assert "in B only (compared with nothing): renamed" in result.output
    # --pair matches them (the same random players on the same deals: no change at all).
    result = CliRunner().invoke(app, ["compare", a, b, "--pair", "r=renamed"], terminal_width=200)
    assert result.exit_code == 0, (result.output, result.exception)
    assert "only" not in result.output and "│ r " in result.output and "0 changed winner" in result.output
    for pair, message in (("r=nobody", "has no entrant 'nobody' (it has a, renamed)"),
                          ("x=renamed", "has no entrant 'x' (it has a, r)"),
                          ("a=renamed", "already has an entrant 'a', which would be counted twice"),
                          ("r", "--pair r: expected A_NAME=B_NAME"),
                          (("r=renamed", "a=renamed"), "'renamed' is paired with more than one"),
                          (("r=renamed", "r=a"), "A's entrant 'r' is already paired with 'renamed'")):
        pairs = [pair] if isinstance(pair, str) else list(pair)
        result = CliRunner().invoke(app, ["compare", a, b, *[x for p in pairs for x in ("--pair", p)]],
                                    terminal_width=200)
        assert result.exit_code != 0 and message in result.output and len(result.output.strip().splitlines()) == 1, \
            (pair, result.output)
    asia = _run(tmp_path, "asia", "map: legendary_asia\n")
    result = CliRunner().invoke(app, ["compare", a, asia, "--unpaired"], terminal_width=200)
    assert result.exit_code == 0 and "unpaired: two samples (4 games in all)" in result.output, result.output


def test_a_read_only_results_folder_is_one_line_on_resume_and_report(tmp_path, monkeypatch):
    """As root a folder's mode stops nobody: the commands then run as user nobody."""
    import os
    import shutil
    import subprocess
    import tempfile

    home = Path(tempfile.mkdtemp(prefix="ttr-read-only-"))  # outside pytest's root-only folders
    home.chmod(0o755)
    try:
        monkeypatch.chdir(home)
        folder = _run(home, "r")
        for path in [home, *home.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        (home / "user").mkdir(mode=0o777)  # the user's own home: its kernel cache (numba) lives there
        (home / "user").chmod(0o777)
        as_nobody = []
        if os.geteuid() == 0:
            if shutil.which("setpriv") is None:
                pytest.skip("root without setpriv: no user for whom a folder's mode counts")
            # setpriv, not subprocess's user=: the interpreter may live in a folder only root reads.
            as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        # Nothing is played: no kernel needs compiling for this user.
        env = {**os.environ, "HOME": str(home / "user"), "NUMBA_DISABLE_JIT": "1"}
        for args in (["tournament", str(home / "r.yaml"), "--out", folder, "--no-progress"], ["report", folder]):
            result = subprocess.run([*as_nobody, sys.executable, "-m", "ttr_lab.cli", *args], capture_output=True,
                                    text=True, cwd=home, env=env, timeout=300)
            assert result.returncode == 2, (result.stdout, result.stderr)
            assert result.stderr.startswith("error: cannot write") and result.stderr.count("\n") == 1, result.stderr
    finally:
        for path in [home, *home.rglob("*")]:
            path.chmod(0o755)
        shutil.rmtree(home)


def test_an_entrant_name_with_joined_emoji_is_accepted_and_printed_as_it_is(tmp_path, monkeypatch):
    from ttr_lab.core.results import read_results

    monkeypatch.chdir(tmp_path)
    family, flag = "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG.replace("{name: e,", f'{{name: "{family} {flag}\ufe0f",') % "random", encoding="utf-8")
    result = CliRunner().invoke(app, ["tournament", str(cfg), "--out", str(tmp_path / "o"), "--no-report", "--no-progress"],
                                terminal_width=200)
    assert result.exit_code == 0, (result.output, result.exception)
    assert f"{family} {flag}\ufe0f" in set(read_results(tmp_path / "o")["entrant"])
    assert family in result.output and "\\u200d" not in result.output
