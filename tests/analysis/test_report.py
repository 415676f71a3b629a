"""The report on real and hand-made results: every player count, ties, forfeits, stalls; the
notebook runs; records replay and render."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from test_tables import game
from ttr_lab import ConfigError
from ttr_lab.analysis.report import build_report, markdown_table
from ttr_lab.cli import app
from ttr_lab.tournament.config import parse_config
from ttr_lab.tournament.store import ResultStore

ROOT = Path(__file__).resolve().parents[2]


def store_rows(folder: Path, rows, players=2, map="usa"):
    config = parse_config({"players": players, "entrants": [{"name": n, "strategy": "random"} for n in "ABCDE"[:max(players, 2)]],
                           "design": "round_robin" if players < 5 else "fixed", "output": str(folder), "backend": "serial",
                           "map": map}, "t")
    store = ResultStore(folder, config, config.load_game())
    # The store takes only whole rows: the columns these hand-made games leave out are null here.
    store.append([{**dict.fromkeys(store.schema.names), "think_cpu_seconds": 0.0, **r} for r in rows])


TTR_FIGURES = ("win_rates", "ratings", "head_to_head", "score_parts", "score_distributions",  # the generic figures
               "win_rate_over_games", "seat_advantage", "game_lengths", "think_times",
               "ticket_completion", "longest_route", "tracks_claimed", "tracks_claimed_by_winners",
               "tracks_by_entrant")  # Ticket to Ride's
SMALL_RUN_SKIPS = ("score_distributions", "game_lengths", "win_rate_over_games", "seat_advantage", "tracks_claimed",
                   "tracks_claimed_by_winners", "tracks_by_entrant")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_report_for_each_player_count_with_ties_forfeits_and_stalls(tmp_path, players, monkeypatch):
    if players == 4:  # every figure, as a run past the fewest games each figure needs draws them
        from ttr_lab.analysis import report
        from ttr_lab.games.ticket_to_ride.presentation import TicketToRideViews

        monkeypatch.setattr(report, "MIN_GAMES", {})
        monkeypatch.setattr(TicketToRideViews, "figure_min_games", {})
    names = list("ABCDE"[:players])
    rows = []
    for deal in range(4):
        ranks = list(range(1, players + 1))
        rows += game(deal, ranks, names, game_id=f"a{deal}")
        rows += game(deal, [1, 1] + ranks[2:], names[::-1], game_id=f"b{deal}")  # a shared first place
    rows += game(9, list(range(1, players + 1)), names, game_id="f", forfeit=players - 1)
    rows += game(10, list(range(1, players + 1)), names, game_id="s", stalled=True)
    store_rows(tmp_path, rows, players)
    md = build_report(tmp_path)
    text = md.read_text()
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections == ["## Verdict", "## Upsets",  # the answer first, then the long tables
                        "## Entrants", "## Ratings", "## Head to head", "## Pairwise tests", "## Leader against runner-up",
                        "## Metrics", "## Score parts",
                        "## Points by source", "## Tickets and bonuses", "## Seats", "## Player counts", "## Game length", "## Think time", "## Figures"]  # the game's own after score parts
    assert "Ticket to Ride: USA (usa)" in text and "1 forfeited, 1 stalled" in text
    # Metrics: every metric Ticket to Ride declares, with its description.
    for metric in ("route_points", "tickets_completed", "longest_trail", "trains_left", "tracks"):
        assert f"| {metric} |" in text
    assert "| explorer_bonus |" not in text.split("## Metrics")[1].split("## ")[0]  # a Legendary Asia metric
    assert "points from claimed routes" in text
    tickets = text.split("## Tickets and bonuses")[1].split("## ")[0]
    assert "| tickets completed |" in tickets and "| longest-trail bonus (share of games) |" in tickets
    assert "Explorer" not in tickets
    counts = text.split("## Player counts")[1].split("## ")[0]  # one count: said, not Entrants again
    assert f"Every game had {players} players" in counts and "|" not in counts
    entrants = text.split("## Entrants")[1].split("## ")[0]
    assert "| win rate [95% CI] |" in entrants and "win low" not in entrants  # the interval shares the rate's cell
    page = (tmp_path / "report.html").read_text()
    # Ten games: the figures that need more games are not drawn, and the report says so.
    skipped = () if players == 4 else SMALL_RUN_SKIPS
    drawn = [name for name in TTR_FIGURES if name not in skipped]
    assert page.count("data:image/png;base64,") == len(drawn) + 1  # the win rates twice: beside the verdict and among the figures
    assert page.index('<section id="verdict">') < page.index("<h2>Entrants</h2>")
    for name in drawn:
        assert (tmp_path / "report" / f"{name}.png").stat().st_size > 1000
        assert (tmp_path / "report" / f"{name}.svg").exists()
        assert f"(report/{name}.png)" in text
    figures = text.split("## Figures")[1]
    for name in skipped:
        assert not (tmp_path / "report" / f"{name}.png").exists() and f"report/{name}.png" not in text
        assert f"{name} (from " in figures
    assert ("Not drawn for 10 games" in figures) == bool(skipped)


def test_legendary_asia_report_has_the_explorer_bonus(tmp_path):
    names = list("ABCD")
    rows = []
    for deal in range(3):
        rows += game(deal, [1, 2, 3, 4], names, explorer=True)
        rows += game(deal, [2, 1, 4, 3], names[::-1], explorer=True)
    store_rows(tmp_path, rows, players=4, map="legendary_asia")
    text = build_report(tmp_path).read_text()
    assert "Ticket to Ride: Legendary Asia (legendary_asia)" in text
    tickets = text.split("## Tickets and bonuses")[1].split("## ")[0]
    header = next(line for line in tickets.splitlines() if line.startswith("| entrant"))
    assert header == ("| entrant | tickets held | tickets completed | Explorer bonus (share of games) | "
                      "largest network (cities) | mountain routes |")
    metrics = text.split("## Metrics")[1].split("## ")[0]
    assert "| explorer_bonus | points from the Asian Explorer bonus" in metrics
    assert "Asian Explorer bonus frequency" in text and (tmp_path / "report" / "longest_route.png").exists()
    assert "| explorer_bonus |" in text.split("## Score parts")[1].split("## ")[0]


def test_report_errors_are_clear(tmp_path):
    with pytest.raises(ConfigError, match="is not a results folder"):
        build_report(tmp_path)
    result = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2 and "not a results folder" in result.output


def test_markdown_table():
    import pandas as pd

    text = markdown_table(pd.DataFrame({"a": [1, 2], "b": [0.5, float("nan")]}))
    assert text.splitlines() == ["| a | b |", "| --- | --- |", "| 1 | 0.500 |", "| 2 |  |"]


@pytest.fixture(scope="module")
def smoke_results(tmp_path_factory):
    from ttr_lab.tournament import load_config, run_tournament

    out = tmp_path_factory.mktemp("smoke")
    config = load_config(ROOT / "configs/smoke.yaml", {"output": str(out), "backend": "serial"})
    run_tournament(config, show_progress=False)
    return out


def test_the_notebook_runs_on_the_smoke_tournament(smoke_results):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(ROOT / "notebooks/explore.ipynb", as_version=4)
    os.environ["TTR_RESULTS"] = str(smoke_results)
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    finally:
        del os.environ["TTR_RESULTS"]
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs)
    assert "rows," in text and "win_rate" in text  # pandas and DuckDB both answered
    assert any("image/png" in o.get("data", {}) for o in outputs)
    assert any("ttr-viewer" in o.get("data", {}).get("text/html", "") for o in outputs)  # the replay viewer, inline
    assert any("[95% CI]" in o.get("data", {}).get("text/html", "") for o in outputs)  # a presented table


def test_tournament_cli_writes_the_report(smoke_results):
    result = CliRunner().invoke(app, ["tournament", str(ROOT / "configs/smoke.yaml"), "--out", str(smoke_results),
                                      "--backend", "serial", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert (smoke_results / "report.html").exists() and "report:" in result.output


def test_replay_command_and_jupyter_views(tmp_path):
    from ttr_lab import GameRecord, play_game
    from ttr_lab.games.ticket_to_ride import TicketToRide
    from ttr_lab.core.registry import build

    record = play_game(TicketToRide("usa"), [build("greedy", game="ticket_to_ride"), build("ticket_planner", game="ticket_to_ride")], seed=3)
    path = tmp_path / "game.json"
    record.save(path)
    picture = tmp_path / "board.png"
    result = CliRunner().invoke(app, ["replay", str(path), "--turn", "10", "--picture", str(picture)])
    assert result.exit_code == 0, result.output
    assert "turn 10" in result.output and "seat 1 (ticket_planner)" in result.output and picture.stat().st_size > 1000
    result = CliRunner().invoke(app, ["replay", str(path), "--turn", "9999"])
    assert result.exit_code == 2 and "the game ended after" in result.output
    loaded = GameRecord.load(path)
    assert "<table>" in loaded._repr_html_() and loaded.replay()._repr_png_()[:4] == b"\x89PNG"


def test_ticket_completion_by_length_comes_from_the_records(smoke_results):
    from ttr_lab.core.results import read_records, read_results
    from ttr_lab.games.ticket_to_ride.report import completion_by_length, ticket_outcomes

    frame = read_results(smoke_results)
    assert completion_by_length(frame, []).empty  # no records: nothing to count tickets from
    records = read_records(smoke_results)
    tickets = ticket_outcomes(frame, records)
    scored = frame[frame["score"].notna()]
    # Every ticket held at the end of every game, matched to its entrant.
    assert len(tickets) == scored["tickets_held"].sum()
    assert tickets.groupby("entrant")["completed"].sum().to_dict() == scored.groupby("entrant")["tickets_completed"].sum().to_dict()
    table = completion_by_length(frame, records)
    assert table["held"].sum() == len(tickets) and ((table["completion_low"] <= table["completion"])
                                                   & (table["completion"] <= table["completion_high"])).all()
    text = build_report(smoke_results, quiet=True).read_text()
    assert "## Tickets by length" in text and "(report/completion_by_length.png)" in text


def test_the_tickets_of_a_digest_look_up_only_the_ids_of_the_games_recorded(smoke_results):
    import pandas as pd

    from ttr_lab.core.digest import ResultsDigest
    from ttr_lab.core.results import read_records, read_results
    from ttr_lab.games.ticket_to_ride.report import ticket_outcomes

    records = read_records(smoke_results)
    assert records and all(r.game_id is not None and r.entrants is not None for r in records)
    digest = ResultsDigest.of(smoke_results)
    asked: list[list[str]] = []
    chunks = digest.chunks
    digest.chunks = lambda columns=None: asked.append(list(columns or [])) or chunks(columns)  # type: ignore[method-assign]
    pd.testing.assert_frame_equal(ticket_outcomes(digest, records), ticket_outcomes(read_results(smoke_results), records))
    assert asked == [["game_id"]]  # not every game's seats, strategies and entrants, gathered into one frame


def test_replay_a_tournament_game_from_its_results_folder(smoke_results, tmp_path):
    from ttr_lab.core.results import read_results

    frame = read_results(smoke_results)
    game_id = str(frame["game_id"].iloc[-1])
    result = CliRunner().invoke(app, ["replay", str(smoke_results), "--game", game_id, "--html", str(tmp_path / "g.html")])
    assert result.exit_code == 0, result.output
    assert f"game {game_id} of {smoke_results}" in result.output and "game over" in result.output
    final = frame[frame["game_id"] == game_id].sort_values("seat")
    for seat, strategy, score in zip(final["seat"], final["strategy"], final["score"]):
        assert f"seat {seat} ({strategy}) {int(score)} (rank" in result.output  # the record of those rows
    assert (tmp_path / "g.html").read_text().startswith("<!doctype html>")
    upset = CliRunner().invoke(app, ["replay", str(smoke_results), "--game", "upset"])
    assert upset.exit_code == 0, upset.output
    text = (smoke_results / "report.md").read_text() if (smoke_results / "report.md").exists() else \
        build_report(smoke_results, quiet=True).read_text()
    rows = [line for line in text.split("## Upsets")[1].split("## ")[0].splitlines() if "| ttr-lab replay" in line]
    first = rows[0].split("--game ")[1].split(" ")[0]
    assert f"game {first} of" in upset.output  # --game upset is the first game the report lists
    for args, message in (([str(smoke_results)], "name the game to replay with --game"),
                          ([str(smoke_results), "--game", "nope"], "no stored record of game 'nope'"),
                          ([str(tmp_path), "--game", game_id], "keeps no game records")):
        failed = CliRunner().invoke(app, ["replay", *args])
        assert failed.exit_code == 2 and message in failed.output


@pytest.mark.filterwarnings("error:constrained_layout not applied")  # no figure collapses to nothing
def test_a_report_of_games_that_were_all_forfeited(tmp_path):
    """An entrant that crashes in every game leaves no scored game: the report says so instead
    of failing (a forfeit is a result too)."""
    from ttr_lab.tournament import run_tournament

    config = parse_config({"name": "all-forfeit", "players": 2, "games": 4, "backend": "serial",
                           "output": str(tmp_path / "out"),
                           "entrants": [{"name": "g", "strategy": "greedy"},
                                        {"name": "boom", "strategy": "tests_support_strategy:Crashy"}]})
    run = run_tournament(config, show_progress=False)
    assert run.played == 4 and run.summary["forfeits"].sum() == 4
    build_report(tmp_path / "out", quiet=True)
    text = (tmp_path / "out" / "report.md").read_text()
    assert "boom" in text and (tmp_path / "out" / "report.html").exists()


def test_a_small_report_leaves_scipy_stats_unimported(tmp_path):
    """A small run's report (13 deals or fewer per pair) needs no ``scipy.stats``: its tests are
    enumerated in numpy, its t quantiles come from ``scipy.special``. Importing ``scipy.stats`` is
    about a second, as long as a small random-games tournament's whole run."""
    import subprocess
    import sys

    rows = []
    for deal in range(6):
        rows += game(deal, [1, 2], ["A", "B"], game_id=f"a{deal}")
        rows += game(deal, [2, 1] if deal % 2 else [1, 2], ["B", "A"], game_id=f"b{deal}")
    store_rows(tmp_path, rows, 2)
    code = ("import sys\nfrom ttr_lab.analysis.report import build_report\n"
            f"build_report({str(tmp_path)!r}, quiet=True)\n"
            "print(sorted(m for m in sys.modules if m.startswith('scipy.stats')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True)
    assert out.stdout.strip() == "[]", out.stdout
    assert "## Pairwise tests" in (tmp_path / "report.md").read_text()
