"""Tournament backends: ``python benchmarks/tournament.py [--games N] [--workers W]``
(same as ``ttr-lab bench tournament``)."""

import argparse

from ttr_lab.bench.tournament import tournament_benchmark

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--strategy", default="greedy")
    args = parser.parse_args()
    tournament_benchmark(games=args.games, workers=args.workers, strategy=args.strategy)
