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
choice, is what the AEC API costs by itself ("API cost"): no PettingZoo env can beat it; a sixth,
"direct", is a learner's own loop without an environment (the tensor from a seat's writer, the
legal ids, an id applied): the fastest way to get tensors and ids.

Then the batched env (Ticket to Ride's ``envs.vector``): its steps per CPU-second with a random
learner in every sub-game, and its self-play form's, each step handing back every sub-game's
tensor and mask (the issue's goal: 100,000 learner steps/s at 4 players on one core).
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable, Sequence

from ttr_lab.bench.results import BenchResult, FigureTable, Item, benchmarked
from ttr_lab.core.game import has_tensor, load_game

CASES: tuple[tuple[str, dict[str, Any]], ...] = tuple(benchmarked("env"))  # the games catalogue's
GOAL = 2.0
BATCHED_GOAL = 100_000  # learner steps per CPU-second at 4 players, tensors and masks


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


def _direct_steps(game: Any, writers: Any, n: int, seed: int) -> int:
    """The fastest loop a learner can write without an environment (OpenSpiel's style): the
    mover's tensor from its seat's writer, the legal ids, an id chosen at random, its action."""
    rng = random.Random(seed)
    state = game.new_game(n, seed)
    space = game.action_space
    ids, action_of = space.ids, space.action_of
    steps = 0
    while not state.is_terminal():
        if writers is not None:
            writers[state.current_player](state)
        else:
            state.observation_tensor(state.current_player)
        legal = ids(state.legal_actions())
        state.apply(action_of(legal[rng.randrange(len(legal))]))
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


def random_ids(masks: Any, rng: Any) -> Any:
    """One legal id per row of ``masks`` (``(n, actions)`` bool), uniformly: a learner's random
    policy over a batch, in a few numpy calls rather than a Python loop over the rows."""
    import numpy as np

    n, size = masks.shape
    flat = np.flatnonzero(masks.ravel())
    rows = flat // size
    counts = np.bincount(rows, minlength=n)
    starts = np.cumsum(counts) - counts
    picks = flat[starts + (rng.random(n) * counts).astype(np.int64)]
    return picks - (picks // size) * size


def batched_rates(num_envs: int, players: int, seconds: float, seed: int) -> dict[str, float]:
    """CPU-time rates of the batched envs on the game the catalogue names (``BENCHMARKED["batched"]``): learner steps/s (a random learner in every
    sub-game, compiled random opponents), every seat's decisions/s in those games, and self-play
    steps/s (every decision a step); each step hands back tensors and masks."""
    import numpy as np

    from ttr_lab.envs.vector import self_play_vector_env, vector_env

    rates = {}
    name, options = batched_game()
    learner = vector_env(name, num_envs=num_envs, players=players, seed=seed, **options)
    selfplay = self_play_vector_env(name, num_envs=num_envs, players=players, seed=seed, **options)
    for key, env in (("learner", learner), ("self-play", selfplay)):
        rng = np.random.default_rng(seed)
        _, info = env.reset()
        env.step(random_ids(info["action_mask"], rng))  # compiled or loaded before the clock starts
        _, info = env.reset()
        before = learner.decisions
        steps, start = 0, time.process_time()
        while (took := time.process_time() - start) < seconds or not steps:
            _, _, _, _, info = env.step(random_ids(info["action_mask"], rng))
            steps += num_envs
        rates[key] = steps / took
        if env is learner:
            rates["decisions"] = (learner.decisions - before) / took
    return rates


def batched_game() -> tuple[str, dict[str, Any]]:
    """The game (name, options) the batched envs are measured on: the games catalogue says."""
    name, options = benchmarked("batched")[0]
    return name, dict(options)


def _batched_section(result: BenchResult, seconds: float, seed: int, players: Sequence[int], num_envs: int) -> None:
    rows = []
    for n in players:
        rates = batched_rates(num_envs, n, seconds, seed)
        name, options = batched_game()
        label = " ".join([name, *map(str, options.values()), f"{n}p"])
        result.figures[f"{label} batched learner steps/s"] = rates["learner"]
        result.figures[f"{label} batched decisions/s"] = rates["decisions"]
        result.figures[f"{label} batched self-play steps/s"] = rates["self-play"]
        rows.append((label, f"{rates['learner']:,.0f}", f"{rates['decisions']:,.0f}", f"{rates['self-play']:,.0f}",
                     "yes" if rates["learner"] >= BATCHED_GOAL else "no"))
    result.show(FigureTable.of(
        f"Batched env (ttr_lab.envs.vector, {num_envs} sub-games, one core, CPU time, {seconds:g} s per form), "
        f"tensors and masks every step, random learner: learner steps/s (compiled random opponents), "
        f"all seats' decisions/s in those games, self-play steps/s",
        ("game", "learner", "decisions", "self-play", f">= {BATCHED_GOAL:,}"), rows,
        right=("learner", "decisions", "self-play")))


def _timed(fn: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    steps = fn()
    return steps, time.perf_counter() - start


def env_benchmark(seconds: float = 3.0, seed: int = 1, players: Sequence[int] = (2, 4),
                  on_item: Callable[[Item], None] | None = None, num_envs: int = 256) -> BenchResult:
    """Steps per second of the PettingZoo env (tensor and mask every step) and of the engine,
    per game and player count; figures ``"<game> <n>p env steps/s"``, ``... engine steps/s``,
    ``... overhead``; then the batched env's (``... batched learner steps/s``, ``... batched
    decisions/s``, ``... batched self-play steps/s``; Ticket to Ride)."""
    from ttr_lab.envs import pettingzoo_env
    from ttr_lab.envs.table import Table

    result = BenchResult(on_item=on_item)
    rows, ratios = [], []
    for name, options in CASES:
        game = load_game(name, **options)
        assert has_tensor(game), f"{name} has no observation tensor: no case of an env benchmark"
        for n in players:
            env = pettingzoo_env(game, players=n)
            _env_steps(env, seed)  # warm caches (layouts, action spaces)
            floor = pettingzoo_env(game, players=n)
            floor.reset(seed=seed)
            constant = floor.observe(floor.possible_agents[0])
            floor.observe = lambda agent, constant=constant: constant
            table = Table(game, n)
            writers = [game.tensor_writer(s) for s in range(n)] if hasattr(game, "tensor_writer") else None
            loops: dict[str, Callable[[int], int]] = {
                "engine": lambda g: _engine_steps(game, n, g),
                "observed": lambda g: _observed_steps(game, n, g),
                "masked": lambda g: _masked_steps(table, g),
                "direct": lambda g: _direct_steps(game, writers, n, g),
                "floor": lambda g: _env_steps(floor, g, _engine_choice),
                "env": lambda g: _env_steps(env, g),
            }
            totals = {key: [0, 0.0] for key in loops}
            g = seed
            while sum(t[1] for t in totals.values()) < seconds or not totals["env"][0]:
                g += 1  # the same seeded game every way, alternately
                for key, loop in loops.items():
                    steps, took = _timed(lambda: loop(g))
                    totals[key][0] += steps
                    totals[key][1] += took
            rate = {key: steps / took for key, (steps, took) in totals.items()}
            cost = {key: rate["engine"] / rate[key] for key in loops}
            label = f"{name} {game.variant} {n}p"
            for key, figure in (("env", "env"), ("engine", "engine"), ("observed", "engine+observation"),
                                ("masked", "engine+mask"), ("direct", "direct"), ("floor", "API floor")):
                result.figures[f"{label} {figure} steps/s"] = rate[key]
            result.figures[f"{label} overhead"] = cost["env"]
            result.figures[f"{label} mask overhead"] = cost["masked"]
            result.figures[f"{label} direct overhead"] = cost["direct"]
            result.figures[f"{label} API floor overhead"] = cost["floor"]
            rows.append((label, *(f"{rate[k]:,.0f}" for k in ("engine", "observed", "masked", "direct", "floor", "env")),
                         str(g - seed)))
            ratios.append((label, *(f"{cost[k]:.2f}x" for k in ("masked", "direct", "floor", "env")),
                           "yes" if cost["env"] <= GOAL else "no"))
    result.show(FigureTable.of(
        f"RL env speed, steps/s ({seconds:g} s per row): the engine; + observation(); + mask and ids; "
        f"direct (tensor and ids, no env); the PettingZoo API alone (no tensor, no mask); the PettingZoo "
        f"env (tensor + mask)",
        ("game", "engine", "+obs", "+mask", "direct", "API", "env", "games"),
        rows, right=("engine", "+obs", "+mask", "direct", "API", "env", "games")))
    result.show(FigureTable.of(
        "RL env cost, engine steps/s over each loop's: the mask, direct, the PettingZoo API alone, the env",
        ("game", "mask", "direct", "API", "env", f"env <= {GOAL:g}x"), ratios,
        right=("mask", "direct", "API", "env")))
    _batched_section(result, seconds, seed, players, num_envs)
    return result
