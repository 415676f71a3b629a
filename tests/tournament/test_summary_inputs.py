"""The end-of-tournament summary reads only the result columns it needs (``summary_inputs``),
and gives exactly the table it gives from every column: for each game and map."""

from __future__ import annotations

import pandas as pd
import pytest

from ttr_lab.core.results import read_results
from ttr_lab.core.views import GameViews
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config
from ttr_lab.tournament.summary import INPUTS, error_summary, summary_inputs, summary_table

CASES = [
    ("ticket_to_ride", {"map": "usa"}, ["greedy", "random", "tests_support_strategy:Crashy"]),
    ("ticket_to_ride", {"map": "legendary_asia"}, ["greedy", "random"]),
    ("trans_orient", {}, ["greedy", "random"]),
]


@pytest.mark.parametrize("name, options, strategies", CASES, ids=lambda x: str(x))
def test_the_summary_from_its_inputs_is_the_summary_from_every_column(tmp_path, name, options, strategies):
    config = parse_config({
        "name": "inputs", "game": name, "options": options, "players": len(strategies), "games": 6, "seed": 3,
        "backend": "serial", "output": str(tmp_path / "out"),
        "entrants": [{"name": s.split(":")[-1], "strategy": s} for s in strategies],
    })
    run = run_tournament(config, show_progress=False)
    game = config.load_game()
    inputs = summary_inputs(game)
    assert inputs is not None and set(INPUTS) <= set(inputs)
    full = read_results(tmp_path / "out")
    pruned = read_results(tmp_path / "out", columns=inputs)
    assert len(pruned) == len(full) and set(pruned.columns) < set(full.columns)
    expected = summary_table(full, game)
    pd.testing.assert_frame_equal(run.summary, expected)
    pd.testing.assert_frame_equal(summary_table(pruned, game), expected)
    assert run.summary.attrs == expected.attrs
    pd.testing.assert_frame_equal(error_summary(pruned).reset_index(drop=True),
                                  error_summary(full).reset_index(drop=True))


def test_a_game_whose_summary_lists_no_inputs_reads_every_column():
    class Open(GameViews):
        summary_inputs = None

        def summary_columns(self, frame):  # pragma: no cover - never called here
            return frame

    class Game:
        views = property(lambda self: Open(self))

    class Plain:
        views = property(lambda self: GameViews(self))

    assert summary_inputs(Game()) is None
    assert summary_inputs(Plain()) == INPUTS


def test_pruned_reads_keep_each_game_once(tmp_path):
    config = parse_config({"name": "dup", "players": 2, "games": 4, "seed": 5, "backend": "serial",
                           "output": str(tmp_path / "out"),
                           "entrants": [{"name": "g", "strategy": "greedy"}, {"name": "r", "strategy": "random"}]})
    run_tournament(config, show_progress=False)
    parts = sorted((tmp_path / "out" / "results").glob("*.parquet"))
    copy = parts[0].with_name("zz-copy.parquet")
    copy.write_bytes(parts[0].read_bytes())  # the same games twice on disk
    pruned = read_results(tmp_path / "out", columns=("score",))
    assert len(pruned) == 8 and pruned["game_id"].nunique() == 4
    assert list(pruned.columns) == [c for c in read_results(tmp_path / "out").columns if c in set(pruned.columns)]
