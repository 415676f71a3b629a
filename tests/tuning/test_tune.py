"""``ttr-lab tune``: configs, trials, resuming, validation and the outputs, on tiny budgets."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from ttr_lab.core.errors import ConfigError
from ttr_lab.tournament.config import parse_config as parse_tournament
from ttr_lab.tuning import parse_config, run_tuning
from ttr_lab.tuning.objective import Measure, evaluate, measure
from ttr_lab.tuning.runner import match_spec

ROOT = Path(__file__).resolve().parents[2]


def config(tmp_path, **changes):
    data = {
        "name": "tiny", "strategy": "greedy", "players": 2, "opponents": ["greedy"], "games_per_trial": 4,
        "trials": 3, "search": "random", "validation_games": 4, "seed": 5, "backend": "serial",
        "output": str(tmp_path / "out"),
    }
    data.update(changes)
    return parse_config(data, "tiny.yaml")


def lines(folder, timed=True):
    """The stored trials; without ``timed``, less the thinking time (the one measured field)."""
    out = [json.loads(line) for line in (Path(folder) / "trials.jsonl").read_text().splitlines()]
    if not timed:
        for t in out:
            if t["measure"]:
                t["measure"]["seconds_per_decision"] = 0
    return out


def expected_best(trials):
    """The best trial as the config defines it: highest objective, the earliest proposal among equals."""
    return min((t for t in trials if t["measure"]), key=lambda t: (-t["measure"]["objective"], t["proposal"]))


def check_validation(run, cfg):
    """Validation plays the tuned against the default head to head, except when they are the same."""
    from ttr_lab.tuning.runner import default_params, rounded

    h2h = run.validation["head_to_head"]
    if run.best_params == rounded(default_params(cfg)):
        assert h2h["same"] and h2h["games"] == 0
    else:
        assert not h2h.get("same") and h2h["games"] == cfg.validation_games


def untimed(measure):
    return {**measure.to_dict(), "seconds_per_decision": 0}


def test_a_tiny_serial_run_writes_every_output(tmp_path):
    cfg = config(tmp_path)
    run = run_tuning(cfg)
    out = Path(cfg.output)
    for name in ("tune.json", "trials.jsonl", "trials.csv", "validation.json", "objective.png", "best.yaml", "report.md"):
        assert (out / name).is_file(), name
    trials = lines(out)
    assert len(trials) == 3 and not any(t["error"] for t in trials)
    # The first trial is the default; greedy against itself on rotated seats wins exactly half.
    assert trials[0]["params"] == {"ticket_bonus": 3.0, "min_points": 1, "locomotive_weight": 0.9}
    assert trials[0]["measure"]["objective"] == 0.5 and trials[0]["measure"]["margin"] == 0.0
    for t in trials:
        m = t["measure"]
        assert m["games"] == 4 and m["low"] <= m["objective"] <= m["high"]
        assert 0 <= m["objective"] <= 1
        assert 0.0 <= t["params"]["ticket_bonus"] <= 15.0 and 1 <= t["params"]["min_points"] <= 7
    assert [t["proposal"] for t in trials] == [0, 1, 2]
    best = expected_best(trials)
    assert run.best.params == best["params"]
    # The snippet is a ready-to-use entrant with the (rounded) best parameters.
    entrant = yaml.safe_load((out / "best.yaml").read_text())[0]
    assert entrant["strategy"] == "greedy" and entrant["params"] == run.best_params
    for k, v in best["params"].items():
        assert math.isclose(entrant["params"][k], v, rel_tol=1e-3)
    parse_tournament({"players": 2, "entrants": [entrant, {"name": "g", "strategy": "greedy"}]})
    v = json.loads((out / "validation.json").read_text())
    assert v["head_to_head"]["games"] == 4 and v["head_to_head"]["low"] <= v["head_to_head"]["tuned_ahead"] <= v["head_to_head"]["high"]
    assert v["tuned_vs_field"]["games"] == 4 and v["default_vs_field"]["objective"] == 0.5
    frame = pd.read_csv(out / "trials.csv")
    assert list(frame["trial"]) == [1, 2, 3] and frame["is_default"].tolist() == [True, False, False]


def test_a_trial_is_the_objective_of_its_games(tmp_path):
    cfg = config(tmp_path, objective="score_margin", games_per_trial=6)
    spec = match_spec(cfg)
    assert len(spec.games) == 6 and {g.seats for g in spec.games} == {(0, 1), (1, 0)}
    m = evaluate(spec, {"min_points": 5})
    assert m.objective == m.margin and m.games == 6 and m.low <= m.margin <= m.high
    # The same parameters on the same deals give the same measure, whatever ran before.
    assert untimed(evaluate(spec, {"min_points": 5})) == untimed(m)


def test_measure_by_hand():
    def game(gid, deal, totals, ranks):
        return [{"game_id": gid, "game": "ticket_to_ride", "deal": deal, "entrant": e, "score": t, "rank": r, "win": 1.0 if r == 1 else 0.0,
                 "tickets_completed": 1, "tickets_held": 2, "think_seconds": 0.1, "decisions": 10}
                for e, t, r in zip(("candidate", "other", "third"), totals, ranks)]
    rows = game("a", 0, (50, 40, 30), (1, 2, 3)) + game("b", 0, (20, 40, 10), (2, 1, 3)) + game("c", 1, (60, 30, 59), (1, 3, 2))
    m = measure(rows, "candidate", "score_margin")
    assert m.games == 3 and math.isclose(m.win_rate, 2 / 3)
    assert math.isclose(m.margin, (10 - 20 + 1) / 3)
    # The interval is over deal means (-5 and 1): two deals.
    assert m.low < -2 < m.high and math.isclose((m.low + m.high) / 2, -2)
    assert m.metrics == {"completion": 0.5} and math.isclose(m.seconds_per_decision, 0.01)
    assert Measure.from_dict(m.to_dict()) == m and m.to_dict()["metric.completion"] == 0.5
    # A trial stored before games declared their metrics reads back with its ticket completion.
    old = {k: v for k, v in m.to_dict().items() if not k.startswith("metric.")}
    assert Measure.from_dict({**old, "completion": 0.5}) == m


def test_a_trans_orient_trial_reports_that_games_own_summary_metrics(tmp_path):
    """Tuning names no ticket column: each game's declared summary metrics, whatever they are."""
    cfg = config(tmp_path, game="trans_orient", players=3, strategy="planner", opponents=["random"],
                 search_space=None, games_per_trial=3)
    m = evaluate(match_spec(cfg), {})
    assert set(m.metrics) == {"objectives_met"} and 0 <= m.metrics["objectives_met"] <= 3


