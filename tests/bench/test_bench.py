"""The benchmarks run on tiny budgets (their figures are not checked: the machines are shared)."""

import shutil

import pytest
from typer.testing import CliRunner

from ttr_lab.bench.results import FigureTable
from ttr_lab.bench.strength import REFERENCE, strength_benchmark
from ttr_lab.cli import app


def test_strength_reference_section_on_the_tournament_schedule():
    shown = []
    result = strength_benchmark(deals=1, sections=["reference"], backend="serial", on_item=shown.append)
    assert result.items == shown
    two, four = [i for i in shown if isinstance(i, FigureTable)]
    assert [row[0] for row in two.rows] == list(REFERENCE) and [row[0] for row in four.rows] == list(REFERENCE)
    # At 2 players every pair meets on one deal, both ways round: each agent plays 3 x 2 games.
    assert {s.games for k, s in result.figures.items() if k.startswith("reference2")} == {6}
    assert {s.games for k, s in result.figures.items() if k.startswith("reference4")} == {4}
    assert sum(s.win_rate * s.games for k, s in result.figures.items() if k.startswith("reference4")) == pytest.approx(4)


def test_strength_command_draws_its_tables_and_refuses_unknown_sections():
    result = CliRunner().invoke(app, ["bench", "strength", "--deals", "1", "--section", "reference", "--backend", "serial"])
    assert result.exit_code == 0, result.output
    assert "reference agents, 4 players (1 deals x 4 seatings per table)" in result.output
    assert "destination_hungry" in result.output and "strength benchmark took" in result.output
    result = CliRunner().invoke(app, ["bench", "strength", "--section", "ladder9"])
    assert result.exit_code == 2 and "unknown section(s) ladder9" in result.output


