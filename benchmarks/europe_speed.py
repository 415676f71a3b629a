"""An experiment: what Europe's rules (tunnels, ferries, 47 cities) cost a decision, against the USA.

In one process, rounds alternate the maps on the same seeds so a shared machine's load falls on
both alike; each figure is CPU time per decision, and the ratio is Europe's over the USA's
(the goal: at most 1.5):

- a random play-out: the engine's bare loop (``legal_actions()``, a random choice, ``apply``);
- the planner's whole games: ``TicketPlanner`` at every seat, every decision;
- the planner's compiled play-outs from a new deal (``planner_playouts``, a search's play-out),
  per decision of those games;
- the batched env on Europe: learner steps per CPU-second (a random learner, compiled random
  opponents, tensors and masks every step; the goal: 100,000).

``--json`` prints the figures as one JSON object (a comparison of two checkouts reads it).
Run from the repository:

    python benchmarks/europe_speed.py --rounds 3 --seconds 2
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from ttr_lab.bench.env import random_ids
from ttr_lab.core.game import load_game
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS
from ttr_lab.strategies.ticket_to_ride.planner_playouts import planner_playouts
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

MAPS = ("usa", "europe")


def random_decisions(game, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Random games from ``seed`` on for ``seconds`` of CPU: (decisions, CPU seconds)."""
    decisions, cpu = 0, 0.0
    while cpu < seconds or not decisions:
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        begin = time.process_time()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        cpu += time.process_time() - begin
        seed += 1
    return decisions, cpu


def planner_decisions(game, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Whole games of ticket planners: (decisions, CPU seconds)."""
    decisions, cpu = 0, 0.0
    while cpu < seconds or not decisions:
        seats = [TicketPlanner() for _ in range(players)]
        state = game.new_game(players, seed)
        rng = random.Random(seed)
        begin = time.process_time()
        while not state.is_terminal():
            legal = state.legal_actions()
            p = state.current_player
            state.apply(legal[0] if len(legal) == 1 else seats[p].act(state.observation(p), legal, rng))
            decisions += 1
        cpu += time.process_time() - begin
        seed += 1
    return decisions, cpu


def playout_decisions(game, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Compiled planner play-outs from new deals: (decisions, CPU seconds)."""
    batch = 20
    seeds = np.arange(batch, dtype=np.uint64)
    scores = np.zeros((batch, players), dtype=np.int64)
    decisions, cpu = 0, 0.0
    while cpu < seconds or not decisions:
        start = game.new_game(players, seed)
        begin = time.process_time()
        decisions += planner_playouts(start.face.g, start.s, seeds, DEFAULT_PARAMS, scores)
        cpu += time.process_time() - begin
        seed += 1
    return decisions, cpu


def batched_learner(map_name: str, players: int, seconds: float, seed: int, num_envs: int = 256) -> float:
    """The batched env's learner steps per CPU-second on ``map_name``."""
    from ttr_lab.envs.vector import vector_env

    env = vector_env("ticket_to_ride", num_envs=num_envs, players=players, seed=seed, map=map_name)
    rng = np.random.default_rng(seed)
    _, info = env.reset()
    env.step(random_ids(info["action_mask"], rng))  # compiled or loaded before the clock
    _, info = env.reset()
    steps, start = 0, time.process_time()
    while (took := time.process_time() - start) < seconds or not steps:
        _, _, _, _, info = env.step(random_ids(info["action_mask"], rng))
        steps += num_envs
    return steps / took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per map, form and round")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5800)
    parser.add_argument("--maps", nargs="+", default=list(MAPS))
    parser.add_argument("--batched", action="store_true", help="also the batched env on Europe (2 and 4 players)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = {m: load_game("ticket_to_ride", map=m) for m in args.maps}
    forms = {"random": random_decisions, "planner": planner_decisions, "playouts": playout_decisions}
    for m, game in games.items():  # compile or load every kernel before any clock
        planner_decisions(game, args.players, 0.0, args.seed)
        playout_decisions(game, args.players, 0.0, args.seed)
    totals = {(f, m): [0, 0.0] for f in forms for m in games}
    for r in range(args.rounds):
        for f, measure in forms.items():
            for m in (args.maps if r % 2 == 0 else reversed(args.maps)):
                d, cpu = measure(games[m], args.players, args.seconds, args.seed + 1000 * r)
                totals[f, m][0] += d
                totals[f, m][1] += cpu
    figures = {f"{f} {m} us/decision": 1e6 * c / d for (f, m), (d, c) in totals.items()}
    if len(args.maps) == 2:
        a, b = args.maps
        for f in forms:
            figures[f"{f} {b}/{a}"] = figures[f"{f} {b} us/decision"] / figures[f"{f} {a} us/decision"]
    if args.batched:
        for n in (2, 4):
            figures[f"batched europe {n}p learner steps/CPU-s"] = batched_learner("europe", n, args.seconds, args.seed)
    if args.json:
        print(json.dumps(figures))
    else:
        for k, v in figures.items():
            print(f"{k:45s} {v:12,.2f}")


if __name__ == "__main__":
    main()
