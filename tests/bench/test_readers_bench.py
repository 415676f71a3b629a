"""``ttr-lab bench readers``' synthetic results set: a results folder every reader takes, with
whole games (one winner's share per game) and a study of two cells over it."""

from __future__ import annotations

from ttr_lab.bench.readers import synthesize
from ttr_lab.core.results import read_results


def test_the_synthetic_set_is_a_results_folder_of_whole_games(tmp_path):
    folder = synthesize(tmp_path / "set", 10)
    frame = read_results(folder)
    assert len(frame) == 40 and frame["game_id"].nunique() == 10 and frame["deal"].nunique() == 3
    assert frame.groupby("game_id")["win"].sum().round(9).eq(1).all()  # ties share the win
    assert set(frame.groupby("game_id")["entrant"].nunique()) == {4}
    assert (tmp_path / "set-study" / "cells" / "other" / "meta.json").is_file()
    assert synthesize(folder, 10) == folder  # written once, then found