def test_rerunning_resumes_and_a_different_run_is_refused(tmp_path):
    run_tuning(config(tmp_path, trials=2))
    first = lines(tmp_path / "out")
    run = run_tuning(config(tmp_path, trials=4))
    assert run.ran_now == 2
    now = lines(tmp_path / "out")
    assert now[:2] == first and len(now) == 4
    assert len({json.dumps(t["params"], sort_keys=True) for t in now}) == 4  # no proposal replayed
    with pytest.raises(ConfigError, match="different tuning run"):
        run_tuning(config(tmp_path, trials=4, games_per_trial=6))


def test_the_same_config_gives_the_same_trials(tmp_path):
    run_tuning(config(tmp_path, search="tpe", output=str(tmp_path / "a")))
    run_tuning(config(tmp_path, search="tpe", output=str(tmp_path / "b")))
    assert lines(tmp_path / "a", timed=False) == lines(tmp_path / "b", timed=False)


def test_grid_search_covers_the_grid_and_a_crashing_setting_fails_alone(tmp_path):
    cfg = config(tmp_path, strategy="tests_support_strategy:Fragile", opponents=["random"], search="grid",
                 search_space={"nerve": {"low": 0.0, "high": 1.0}}, trials=10)
    run = run_tuning(cfg)
    trials = lines(cfg.output)
    assert sorted(t["params"]["nerve"] for t in trials) == [0.0, 0.5, 1.0]  # capped at the grid's size
    failed = [t for t in trials if t["error"]]
    assert [t["params"]["nerve"] for t in failed] == [1.0]
    assert "forfeited" in failed[0]["error"] and "nerve 1.0 is too much" in failed[0]["error"]
    assert run.best.params["nerve"] in (0.0, 0.5)


