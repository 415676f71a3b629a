"""A worker compiles what the strategies of its batches compile, once and untimed, before any move."""

from __future__ import annotations

from ttr_lab import load_game
from ttr_lab.core.registry import build
from ttr_lab.strategies.ticket_to_ride.search.mcts import MCTS
from ttr_lab.tournament import warm_up as worker


class _Counting:
    calls: list = []

    def warm_up(self, state):
        type(self).calls.append(state)

    def act(self, observation, legal_actions, rng):
        return legal_actions[0]


class _Plain:
    def act(self, observation, legal_actions, rng):
        return legal_actions[0]


def test_a_strategy_s_warm_up_runs_once_per_process_on_a_fresh_state(monkeypatch):
    monkeypatch.setattr(worker, "_WARMED_STRATEGIES", set())
    game = load_game("ticket_to_ride", map="usa")
    _Counting.calls = []
    for _ in range(3):  # three batches in one process
        worker.warm_up(game, 2, [_Counting, _Plain])
    assert len(_Counting.calls) == 1
    state = _Counting.calls[0]
    assert state.num_players == 2 and state.turns == 0 and not state.is_terminal()


def test_the_compiled_strategies_warm_their_kernels_without_changing_the_state():
    game = load_game("ticket_to_ride", map="usa")
    state = game.new_game(4, 3)
    before = state.snapshot()
    MCTS().warm_up(state)
    build("compiled_planner", game="ticket_to_ride").warm_up(state)
    assert state.snapshot() == before


# In a process of its own (a kernel is listed once its process has loaded or compiled it): the
# main job's mcts (a flat search) warmed up at a 4-player table, then every kernel of the package
# loaded, with how many versions.
MAIN_JOB_MCTS = """
import json, sys
from numba.core.registry import CPUDispatcher
from ttr_lab import load_game
from ttr_lab.strategies.ticket_to_ride.search.mcts import MCTS

MCTS().warm_up(load_game("ticket_to_ride", map="usa").new_game(4, 0))
loaded = {f"{k.py_func.__module__}.{k.__name__}": len(k.signatures) for name, m in list(sys.modules.items())
          if name.startswith("ttr_lab") for k in vars(m).values() if isinstance(k, CPUDispatcher) and k.signatures}
print(json.dumps(loaded))
"""


def test_the_main_job_s_mcts_warms_up_only_the_kernels_its_search_calls_each_compiled_once(tmp_path):
    # A first run compiles every kernel loaded here (and all each one calls), so one that the
    # main job's games never call, or a second version of one, is seconds of every first run.
    import json
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    out = subprocess.run([sys.executable, "-c", MAIN_JOB_MCTS], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=900)
    assert out.returncode == 0, out.stderr
    loaded = json.loads(out.stdout.splitlines()[-1])
    # A flat search neither plays out from a leaf nor opens a tree's preferred move first, and
    # plays no random play-out.
    unused = {"ttr_lab.strategies.ticket_to_ride.planner_playouts.planner_playouts",
              "ttr_lab.strategies.ticket_to_ride.planner_decisions.choose",
              "ttr_lab.games.ticket_to_ride.kernels.playout.random_playouts"}
    assert unused & set(loaded) == set()
    assert {k: n for k, n in loaded.items() if n != 1} == {}
    assert "ttr_lab.strategies.ticket_to_ride.search.mcts.candidate_playouts.planner_rounds" in loaded


def test_a_worker_plays_without_importing_pandas_or_the_runner():
    """What a Ray worker imports to play its batches (the backends, the worker, its warm-up)
    leaves out pandas and the tournament runner: about 1 s of every worker's start."""
    import subprocess
    import sys

    code = ("import sys\nfrom ttr_lab.tournament.backends import _warm_up, _timed_batch\n_warm_up()\n"
            "print(sorted(m for m in ('pandas', 'ttr_lab.tournament.runner') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    from ttr_lab.tournament import run_tournament  # still there, on first use

    assert callable(run_tournament)
