"""What the experiment scripts that play matches share: a section played on a backend started for
it and closed after, and the command-line options that choose the deals, the seed and the backend."""

from __future__ import annotations

import argparse
from typing import Callable

from ttr_lab.bench.results import BenchResult, Item
from ttr_lab.tournament.backends import Backend, make_backend


def played_on(backend: str, workers: int | None, section: Callable[[BenchResult, Backend], None],
              on_item: Callable[[Item], None] | None = None) -> BenchResult:
    """``section`` run on ``backend`` (``ray`` with ``workers``, or ``serial``); its result."""
    result = BenchResult(on_item=on_item)
    runner = make_backend(backend, workers=workers)
    try:
        runner.start()
        section(result, runner)
    finally:
        runner.close()
    return result


def match_options(parser: argparse.ArgumentParser, deals: str) -> None:
    """``--deals`` (``deals`` says what one is), ``--seed``, ``--backend``, ``--workers`` and the
    repeatable ``--cpu-ms``."""
    parser.add_argument("--deals", type=int, default=20, help=deals)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=("ray", "serial"), default="ray")
    parser.add_argument("--workers", type=int, default=None, help="Ray workers (default: every CPU)")
    parser.add_argument("--cpu-ms", type=float, action="append", default=[], help="CPU ms per decision (repeat)")
