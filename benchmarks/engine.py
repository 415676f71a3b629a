"""Engine speed: ``python benchmarks/engine.py [--seconds S]`` (same as ``ttr-lab bench engine``)."""

import argparse

from ttr_lab.bench.engine import engine_benchmark

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine_benchmark(seconds=args.seconds, seed=args.seed)