def test_engine_benchmark_of_another_game_through_its_protocol():
    result = CliRunner().invoke(app, ["bench", "engine", "--game", "trans_orient", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    for measure in ("play_game random 2p games/s", "play_game random 4p games/s", "stalled 4p random games",
                    "clone() per s"):
        assert measure in result.output, measure
    result = CliRunner().invoke(app, ["bench", "engine", "--game", "nope"])
    assert result.exit_code != 0 and "unknown game 'nope'" in result.output


def test_strength_sections_for_our_best_strategy_name_every_opponent(monkeypatch):
    # The structure only, cheaply: a quick stand-in for the best strategy and a tiny budget.
    import ttr_lab.bench.strength as strength

    monkeypatch.setattr(strength, "BEST", "greedy")
    monkeypatch.setattr(strength, "BEST_STEPS", 40)
    result = strength_benchmark(deals=1, sections=["versus", "table4"], backend="serial")
    assert {k for k in result.figures if k.startswith("versus2")} == {
        f"versus2 {ours}>{agent}" for ours in ("greedy", "ticket_planner") for agent in REFERENCE}
    assert {s.games for k, s in result.figures.items() if k.startswith("versus2")} == {2}
    assert [(k, s.games) for k, s in result.figures.items() if k.startswith("versus4")] == [("versus4 greedy>3xlong_route", 4)]
    assert sum(s.win_rate * s.games for k, s in result.figures.items()
               if k.startswith("table4 ") and "ahead" not in k) == pytest.approx(4)
    assert {k for k in result.figures if "ahead of" in k} == {
        "table4 greedy ahead of ticket_planner", "table4 greedy ahead of long_route", "table4 greedy ahead of one_step"}
    monkeypatch.setattr(strength, "BEST", "mcts")
    result = strength_benchmark(deals=1, sections=["budget"], backend="serial")
    budget = result.figures["budget mcts x4>x1"]
    assert budget.games == 2
    table = next(i for i in result.items if isinstance(i, FigureTable))
    assert [row[1] for row in table.rows] == ["160", "40"]


def test_the_engine_bench_samples_the_turn_starts_the_game_itself_marks():
    """The sample of per-operation timings is the states where a turn starts, as the game's views
    say (Ticket to Ride: its TURN phase), found without the bench naming the game's phases."""
    import random

    from ttr_lab.bench.engine import sample_states
    from ttr_lab.core.game import load_game
    from ttr_lab.games.ticket_to_ride import Phase

    game = load_game("ticket_to_ride", map="usa")
    expected, rng = [], random.Random(1)
    for g in range(2):  # the sample as it was taken when the bench read the phase itself
        state = game.new_game(4, 1 + g)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == Phase.TURN:
                expected.append(state.snapshot())
            state.apply(legal[rng.randrange(len(legal))])
    assert [s.snapshot() for s in sample_states(game, 4, 2, 1)] == expected


def test_what_each_bench_measures_comes_from_the_games_catalogue(monkeypatch):
    from ttr_lab import games
    from ttr_lab.bench.results import benchmarked

    assert benchmarked("strength") == [("ticket_to_ride", {"map": "usa"})]
    monkeypatch.setattr(games, "BENCHMARKED", {"engine": (("trans_orient", {}),)})
    assert benchmarked("engine") == [("trans_orient", {})]
    assert benchmarked("env") == [(games.DEFAULT, {})]  # the catalogue says nothing: the house game


def test_equal_time_section_plays_new_against_classic_per_budget_and_draws_the_curve(monkeypatch, tmp_path):
    import equal_time

    monkeypatch.setattr(equal_time, "RATE_DECISIONS", 2)
    result = equal_time.equal_time_benchmark(deals=1, backend="serial", cpu_ms=(2.0, 4.0), players=(2, 4))
    cells = {k: s.games for k, s in result.figures.items() if k.startswith("equal_time ") and "ms" in k}
    assert cells == {"equal_time 2p 2ms": 2, "equal_time 2p 4ms": 2, "equal_time 4p 2ms": 4, "equal_time 4p 4ms": 4}
    curve = result.figures["equal_time curve"]
    assert [(n, ms) for n, ms, *_ in curve] == [(2, 2.0), (2, 4.0), (4, 2.0), (4, 4.0)]
    assert all(low <= win <= high for _, _, win, low, high in curve)
    native, classic = result.figures["equal_time playouts/cpu-s 4p"]
    assert native > 0 and classic > 0
    path = tmp_path / "curve.png"
    equal_time.equal_time_figure(curve).savefig(path)
    assert path.stat().st_size > 0


def test_equal_time_may_give_the_new_search_a_multiple_of_the_classics_time_on_deals_of_its_own(monkeypatch):
    import equal_time

    played = []

    def record(entrants, games, game, runner):
        played.append(({e["strategy"]: e["params"]["cpu_ms"] for e in entrants}, [g.deal_seed for g in games]))
        return real(entrants, games, game, runner)

    real = equal_time.play_match
    monkeypatch.setattr(equal_time, "play_match", record)
    monkeypatch.setattr(equal_time, "RATE_DECISIONS", 1)
    for factor in (1.0, 3.0):
        equal_time.equal_time_benchmark(deals=1, backend="serial", cpu_ms=(2.0,), players=(2,), new_factor=factor)
    (equal, equal_seeds), (tripled, tripled_seeds) = played
    assert equal == {"mcts": 2.0, "mcts_classic": 2.0} and tripled == {"mcts": 6.0, "mcts_classic": 2.0}
    assert set(equal_seeds).isdisjoint(tripled_seeds)
    with pytest.raises(ValueError, match="time factor must be positive"):
        equal_time.equal_time_benchmark(deals=1, backend="serial", new_factor=0.0)


def test_equal_time_refuses_a_budget_or_player_count_it_cannot_play():
    from equal_time import equal_time_benchmark

    with pytest.raises(ValueError, match="positive milliseconds"):
        equal_time_benchmark(deals=1, backend="serial", cpu_ms=(0.0,))
    with pytest.raises(ValueError, match="2 and/or 4 players"):
        equal_time_benchmark(deals=1, backend="serial", players=(3,))


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler here")
def test_the_c_calibration_is_timed_in_the_same_rounds_as_the_native_play_outs(tmp_path, monkeypatch):
    """``--calibration`` says its figures are interleaved round by round: the C play-out runs in
    every round beside the native one, not once after them (built once)."""
    from ttr_lab.bench import native
    from ttr_lab.core.game import load_game

    source = tmp_path / "c"
    source.mkdir()
    # A stand-in C play-out: it notes each call (players, games) and plays nothing.
    (source / "ttr.c").write_text('#include <stdio.h>\n#include <stdlib.h>\nint main(int c, char **v) {\n'
                                  '  FILE *f = fopen(getenv("CALLS"), "a"); fprintf(f, "%s %s\\n", v[2], v[3]);\n'
                                  '  fclose(f); return 0; }\n')
    (source / "mkmap.py").write_text("print('map')\n")
    calls = tmp_path / "calls.txt"
    monkeypatch.setenv("CALLS", str(calls))
    order = []
    game = load_game("ticket_to_ride")
    real_games, real_c = game.random_games, native.CPlayout.seconds
    monkeypatch.setattr(game, "random_games", lambda n, seeds: order.append(("native", n)) or real_games(n, seeds),
                        raising=False)
    monkeypatch.setattr(native.CPlayout, "seconds", lambda self, n, games: order.append(("C", n)) or real_c(self, n, games))
    native.native_benchmark(game, seconds=0.05, calibration=str(source), map_folder=tmp_path)
    for n in (2, 4):
        mine = [kind for kind, players in order if players == n][1:]  # after the warm-up call
        assert mine and mine == ["native", "C"] * (len(mine) // 2)  # C beside native in every round
    made = [tuple(map(int, line.split())) for line in calls.read_text().splitlines()]
    assert len(made) == sum(kind == "C" for kind, _ in order)  # the C program itself ran each time


def test_curve_section_plays_one_strategy_by_cpu_budget_against_a_fixed_opponent():
    from time_curve import time_curve_benchmark

    result = time_curve_benchmark(deals=1, backend="serial", budgets=(2.0, 4.0), strategy="mcts_tree",
                                  opponent="ticket_planner")
    assert [ms for ms, *_ in result.figures["curve"]] == [2.0, 4.0]
    assert all(low <= win <= high for _, win, low, high, _ in result.figures["curve"])
    assert result.figures["curve 4ms"].games == 2  # one deal, both seatings
    table = next(item for item in result.items if not isinstance(item, str))
    assert table.columns[4] == "mean lead (pts)" and len(table.rows) == 2


class _Budgeted:
    """A stand-in search: the planner's move above one play-out; at one, the last legal move on
    stream 0's shadow and the first on the other (so one budget disagrees with itself)."""

    def __init__(self, iterations: int = 1) -> None:
        from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

        self.iterations, self.planner = iterations, TicketPlanner()

    def search(self, observation, legal, rng):
        from ttr_lab.strategies.ticket_to_ride.search.result import SearchResult

        anchor = self.planner.act(observation, legal, rng)
        action = anchor if self.iterations > 1 else legal[-1] if rng.random() < 0.5 else legal[0]
        return SearchResult.of_rows(action, [("a", 1, 0.0)] * self.iterations, playouts=self.iterations)

    def act(self, observation, legal, rng):
        return self.search(observation, legal, rng).action


def test_convergence_section_compares_each_budgets_answers_with_the_largest_and_itself(monkeypatch):
    import convergence

    real = convergence.build
    monkeypatch.setattr(convergence, "build", lambda name, params, game: (
        _Budgeted(**params) if name == "stand-in" else real(name, params, game)))
    from ttr_lab.bench.results import BenchResult

    shown = BenchResult()
    convergence.convergence_section(shown, 1, 7, budgets=(2, 1), strategy="stand-in")
    (one, turns, overrule, with_largest, with_itself, _), (two, turns2, overrule2, largest2, itself2, _) = \
        shown.figures["convergence"]
    assert (one, two) == (1, 2) and turns == turns2 > 10
    assert (overrule2, largest2, itself2) == (0.0, 1.0, 1.0)  # the planner's move, every time
    assert 0.0 < overrule < 1.0 and 0.0 < with_itself < 1.0
    assert with_largest == pytest.approx(1.0 - overrule)  # the largest answers the planner's move
    assert table_edges(shown) == "-"  # a stand-in without edge() has no fresh verdict


def test_convergence_section_runs_the_learned_search_by_play_outs():
    from convergence import convergence_benchmark

    result = convergence_benchmark(deals=1, budgets=(8, 4))
    assert [row[0] for row in result.figures["convergence"]] == [4, 8]
    table = next(item for item in result.items if not isinstance(item, str))
    assert table.columns[3] == "agrees with 8" and [row[5] for row in table.rows] != ["0.0", "0.0"]
    for *_, edges in result.figures["convergence"]:  # an overrule beat the planner's move in its race
        assert all(race > 0 and len(rest) == 3 for _, race, *rest in edges)


def test_the_true_state_edge_plays_both_moves_out_in_the_real_position():
    """The last turn of a planner game (seed 2): in the real position the winning claim wins by
    17 where the planner's move loses by 3, so its true-state edge is exactly 20; the planner's
    move against itself is 0."""
    import json
    import random
    from pathlib import Path

    from convergence import played_edge
    from ttr_lab.games.ticket_to_ride import TicketToRide
    from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

    golden = Path(__file__).parent.parent / "golden" / "mcts_tree" / "usa-2p-seed2-last-turn.json"
    state = TicketToRide("usa").restore(json.loads(golden.read_text(encoding="utf-8")))
    legal = state.legal_actions()
    anchor = TicketPlanner().act(state.observation(0), legal, random.Random(0))
    winner = next(a for a in legal if str(a).startswith("claim El Paso-Santa Fe"))
    assert played_edge(state, anchor, anchor, 1) == 0.0
    assert played_edge(state, anchor, winner, 1) == 20.0
    assert state.legal_actions() == legal  # played in copies


def table_edges(shown):
    return next(item for item in shown.items if not isinstance(item, str)).rows[0][-1]


def test_the_package_ships_only_the_benchmarks_the_command_line_runs():
    """The experiments live in the repository's benchmarks/ folder: every module of ttr_lab/bench
    is reached from ``ttr-lab bench``'s commands, and each experiment moved out is in the
    changelog's table of moved modules."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    seen, todo = set(), ["ttr_lab/cli/bench.py"]
    while todo:
        text = (root / todo.pop()).read_text(encoding="utf-8")
        for name in re.findall(r"from ttr_lab\.bench(?:\.(\w+))? import (\w+)", text):
            module = name[0] or name[1]
            if module not in seen and (root / "ttr_lab" / "bench" / f"{module}.py").exists():
                seen.add(module)
                todo.append(f"ttr_lab/bench/{module}.py")
    shipped = {p.stem for p in (root / "ttr_lab" / "bench").glob("*.py")} - {"__init__"}
    assert shipped - seen == set(), "ttr_lab/bench holds modules no ttr-lab bench command runs"
    changelog = (root / "docs" / "changelog.md").read_text(encoding="utf-8")
    for script in ("equal_time", "time_curve", "convergence"):
        assert (root / "benchmarks" / f"{script}.py").exists()
        assert any(line.startswith(f"| `bench.{script}`") and f"`benchmarks/{script}.py`" in line
                   for line in changelog.splitlines()), f"docs/changelog.md does not list bench.{script} as moved"


def test_a_section_that_became_a_script_says_where_it_went():
    from typer.testing import CliRunner

    from ttr_lab.cli import app

    result = CliRunner().invoke(app, ["bench", "strength", "--section", "curve", "--backend", "serial"])
    assert result.exit_code != 0
    assert "python benchmarks/time_curve.py" in result.output and "Traceback" not in result.output
