"""What the command line prints after a game or a tournament: rows that add up, tables that fit
an 80-column terminal."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from rich.console import Console

from ttr_lab import play_game
from ttr_lab.games.ticket_to_ride import TicketToRide
from ttr_lab.cli.summary import print_game_summary, print_tournament_summary
from ttr_lab.core.registry import build


def _rows(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("│┃ ").split("│")] for line in text.splitlines() if line.startswith("│")]


@pytest.mark.parametrize("map_name, bonus, absent", [("legendary_asia", "explorer", "longest"),
                                                     ("usa", "longest", "explorer")])
def test_a_game_summary_adds_up_and_shows_only_the_maps_bonus(map_name, bonus, absent):
    game = TicketToRide(map_name)
    record = play_game(game, [build("greedy", game=game.name), build("ticket_planner", game=game.name)], seed=4)
    console = Console(width=160, record=True)
    print_game_summary(game, record, console)
    text = console.export_text()
    header = next(line for line in text.splitlines() if line.startswith("┃"))
    assert bonus in header and absent not in header
    columns = [c.strip() for c in header.strip("┃ ").split("┃")]
    for row in _rows(text):
        cells = dict(zip(columns, row))
        tickets = int(re.match(r"[+-]?\d+", cells["tickets"]).group())
        assert int(cells["routes"]) + tickets + int(cells[bonus]) == int(cells["total"])


def test_the_tournament_summary_fits_80_columns():
    summary = pd.DataFrame([
        {"entrant": "planner_with_a_long_name", "games": 1200, "win_rate": 0.6667, "win_low": 0.525, "win_high": 0.783,
         "mean_score": 106.8, "tickets": 0.941, "bonus": 0.708, "forfeits": 0},
        {"entrant": "random [v2]", "games": 1200, "win_rate": 0.0, "win_low": 0.0, "win_high": 0.074, "mean_score": -37.6,
         "tickets": 0.063, "bonus": 0.0, "forfeits": 12},
    ])
    summary.attrs.update(extra=["tickets", "bonus"], percent=["tickets", "bonus"], caption="tickets: share completed")
    run = SimpleNamespace(summary=summary, errors=pd.DataFrame(), already_stored=0, played=2400, stored=2400, backend_error="", planned=2400,
                          interrupted=False, failed_batches=[], folder=Path("results/x"), seconds=1.0)
    config = SimpleNamespace(name="a-tournament", players=4, design="fixed", load_game=lambda: TicketToRide("usa"))
    console = Console(width=80, record=True)
    print_tournament_summary(console, config, run)
    text = console.export_text()
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= 80
    assert "66.7% [52.5, 78.3]" in text and "94.1%" in text and "70.8%" in text and "-37.6" in text
    assert "random [v2]" in text  # an entrant name is text, not console markup


@pytest.mark.parametrize("game, options, columns", [
    ("ticket_to_ride", {"map": "legendary_asia"}, ["tickets", "bonus"]),
    ("trans_orient", {}, []),
])
def test_the_tournament_summary_of_any_game(tmp_path, game, options, columns):
    from ttr_lab.core.game import load_game
    from ttr_lab.core.results import read_results
    from ttr_lab.tournament import run_tournament
    from ttr_lab.tournament.config import parse_config

    config = parse_config({"name": "t", "game": game, "options": options, "players": 2, "games": 4,
                           "entrants": [{"name": "a", "strategy": "random"}, {"name": "b", "strategy": "random"}],
                           "output": str(tmp_path / "out"), "backend": "serial"})
    run = run_tournament(config, show_progress=False)
    assert list(run.summary.columns) == ["entrant", "games", "win_rate", "win_low", "win_high", "mean_score",
                                         "forfeits", *columns]
    assert run.summary["games"].sum() == 2 * len(read_results(config.output)["game_id"].unique())
    console = Console(width=80, record=True)
    print_tournament_summary(console, config, run)
    text = console.export_text()
    assert load_game(game, **options).title.split(" (")[0] in text and "a " in text


def test_version_and_plain_strategy_list():
    from typer.testing import CliRunner

    from ttr_lab import __version__
    from ttr_lab.cli import app

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"ttr-lab {__version__}"
    result = CliRunner().invoke(app, ["strategies"])
    assert result.exit_code == 0 and "greedy" in result.output and "`" not in result.output  # plain text, no RST


def test_a_rule_variant_is_named_in_its_rows_summary_and_report(tmp_path):
    from ttr_lab.analysis.report import build_report
    from ttr_lab.core.results import read_results
    from ttr_lab.tournament import run_tournament
    from ttr_lab.tournament.config import parse_config

    config = parse_config({"name": "bonus-15", "options": {"map": "usa", "ruleset": {"longest_path_bonus": 15}},
                           "players": 2, "games": 2, "output": str(tmp_path / "out"), "backend": "serial",
                           "entrants": [{"name": "a", "strategy": "random"}, {"name": "b", "strategy": "random"}]})
    run = run_tournament(config, show_progress=False)
    variant = "usa, longest_path_bonus=15"
    assert set(read_results(config.output)["variant"]) == {variant}
    console = Console(width=100, record=True)
    print_tournament_summary(console, config, run)
    assert f"Ticket to Ride: USA ({variant})" in console.export_text()
    text = build_report(config.output, quiet=True).read_text()
    assert text.startswith(f"# Report: bonus-15 — Ticket to Ride: USA ({variant})")
    assert TicketToRide("usa").variant == "usa"  # the map's own rules: the map's name alone