@pytest.mark.parametrize("changes, message", [
    ({"strategy": "nonsense"}, "unknown strategy 'nonsense'"),
    ({"search_space": {"bogus": {"low": 0, "high": 1}}}, "has no parameter 'bogus'"),
    ({"search_space": {"ticket_bonus": {"low": 2.0, "high": 1.0}}}, "low (2.0) must be below high (1.0)"),
    ({"search_space": {"ticket_bonus": {"low": 0.0, "high": 1.0, "log": True}}}, "log range needs low > 0"),
    ({"search_space": {"ticket_bonus": {"lo": 0.0}}}, "unknown key lo"),
    ({"search_space": {"min_points": {"low": 0.5, "high": 3.5}}}, "min_points"),
    ({"params": {"ticket_bonus": 2.0}, "search_space": ["ticket_bonus"]}, "both fixed in params and searched"),
    ({"strategy": "random"}, "documents no tunable ranges"),
    ({"objective": "glory"}, "objective"),
    ({"search": "genetic"}, "search"),
    ({"opponents": []}, "opponents"),
    ({"opponents": [{"strategy": "greedy", "params": {"speed": 2}}]}, "opponents.0: strategy 'greedy' has no parameter 'speed'"),
    ({"players": 6}, "players"),
    ({"surprise": 1}, "surprise: unknown key"),
    ({"game": "trans_orient", "players": 3, "map": "usa"},
     "tiny.yaml: map: game 'trans_orient' declares no config shorthand 'map'"),
])
def test_config_mistakes_are_one_line_errors(tmp_path, changes, message):
    with pytest.raises(ConfigError) as info:
        config(tmp_path, **changes)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_the_command_line_on_a_tiny_budget(tmp_path):
    out = tmp_path / "cli"
    done = subprocess.run(
        [sys.executable, "-m", "ttr_lab", "tune", str(ROOT / "configs" / "tune" / "greedy.yaml"), "--backend", "serial",
         "--trials", "2", "--games", "2", "--validation-games", "2", "--out", str(out)],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "best parameters" in done.stdout and "- name: greedy-tuned" in done.stdout
    assert (out / "objective.png").stat().st_size > 1000
    bad = tmp_path / "bad.yaml"
    bad.write_text("strategy: greedy\nopponents: [greedy]\nsearch_space: {ticket_bonus: {low: 1, high: x}}\n")
    done = subprocess.run([sys.executable, "-m", "ttr_lab", "tune", str(bad)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "'high' must be a number" in done.stderr


@pytest.mark.parametrize("name", ["greedy", "ticket_planner", "mcts"])
def test_documented_ranges_hold_the_defaults_and_play_at_their_ends(name):
    from ttr_lab.core.registry import build, parameters, resolve
    from ttr_lab import play_game
    from ttr_lab.games.ticket_to_ride import TicketToRide, load_board
    from ttr_lab.tuning.space import corners, documented_ranges

    cls = resolve(name, "ticket_to_ride")
    ranges = documented_ranges(cls)
    assert len(ranges) >= 2
    signature = parameters(cls)
    for n, r in ranges.items():
        default = signature[n].default
        assert r.low <= default <= r.high, n
        assert r.is_int == isinstance(default, int), n
    fixed = {"steps": 150} if name == "mcts" else {}
    board = load_board("usa")
    for corner in corners(ranges):
        record = play_game(TicketToRide(board), [build(name, {**fixed, **corner}, "ticket_to_ride"), build("greedy", game="ticket_to_ride")], seed=3)
        assert record.result["turns"] > 0


@pytest.mark.ray
def test_ray_tune_gives_the_serial_objectives_and_survives_a_killed_trial(tmp_path, shared_ray):
    marker = tmp_path / "killed-once"
    opponent = {"strategy": "tests_support_strategy:KillsItsWorker", "params": {"marker": str(marker)}}
    cfg = config(tmp_path, backend="ray", workers=2, trials=3, opponents=[opponent], games_per_trial=4)
    run = run_tuning(cfg)
    assert marker.exists()  # a worker died during some trial; the trial ran again
    trials = lines(cfg.output)
    assert len(trials) == 3 and not any(t["error"] for t in trials)
    assert sorted(t["proposal"] for t in trials) == [0, 1, 2]
    spec = match_spec(cfg)
    for t in trials:
        assert untimed(evaluate(spec, t["params"])) == {**t["measure"], "seconds_per_decision": 0}
    # The same config run serially proposes the same parameters and picks the same best,
    # whichever trial Ray finished first.
    serial_cfg = config(tmp_path, trials=3, opponents=[opponent], games_per_trial=4, output=str(tmp_path / "serial"))
    serial = run_tuning(serial_cfg)
    by_proposal = {t["proposal"]: t["params"] for t in trials}
    assert by_proposal == {t["proposal"]: t["params"] for t in lines(serial_cfg.output)}
    assert run.best.params == expected_best(trials)["params"] == serial.best.params
    check_validation(run, cfg)
    assert run.validation["head_to_head"] == serial.validation["head_to_head"]
    # More trials on Ray go on from the stored ones, numbered after them.
    run = run_tuning(config(tmp_path, backend="ray", workers=2, trials=4, opponents=[opponent], games_per_trial=4))
    assert run.ran_now == 1 and len(lines(cfg.output)) == 4 and lines(cfg.output)[-1]["proposal"] == 3


@pytest.mark.ray
def test_on_ray_a_crashing_setting_fails_its_trial_only(tmp_path, shared_ray):
    cfg = config(tmp_path, strategy="tests_support_strategy:Fragile", opponents=["random"], search="grid",
                 search_space={"nerve": {"low": 0.0, "high": 1.0}}, trials=10, backend="ray", workers=2)
    run = run_tuning(cfg)
    trials = lines(cfg.output)
    assert sorted(t["params"]["nerve"] for t in trials) == [0.0, 0.5, 1.0]
    failed = [t for t in trials if t["error"]]
    assert [t["params"]["nerve"] for t in failed] == [1.0] and "nerve 1.0 is too much" in failed[0]["error"]
    # nerve 0.0 and 0.5 play alike (a random player): a tie, which goes to the earlier proposal.
    best = expected_best(trials)
    assert best["params"]["nerve"] in (0.0, 0.5) and run.best.params == best["params"]
    check_validation(run, cfg)


def test_the_tuning_notebook_runs_on_a_tiny_budget(tmp_path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(ROOT / "notebooks/tuning.ipynb", as_version=4)
    for key, value in {"TTR_TUNE_OUT": str(tmp_path / "nb"), "TTR_TUNE_TRIALS": "3", "TTR_TUNE_GAMES": "4",
                       "TTR_TUNE_VALIDATION": "4"}.items():
        monkeypatch.setenv(key, value)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 2  # the objective plot and the scatter
    stray = [o["data"]["text/plain"] for o in outputs if "text/plain" in o.get("data", {})
             and "image/png" not in o["data"] and o["data"]["text/plain"].startswith(("Text(", "<Figure", "<Axes", "[<matplotlib", "<matplotlib"))]
    assert not stray, stray  # a figure cell shows the figure, not the repr of its last call
    assert "greedy-tuned" in "".join(o.get("text", "") for o in outputs)
    assert len((tmp_path / "nb" / "trials.jsonl").read_text().splitlines()) == 3


@pytest.mark.parametrize("path", sorted((ROOT / "configs").rglob("*.yaml")),
                         ids=lambda p: str(p.relative_to(ROOT / "configs")))
def test_every_shipped_config_loads(path):
    from ttr_lab.studies.config import load_study
    from ttr_lab.studies.search import is_search, load_search
    from ttr_lab.tournament import load_config as load_tournament
    from ttr_lab.tuning import load_config as load_tuning

    folder = path.parent.name  # configs/ holds tournaments; its folders, the other commands' configs
    if folder == "study":
        (load_search if is_search(path) else load_study)(path)
    elif folder == "train":
        from ttr_lab.training import load_config as load_training

        load_training(path)
    else:
        (load_tuning if folder == "tune" else load_tournament)(path)


def test_defaults_outside_the_space_are_not_a_trial(tmp_path, capsys):
    cfg = config(tmp_path, search_space={"ticket_bonus": {"low": 5.0, "high": 6.0}}, trials=2)
    run_tuning(cfg)
    trials = lines(cfg.output)
    assert all(5.0 <= t["params"]["ticket_bonus"] <= 6.0 for t in trials)
    assert "lie outside the search space" in capsys.readouterr().out


def test_when_the_defaults_win_validation_does_not_play_them_against_themselves(tmp_path):
    cfg = config(tmp_path, search_space={"min_points": {"choices": [1]}}, trials=2)
    run = run_tuning(cfg)
    v = run.validation
    assert run.best_params == {"min_points": 1}
    assert v["head_to_head"]["same"] and v["head_to_head"]["games"] == 0
    assert v["tuned_vs_field"] == v["default_vs_field"] and v["tuned_vs_field"]["games"] == 4
    assert "no better setting found" in (Path(cfg.output) / "best.yaml").read_text()


def test_a_second_tuning_run_is_refused_while_the_first_holds_the_folder(tmp_path):
    from ttr_lab.tournament.lock import FolderLock

    out = tmp_path / "out"
    out.mkdir()
    holder = FolderLock(out, "a test holder").acquire()  # another open file: flock refuses it too
    try:
        with pytest.raises(ConfigError, match=r"in use by another run \(a test holder, pid "):
            run_tuning(config(tmp_path, trials=1))
        assert not (out / "trials.jsonl").exists()
    finally:
        holder.release()
    assert run_tuning(config(tmp_path, trials=1)).ran_now == 1
    FolderLock(out, "after").acquire().release()  # the finished run let go of it


def test_a_torn_last_trial_is_run_again_and_swallows_nothing(tmp_path):
    run_tuning(config(tmp_path, trials=2))
    path = tmp_path / "out" / "trials.jsonl"
    whole = path.read_text().splitlines()
    path.write_text(whole[0] + "\n" + whole[1][: len(whole[1]) // 2])  # killed while writing the second
    run = run_tuning(config(tmp_path, trials=3))
    now = lines(tmp_path / "out")
    assert run.ran_now == 2 and len(now) == 3 and now[0] == json.loads(whole[0])  # none lost, none twice
    assert len({json.dumps(t["params"], sort_keys=True) for t in now}) == 3


def test_an_unreadable_tune_json_is_one_line(tmp_path):
    run_tuning(config(tmp_path, trials=1))
    (tmp_path / "out" / "tune.json").write_text('{"identity_hash": "ab')
    with pytest.raises(ConfigError, match=r"tune.json is unreadable \(JSONDecodeError\)"):
        run_tuning(config(tmp_path, trials=2))


def test_the_objective_figures_legend_sits_beside_the_trials(tmp_path):
    from ttr_lab.tuning.report import objective_figure

    frame = pd.DataFrame({"trial": range(1, 9), "objective": [0.2, 0.5, 0.4, 0.9, 0.95, 0.3, 0.97, 0.1],
                          "low": [0.1] * 8, "high": [0.99] * 8, "is_default": [True] + [False] * 7,
                          "proposal": range(8)})
    fig = objective_figure(frame, config(tmp_path), tmp_path / "objective.png")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    ax = fig.axes[0]
    legend = ax.get_legend().get_window_extent(renderer)
    assert legend.x0 >= ax.get_window_extent(renderer).x1  # outside the plotting area: it covers no trial


def test_a_strategy_is_one_identity_however_its_parameters_are_written(tmp_path):
    """Greedy with {ticket_bonus: 3}, {ticket_bonus: 3.0} and {} (its default) is one tuned
    strategy and one opponent: the identity is computed from the validated parameters."""
    def identity(params):
        return config(tmp_path, params=params, search_space=["min_points"],
                      opponents=[{"strategy": "greedy", "params": params}]).identity_hash()

    assert identity({"ticket_bonus": 3}) == identity({"ticket_bonus": 3.0}) == identity({})
    assert identity({"ticket_bonus": 4}) != identity({})


def test_a_run_stored_with_its_parameters_as_written_resumes(tmp_path):
    """A tune.json of an earlier ttr-lab (parameters hashed as written) defines the same trials."""
    c = config(tmp_path, params={"ticket_bonus": 3}, search_space=["min_points"])
    old = {**c.identity(), "params": {"ticket_bonus": 3}, "opponents": [{"name": "greedy", "strategy": "greedy"}]}
    assert old != c.identity() and c.defines(old)
    assert not c.defines({**old, "seed": 99}) and not c.defines({**old, "params": {"ticket_bonus": 4}})


def test_a_tuning_config_plays_the_game_its_shorthand_names(tmp_path):
    c = config(tmp_path, map="legendary_asia")
    assert (c.game, c.game_options()) == ("ticket_to_ride", {"map": "legendary_asia"})


def test_a_win_rate_is_a_percentage_everywhere_and_the_figure_ticks_whole_trials(tmp_path):
    """One format for shares (the validation writes 97.5%): a trial's win rate is 12.5% too, not
    0.125; and trials are whole numbers on the figure's axis."""
    from ttr_lab.tuning.report import _markdown, format_value, objective_figure

    assert format_value(0.125, 0.08, 0.189, "win_rate") == "12.5% [8.0, 18.9]"
    assert format_value(3.25, 1.0, 5.5, "score_margin") == "3.2 [1.0, 5.5]"
    frame = pd.DataFrame({"trial": [1, 2, 3], "objective": [0.125, 0.5, 0.25], "low": [0.05, 0.4, 0.1],
                          "high": [0.2, 0.6, 0.4], "is_default": [True, False, False], "proposal": [0, 1, 2],
                          "mean_score": [80.0, 90.0, 85.0], "param.min_points": [1.0, 2.0, 3.0]})
    table = _markdown(frame, "win_rate")
    assert "50.0% [40.0, 60.0]" in table and "0.5 " not in table and "win rate [95% CI]" in table
    fig = objective_figure(frame, config(tmp_path), tmp_path / "objective.png")
    ticks = [t for t in fig.axes[0].get_xticks() if 1 <= t <= 3]
    assert ticks and all(float(t).is_integer() for t in ticks)
    assert fig.axes[0].get_ylim()[1] > 100  # percent, not 0..1
