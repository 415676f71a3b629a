"""``ttr-lab bench env``: the RL environments' speed against the raw engine's, in one run.

An environment step here is what a learner pays for each decision: ``env.last()`` (the
observation tensor and the int8 legal mask of the agent to move), a masked random choice, and
``env.step(id)`` (id to action, apply). The engine step is the bare loop a tournament's random
play-out runs: ``legal_actions()``, a random choice, ``apply``. Both are measured on the same
seeded games, alternately, so the ratio (env time over engine time per step) compares like with
like on a shared machine; the issue's goal is an overhead of at most 2x. A third loop, the engine
with an ``observation()`` per step (what ``play_game`` hands strategies), shows how much of the
overhead is the information set itself rather than the tensor and the mask; a fourth, the engine
with the env's legal mask and action ids but no tensor and no PettingZoo (``Table.mask`` and
``apply_id``), is the floor of any environment that hands its learner a mask ("mask cost"); a
fifth, the PettingZoo env with a constant observation (no tensor, no mask) and the engine's own
choice, is what the AEC API costs by itself ("API cost"): no PettingZoo env can beat it.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable, Sequence

from ttr_lab.bench.results import BenchResult, FigureTable, Item
from ttr_lab.core.game import load_game

CASES: tuple[tuple[str, dict[str, Any]], ...] = (("ticket_to_ride", {"map": "usa"}), ("trans_orient", {}))
GOAL = 2.0


def _engine_steps(game: Any, n: int, seed: int) -> int:
    rng = random.Random(seed)
    state = game.new_game(n, seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def _observed_steps(game: Any, n: int, seed: int) -> int:
    """The engine loop as ``play_game`` runs it for strategies: an ``observation()`` each step."""
    rng = random.Random(seed)
    state = game.new_game(n, seed)
    steps = 0
    while not state.is_terminal():
        state.observation(state.current_player)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    return steps


def _masked_steps(table: Any, seed: int) -> int:
    """The engine loop with the env's legal mask and action ids but no tensor and no PettingZoo:
    the floor of any environment that hands its learner a mask."""
    import numpy as np

    rng = random.Random(seed)
    table.new_game(seed)
    steps = 0
    while not table.over:
        legal = np.flatnonzero(table.mask(table.to_move))
        table.apply_id(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps


def _masked_choice(env: Any, obs: Any, rng: random.Random) -> int:
    """A learner's random choice: an id the observed mask allows."""
    import numpy as np

    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.randrange(len(legal))])


def _engine_choice(env: Any, obs: Any, rng: random.Random) -> int:
    """The engine loop's random choice, for an env that observes nothing (the API floor)."""
    legal = env.table.state.legal_actions()
    return env.table.space.ids((legal[rng.randrange(len(legal))],))[0]


def _env_steps(env: Any, seed: int, choose: Callable[[Any, Any, random.Random], int] = _masked_choice) -> int:
    """The PettingZoo loop; with ``_engine_choice`` and an ``observe`` that hands out one
    constant (no tensor, no mask) it is what the AEC API costs by itself, before anything is
    observed: no environment of this API can be faster."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(choose(env, obs, rng))
        steps += 1
    return steps


def _timed(fn: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    steps = fn()
    return steps, time.perf_counter() - start


def env_benchmark(seconds: float = 3.0, seed: int = 1, players: Sequence[int] = (2, 4),
                  on_item: Callable[[Item], None] | None = None) -> BenchResult:
    """Steps per second of the PettingZoo env (tensor and mask every step) and of the engine,
    per game and player count; figures ``"<game> <n>p env steps/s"``, ``... engine steps/s``,
    ``... overhead``."""
    from ttr_lab.envs import pettingzoo_env
    from ttr_lab.envs.table import Table

    result = BenchResult(on_item=on_item)
    rows, ratios = [], []
    for name, options in CASES:
        game = load_game(name, **options)
        for n in players:
            env = pettingzoo_env(game, players=n)
            _env_steps(env, seed)  # warm caches (layouts, action spaces)
            floor = pettingzoo_env(game, players=n)
            floor.reset(seed=seed)
            constant = floor.observe(floor.possible_agents[0])
            floor.observe = lambda agent, constant=constant: constant
            table = Table(game, n)
            totals = {"env": [0, 0.0], "engine": [0, 0.0], "observed": [0, 0.0], "masked": [0, 0.0], "floor": [0, 0.0]}
            g = seed
            while sum(t[1] for t in totals.values()) < seconds or not totals["env"][0]:
                g += 1  # the same seeded game every way, alternately
                for key, fn in (("engine", lambda: _engine_steps(game, n, g)), ("env", lambda: _env_steps(env, g)),
                                ("observed", lambda: _observed_steps(game, n, g)), ("masked", lambda: _masked_steps(table, g)),
                                ("floor", lambda: _env_steps(floor, g, _engine_choice))):
                    steps, took = _timed(fn)
                    totals[key][0] += steps
                    totals[key][1] += took
            env_rate = totals["env"][0] / totals["env"][1]
            engine_rate = totals["engine"][0] / totals["engine"][1]
            observed_rate = totals["observed"][0] / totals["observed"][1]
            masked_rate = totals["masked"][0] / totals["masked"][1]
            floor_rate = totals["floor"][0] / totals["floor"][1]
            overhead = engine_rate / env_rate
            label = f"{name} {game.variant} {n}p"
            result.figures[f"{label} env steps/s"] = env_rate
            result.figures[f"{label} engine steps/s"] = engine_rate
            result.figures[f"{label} engine+observation steps/s"] = observed_rate
            result.figures[f"{label} engine+mask steps/s"] = masked_rate
            result.figures[f"{label} overhead"] = overhead
            result.figures[f"{label} mask overhead"] = engine_rate / masked_rate
            result.figures[f"{label} API floor steps/s"] = floor_rate
            result.figures[f"{label} API floor overhead"] = engine_rate / floor_rate
            rows.append((label, f"{engine_rate:,.0f}", f"{observed_rate:,.0f}", f"{masked_rate:,.0f}",
                         f"{floor_rate:,.0f}", f"{env_rate:,.0f}", str(g - seed)))
            ratios.append((label, f"{engine_rate / masked_rate:.2f}x", f"{engine_rate / floor_rate:.2f}x",
                           f"{overhead:.2f}x", "yes" if overhead <= GOAL else "no"))
    result.show(FigureTable.of(
        f"RL env speed, steps/s ({seconds:g} s per row): the engine; + observation(); + mask and ids; "
        f"the PettingZoo API alone (no tensor, no mask); the PettingZoo env (tensor + mask)",
        ("game", "engine", "+obs", "+mask", "API", "env", "games"),
        rows, right=("engine", "+obs", "+mask", "API", "env", "games")))
    result.show(FigureTable.of(
        "RL env cost, engine steps/s over each loop's: the mask, the PettingZoo API alone, the env",
        ("game", "mask", "API", "env", f"env <= {GOAL:g}x"), ratios, right=("mask", "API", "env")))
    return result
