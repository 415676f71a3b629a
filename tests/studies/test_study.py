"""Studies: a tiny one end to end (serial), "remove each track" on the board, a kill -9 in the
middle of a study and its rerun (nothing lost, nothing played twice), bad study configs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.results import read_results
from ttr_lab.studies import load_study, parse_study, run_study, study_report
from ttr_lab.studies.search import parse_search, run_search

ROOT = Path(__file__).resolve().parents[2]
FAST = [{"name": "greedy", "strategy": "greedy"}, {"name": "long_route", "strategy": "long_route"},
        {"name": "route_focus", "strategy": "route_focus"}]


def study_data(tmp_path, **changes):
    data = {"name": "tiny", "map": "usa", "players": 3, "entrants": FAST, "games": 6, "seed": 4, "backend": "serial",
            "output": str(tmp_path / "study"),
            "factors": [{"rule": "longest_path_bonus", "levels": [0, 10, 20]}]}
    data.update(changes)
    return data


def test_a_tiny_study_plays_every_cell_on_the_same_deals_and_reports(tmp_path):
    study = parse_study(study_data(tmp_path, factors=[{"rule": "longest_path_bonus", "levels": [0, 10]},
                                                      {"rule": "trains_per_player", "range": {"low": 30, "high": 40, "step": 10}}]))
    assert [c.key for c in study.cells] == ["longest_path_bonus=0,trains_per_player=30", "longest_path_bonus=0,trains_per_player=40",
                                            "longest_path_bonus=10,trains_per_player=30", "longest_path_bonus=10,trains_per_player=40"]
    assert study.baseline == {"longest_path_bonus": 10, "trains_per_player": 30}  # the game's 10; 45 is not a level
    run = run_study(study, show_progress=False)
    assert run.complete and run.played == 24
    frames = {c.key: read_results(c.config.output) for c in study.cells}
    seeds = {k: sorted(set(zip(f["game_id"], f["deal_seed"]))) for k, f in frames.items()}
    assert len({tuple(v) for v in seeds.values()}) == 1  # common random numbers
    assert (frames["longest_path_bonus=0,trains_per_player=30"]["longest_bonus"] == 0).all()
    assert frames["longest_path_bonus=10,trains_per_player=30"]["trains_left"].max() <= 30
    report = study_report(study.output)
    paired = report.tables["Paired difference against the baseline"]
    assert set(paired["cell"]) == {c.key for c in study.cells} - {"longest_path_bonus=10,trains_per_player=30"}
    assert paired["paired"].all()
    keys = [k for k, _, _ in report.figures]
    assert {"factor-longest_path_bonus", "factor-trains_per_player", "paired", "balance", "heatmap"} <= set(keys)
    page = report.write().read_text()
    assert "Findings" in page and "Balance per cell" in page and page.count("data:image/png") == len(keys)
    again = run_study(study, show_progress=False)
    assert again.played == 0 and again.already_stored == 24


SMALL_MAP = {  # six cities, nine tracks, short games (few trains): a "remove each" study in seconds
    "map.toml": 'name = "small"\ntitle = "Small"\n[ruleset]\ntrains_per_player = 8\n',
    "cities.csv": "city\nA\nB\nC\nD\nE\nF\n",
    "positions.csv": "city,lat,lon\nA,40,-120\nB,45,-110\nC,40,-100\nD,35,-110\nE,45,-95\nF,35,-95\n",
    "routes.csv": "city_a,city_b,length,color\nA,B,2,gray\nB,C,2,red\nA,D,3,blue\nD,C,1,gray\nC,E,2,gray\n"
                  "C,F,3,green\nE,F,2,gray\nB,E,4,white\nD,F,4,gray\n",
    "tickets.csv": "city_a,city_b,points\nA,C,5\nA,E,8\nB,F,7\nD,E,6\nA,F,9\nB,D,4\nC,F,3\nD,B,5\n",
}


def test_removing_each_track_ranks_them_and_draws_the_board(tmp_path):
    folder = tmp_path / "small"
    folder.mkdir()
    for name, text in SMALL_MAP.items():
        (folder / name).write_text(text)
    data = study_data(tmp_path, players=2, entrants=FAST[:2], games=4, map=str(folder),
                      factors=[{"edit": "remove_track", "levels": "each"}])
    study = parse_study(data)
    assert len(study.cells) == 10 and study.baseline == {"remove_track": None}
    run_study(study, show_progress=False)
    gone = study.output / "cells" / "remove_track=B-E_white"
    assert gone.is_dir() and read_results(gone)["game_id"].nunique() == 4
    assert len(study.cells[3].config.load_game().board.tracks) == 8
    report = study_report(study.output)
    ranked = report.tables["Ranking"]
    assert len(ranked) == 9 and ranked["changed_winner"].is_monotonic_decreasing
    assert set(ranked["removed"]) == {t.label for t in study.base.load_game().board.tracks}
    assert report.figures[0][0] == "board"


def test_a_study_killed_with_9_resumes_without_losing_or_repeating_games(tmp_path):
    data = study_data(tmp_path, players=2, entrants=[{"name": "p", "strategy": "ticket_planner"},
                                                      {"name": "g", "strategy": "greedy"}], games=120)
    data["factors"] = [{"rule": "longest_path_bonus", "levels": [10, 0]}]
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(data))
    cmd = [sys.executable, "-m", "ttr_lab.cli", "study", str(path), "--no-progress", "--no-report"]
    second = tmp_path / "study" / "cells" / "longest_path_bonus=0" / "results"
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 600  # waits for the second cell to have begun: a slow machine just takes longer
    while time.time() < deadline and proc.poll() is None and len(list(second.glob("*.parquet"))) < 2:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = read_results(second.parent)
    assert 0 < partial["game_id"].nunique() < 120, "the kill should land in the second cell"
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    for key in ("longest_path_bonus=10", "longest_path_bonus=0"):
        parts = sorted((tmp_path / "study" / "cells" / key / "results").glob("*.parquet"))
        ids = [g for p in parts for g in pq.read_table(p, columns=["game_id"]).column("game_id").to_pylist()]
        assert len(ids) == 240 and len(set(ids)) == 120  # every game once, both seats, in no two parts


@pytest.mark.parametrize("change, message", [
    ({"factors": [{"rule": "longest_bonus", "levels": [1]}]}, "has no rule parameter 'longest_bonus'"),
    ({"factors": [{"rule": "longest_path_bonus", "edit": "remove_track", "levels": [1]}]}, "either 'rule'"),
    ({"factors": [{"rule": "longest_path_bonus"}]}, "either 'levels' or 'range'"),
    ({"factors": []}, "at least 1 item"),
    ({"factors": [{"rule": "longest_path_bonus", "levels": [0, 10]}], "baseline": {"longest_path_bonus": 5}},
     "is not one of its levels"),
    ({"factors": [{"rule": "longest_path_bonus", "levels": [0]}], "baseline": {"trains": 5}}, "trains is not a factor"),
    ({"factors": [{"edit": "remove_track", "levels": ["Nowhere-Atlantis gray"]}]}, "no track labelled"),
    ({"factors": [{"edit": "track_length", "levels": [2]}]}, "needs a 'target'"),
    ({"factors": [{"edit": "remove_track", "levels": "each"}, {"rule": "longest_path_bonus", "levels": [0]}]},
     "must be the study's only factor"),
    ({"factors": [{"rule": "trains_per_player", "range": {"low": 40, "high": 30, "step": 5}}]}, "below low"),
    ({"factors": [{"rule": "initial_hand", "levels": [40]}]}, "train cards"),
    ({"factors": [{"rule": "longest_path_bonus", "levels": [10, 10]}]}, "level 10 is listed twice"),
])
def test_bad_study_configs_are_one_line_errors(tmp_path, change, message):
    data = study_data(tmp_path)
    data.update(change)
    with pytest.raises(ConfigError, match=message) as info:
        run_study(parse_study(data), show_progress=False)
    assert "\n" not in str(info.value)


def test_bad_configs_on_the_command_line_exit_with_status_2(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(study_data(tmp_path, factors=[{"rule": "longest_bonus", "levels": [1]}])))
    out = subprocess.run([sys.executable, "-m", "ttr_lab.cli", "study", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "longest_bonus" in out.stderr


def test_a_rerun_into_a_folder_of_another_study_is_refused(tmp_path):
    run_study(parse_study(study_data(tmp_path, games=3)), show_progress=False)
    with pytest.raises(ConfigError, match="holds a different study"):
        run_study(parse_study(study_data(tmp_path, games=3, seed=5)), show_progress=False)


def test_the_balance_search_validates_its_best_rules_and_writes_an_options_block(tmp_path):
    data = study_data(tmp_path, games=3)
    del data["factors"]
    data["search"] = {"parameters": {"longest_path_bonus": {"low": 0, "high": 30},
                                     "track_length[Portland-Seattle gray#1]": {"low": 1, "high": 3}},
                      "trials": 3, "validation_games": 3}
    result = run_search(parse_search(data))
    assert len(result.trials) == 3 and result.comparison.paired
    block = yaml.safe_load((tmp_path / "study" / "best-options.yaml").read_text())
    assert block["options"]["ruleset"]["longest_path_bonus"] == result.best["params"]["longest_path_bonus"]
    assert block["options"]["edits"][0]["track_length"][0] == "Portland-Seattle gray#1"
    again = run_search(parse_search(dict(data, search=dict(data["search"], trials=4))))
    assert len(again.trials) == 4  # the stored three kept, one more run
    data["search"]["parameters"] = {"longest": {"low": 0, "high": 3}}
    with pytest.raises(ConfigError, match="no rule parameter 'longest'"):
        parse_search(data)


def test_the_shipped_study_configs_load():
    for path in sorted((ROOT / "configs" / "study").glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        if "search" in data:
            parse_search(data, str(path))
        else:
            assert load_study(path).cells


def test_a_cell_on_other_deals_is_refused_by_the_report(tmp_path):
    from ttr_lab.core.results import result_parts

    study = parse_study(study_data(tmp_path, games=3, factors=[{"rule": "longest_path_bonus", "levels": [0, 10]}]))
    run_study(study, show_progress=False)
    part = result_parts(study.cells[0].config.output)[0]
    table = pq.read_table(part)
    seeds = pa.array([s + 1 for s in table.column("deal_seed").to_pylist()], table.schema.field("deal_seed").type)
    pq.write_table(table.set_column(table.schema.get_field_index("deal_seed"), "deal_seed", seeds), part)
    import hashlib  # renamed after its new content: a part whose checksum fails is not counted at all

    checksum = hashlib.blake2b(Path(part).read_bytes(), digest_size=8).hexdigest()
    os.replace(part, part.replace(".parquet", "").rsplit("-", 2)[0] + f"-{checksum}-compact.parquet")
    with pytest.raises(ConfigError, match="has deal seed .* in baseline cell longest_path_bonus=10 and .* in cell "
                                          "longest_path_bonus=0 .different seeds.: a study's cells play the same deals"):
        study_report(study.output)
