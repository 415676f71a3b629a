"""A worker compiles what the strategies of its batches compile, once and untimed, before any move."""

from __future__ import annotations

from ttr_lab import load_game
from ttr_lab.strategies.ticket_to_ride.compiled_planner import CompiledPlanner
from ttr_lab.strategies.ticket_to_ride.mcts import MCTS
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
    CompiledPlanner().warm_up(state)
    assert state.snapshot() == before
