"""Strategy strength: ``python benchmarks/strength.py [--deals N] [--section ladder2 ...]``
(same as ``ttr-lab bench strength``)."""

import argparse

from ttr_lab.bench.strength import SECTIONS, strength_benchmark

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--section", action="append", choices=SECTIONS)
    args = parser.parse_args()
    strength_benchmark(deals=args.deals, workers=args.workers, seed=args.seed, sections=args.section or SECTIONS)
