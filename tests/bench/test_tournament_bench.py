"""``ttr-lab bench tournament`` on a tiny budget: every figure is there (their values are not
checked beyond sense: the machines are shared)."""

from __future__ import annotations

import math

from ttr_lab.bench.tournament import tournament_benchmark


def test_the_serial_tournament_bench_gives_overhead_files_report_and_memory():
    figures = tournament_benchmark(games=8, strategy="random", ray=False, on_item=lambda item: None).figures
    assert figures["files in the results folder"] == 4  # one merged part, config.yaml, meta.json, .lock
    assert math.isfinite(figures["tournament overhead over the bare games"])
    assert figures["bare play CPU ms per game (play_game alone)"] > 0 and figures["report CPU s"] > 0
    assert figures["driver memory MB after the last batch"] > 0
