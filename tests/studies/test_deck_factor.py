"""A study over the USA map's ticket decks: the map as a factor (an option factor), each cell on
its own variant, named in its results; an unknown deck is a one-line error."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.results import read_results
from ttr_lab.studies import load_study, parse_study, run_study

ROOT = Path(__file__).resolve().parents[2]
DECKS = ["usa", "usa_1910", "usa_mega", "usa_big_cities"]


def test_the_shipped_deck_study_has_a_cell_per_deck():
    study = load_study(ROOT / "configs" / "study" / "usa-1910-decks.yaml")
    assert [c.key for c in study.cells] == [f"map={d}" for d in DECKS]
    assert [c.config.load_game().board.name for c in study.cells] == DECKS
    assert study.baseline == {"map": "usa"}


def test_a_tiny_deck_study_plays_each_variant(tmp_path):
    study = parse_study({
        "name": "decks", "map": "usa", "players": 2, "games": 2, "seed": 3, "backend": "serial",
        "output": str(tmp_path / "study"),
        "entrants": [{"name": "greedy", "strategy": "greedy"}, {"name": "long_route", "strategy": "long_route"}],
        "factors": [{"option": "map", "levels": DECKS}]})
    run = run_study(study, show_progress=False)
    assert run.complete and run.played == 8
    for cell, deck in zip(study.cells, DECKS):
        frame = read_results(cell.config.output)
        assert set(frame["variant"]) == {deck}
        trotter = frame["globetrotter_bonus"] if "globetrotter_bonus" in frame else None
        if deck in ("usa_1910", "usa_mega"):
            assert trotter is not None and set(trotter) <= {0, 15}
        else:
            assert trotter is None or trotter.isna().all()


@pytest.mark.parametrize("factor,message", [
    ({"option": "map", "levels": ["usa", "usa_2020"]}, "unknown map 'usa_2020'"),
    ({"option": "map", "rule": "longest_path_bonus", "levels": ["usa"]}, "either 'rule'"),
])
def test_bad_deck_factors_are_one_line_errors(tmp_path, factor, message):
    data = {"name": "decks", "map": "usa", "players": 2, "games": 2, "seed": 3, "backend": "serial",
            "output": str(tmp_path / "study"), "entrants": [{"name": "greedy", "strategy": "greedy"},
                                                            {"name": "random", "strategy": "random"}],
            "factors": [factor]}
    with pytest.raises(ConfigError, match=message) as exc:
        parse_study(data)
    assert "\n" not in str(exc.value)
