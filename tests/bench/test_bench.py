"""The benchmarks run on tiny budgets (their figures are not checked: the machines are shared)."""

import pytest
from typer.testing import CliRunner

from ttr_lab.bench.results import FigureTable
from ttr_lab.bench.strength import REFERENCE, strength_benchmark
from ttr_lab.cli import app


def test_strength_reference_section_on_the_tournament_schedule():
    shown = []
    result = strength_benchmark(deals=1, sections=["reference"], backend="serial", on_item=shown.append)
    assert result.items == shown
    two, four = [i for i in shown if isinstance(i, FigureTable)]
    assert [row[0] for row in two.rows] == list(REFERENCE) and [row[0] for row in four.rows] == list(REFERENCE)
    # At 2 players every pair meets on one deal, both ways round: each agent plays 3 x 2 games.
    assert {s.games for k, s in result.figures.items() if k.startswith("reference2")} == {6}
    assert {s.games for k, s in result.figures.items() if k.startswith("reference4")} == {4}
    assert sum(s.win_rate * s.games for k, s in result.figures.items() if k.startswith("reference4")) == pytest.approx(4)


def test_strength_command_draws_its_tables_and_refuses_unknown_sections():
    result = CliRunner().invoke(app, ["bench", "strength", "--deals", "1", "--section", "reference", "--backend", "serial"])
    assert result.exit_code == 0, result.output
    assert "reference agents, 4 players (1 deals x 4 seatings per table)" in result.output
    assert "destination_hungry" in result.output and "strength benchmark took" in result.output
    result = CliRunner().invoke(app, ["bench", "strength", "--section", "ladder9"])
    assert result.exit_code == 2 and "unknown section(s) ladder9" in result.output


def test_engine_benchmark_of_another_game_through_its_protocol():
    result = CliRunner().invoke(app, ["bench", "engine", "--game", "trans_orient", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    for measure in ("play_game random 2p games/s", "play_game random 4p games/s", "stalled 4p random games",
                    "clone() per s"):
        assert measure in result.output, measure
    result = CliRunner().invoke(app, ["bench", "engine", "--game", "nope"])
    assert result.exit_code != 0 and "unknown game 'nope'" in result.output
