"""What reviewing a game costs: a seeded 2-player USA game (greedy against the ticket planner, or
the entrants given) reviewed at a budget (default the review's) in this process, on one core.
The first review of a process also loads the compiled kernels and the policy network: a warm-up
decision is judged first, and its time said apart.

    python benchmarks/review_cost.py --seeds 1 2 3
    python benchmarks/review_cost.py --budget 200 --players greedy mcts_learned
"""

from __future__ import annotations

import argparse
import time

from ttr_lab.core.play import play_game
from ttr_lab.core.registry import StrategySpec
from ttr_lab.games.ticket_to_ride import TicketToRide
from ttr_lab.review import DEFAULT_BUDGET, review_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--players", nargs=2, default=["greedy", "ticket_planner"])
    parser.add_argument("--map", default="usa")
    args = parser.parse_args()
    game = TicketToRide(args.map)
    records = [play_game(game, [StrategySpec(strategy=s).factory("ticket_to_ride")() for s in args.players], seed)
               for seed in args.seeds]
    wall, cpu = time.perf_counter(), time.process_time()
    from ttr_lab.review.runner import judge_slice

    judge_slice(records[0], records[0].strategies, [0, 2], args.budget, 0, 0)  # loads kernels and the network
    print(f"warm-up (two decisions, kernels and network loaded): {time.process_time() - cpu:.1f} s CPU, "
          f"{time.perf_counter() - wall:.1f} s wall")
    for seed, record in zip(args.seeds, records):
        wall, cpu = time.perf_counter(), time.process_time()
        reviewed = review_game(record, budget=args.budget, seed=0, game_id=str(seed))
        spent = sum(d.playouts for d in reviewed.decisions)
        print(f"seed {seed}: {len(reviewed.decisions)} decisions, {spent} play-outs at budget {args.budget}: "
              f"{time.process_time() - cpu:.1f} s CPU, {time.perf_counter() - wall:.1f} s wall")


if __name__ == "__main__":
    main()
