"""The analysis knows no game: it reports on a made-up dice game that declares three metrics and
keeps the default views, and shows a game's own tables and figures when its views have them."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from ttr_lab.analysis.game import game_of, score_parts_of
from ttr_lab.analysis.report import build_report
from ttr_lab.core import game as core_game
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.figures import new_figure
from ttr_lab.core.outcome import Metric
from ttr_lab.core.results import schema
from ttr_lab.core.views import GameViews

ANALYSIS = Path(__file__).resolve().parents[2] / "ttr_lab" / "analysis"
GENERIC = ["## Verdict", "## Upsets", "## Entrants", "## Ratings", "## Head to head", "## Pairwise tests",
           "## Leader against runner-up", "## Metrics", "## Score parts",
           "## Seats", "## Player counts", "## Game length", "## Think time", "## Figures"]
FIGURE_KEYS = ("win_rates", "ratings", "head_to_head", "score_parts", "score_distributions", "win_rate_over_games",
               "seat_advantage", "game_lengths", "think_times")
# What a report of a few games draws: not the figures that need more games (report.MIN_GAMES).
SMALL_RUN_KEYS = ("win_rates", "ratings", "head_to_head", "score_parts", "think_times")


class Dice:
    """Just enough of a ``Game`` for the analysis: a name, options, a variant and metrics."""

    name = "dice"
    min_players = 2
    max_players = 4

    def __init__(self, sides: int = 6) -> None:
        self.sides = sides

    title = "Dice"
    options = property(lambda self: {"sides": self.sides})
    variant = property(lambda self: f"d{self.sides}")
    metrics = (
        Metric("dice_points", "points from the dice rolled"),
        Metric("bonus", "points from the bonus card", kind="float"),
        Metric("cards", "ids of the bonus cards drawn", kind="ints", summarise=False),
    )

    def new_game(self, num_players: int, seed: int):
        raise NotImplementedError("the analysis never plays")

    def parse_action(self, text: str):
        return text

    @property
    def views(self) -> GameViews:
        return self.views_class(self)

    views_class = GameViews


class DiceViews(GameViews):
    score_parts = ("dice_points", "bonus")

    def report_tables(self, frame):
        sixes = frame.groupby("entrant")["dice_points"].max().rename("best_dice").reset_index()
        return [("Best throws", "The most dice points in one game.", sixes)]

    def report_figures(self, frame):
        fig = new_figure(4, 3)
        fig.add_subplot().hist(frame["bonus"].dropna())
        return [("bonus_histogram", "Bonus points", fig)]


class DiceWithHooks(Dice):
    views_class = DiceViews


def rows_of(deal, entrants, points, variant="d6"):
    """One game's rows: dice points by seat, bonus 1 to the first seat; the highest score wins."""
    scores = [p + (1.0 if seat == 0 else 0.0) for seat, p in enumerate(points)]
    ranks = [1 + sum(other > s for other in scores) for s in scores]
    winners = ranks.count(1)
    return [{
        "game_id": f"g{deal}-{''.join(entrants)}", "deal": deal, "deal_seed": deal, "table": 0, "seating": 0,
        "game": "dice", "variant": variant, "num_players": len(entrants), "seat": seat, "entrant": entrant,
        "strategy": entrant.lower(), "params": "{}", "params_hash": "h", "score": scores[seat], "rank": ranks[seat],
        "win": 1.0 / winners if ranks[seat] == 1 else 0.0, "turns": 3, "termination": "normal", "forfeit": False,
        "error": "", "decisions": 3, "think_seconds": 0.01,
        "dice_points": points[seat], "bonus": 1.0 if seat == 0 else 0.0, "cards": [seat],
    } for seat, entrant in enumerate(entrants)]


def results_folder(folder: Path, config: dict | None = None, variant: str = "d6") -> Path:
    rows = []
    for deal in range(4):
        rows += rows_of(deal, ["Ann", "Bob", "Cy"], [10 + deal, 8, 5], variant)
        rows += rows_of(deal, ["Cy", "Bob", "Ann"], [6, 9, 12], variant)
    (folder / "results").mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=schema(Dice.metrics)), folder / "results" / "part-0.parquet")
    if config is not None:
        (folder / "config.yaml").write_text(yaml.safe_dump(config))
    return folder


@pytest.fixture
def dice(monkeypatch):
    monkeypatch.setitem(core_game._GAMES, "dice", Dice)


def test_the_analysis_imports_no_game():
    for module in sorted(ANALYSIS.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                if name == "ttr_lab" or name.startswith("ttr_lab."):
                    # ``from ttr_lab import X`` would reach Ticket to Ride through the package's exports.
                    assert name.startswith(("ttr_lab.core", "ttr_lab.analysis")), f"{module.name} imports {name}"


def test_report_on_a_game_without_hooks(tmp_path, dice):
    folder = results_folder(tmp_path, {"name": "dice-test", "game": "dice", "options": {"sides": 6}})
    text = build_report(folder).read_text()
    assert [line for line in text.splitlines() if line.startswith("## ")] == GENERIC
    assert "8 games of Dice (d6), 3 entrants, 3 players; 0 forfeited, 0 stalled." in text
    metrics = text.split("## Metrics")[1].split("## ")[0]
    assert "| metric | description | Ann | Bob | Cy |" in metrics  # entrants by win rate
    # One precision for the whole table (its rows are different quantities, its columns entrants).
    assert "| dice_points | points from the dice rolled | 11.8 | 8.5 | 5.5 |" in metrics
    assert "| bonus | points from the bonus card | 0.5 | 0.0 | 0.5 |" in metrics
    assert "| cards | ids of the bonus cards drawn |  |  |  |" in metrics  # listed, not averaged
    parts = text.split("## Score parts")[1].split("## ")[0]
    assert "| Ann | score |" in parts and "dice_points" not in parts  # no score_parts: the score alone
    page = (folder / "report.html").read_text()
    assert page.count("data:image/png;base64,") == len(SMALL_RUN_KEYS) + 1  # the win rates beside the verdict too
    for key in FIGURE_KEYS:
        if key in SMALL_RUN_KEYS:
            assert (folder / "report" / f"{key}.png").stat().st_size > 1000
        else:
            assert not (folder / "report" / f"{key}.png").exists() and f"{key} (from " in text.split("## Figures")[1]
    for word in ("ticket", "track", "train", "longest", "explorer", "route"):
        assert word not in text.lower() and word not in page.lower()


def test_a_game_adds_score_parts_tables_and_figures(tmp_path, monkeypatch):
    monkeypatch.setitem(core_game._GAMES, "dice", DiceWithHooks)
    folder = results_folder(tmp_path, {"name": "dice-test", "game": "dice", "options": {}})
    text = build_report(folder).read_text()
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections == GENERIC[:9] + ["## Best throws"] + GENERIC[9:]
    assert "The most dice points in one game." in text and "| Ann | 13 |" in text
    parts = text.split("## Score parts")[1].split("## ")[0]
    assert "| Ann | dice_points |" in parts and "| Ann | bonus |" in parts
    assert "![Bonus points](report/bonus_histogram.png)" in text
    assert (folder / "report" / "bonus_histogram.svg").exists()
    assert (folder / "report.html").read_text().count("data:image/png;base64,") == len(SMALL_RUN_KEYS) + 2  # its own, and the win rates beside the verdict


def test_a_game_hook_that_clashes_is_refused(tmp_path, monkeypatch):
    class ClashViews(DiceViews):
        score_parts = ("dice_points", "luck")

        def report_figures(self, frame):
            return [("win_rates", "again", new_figure())]

    class Clash(DiceWithHooks):
        views_class = ClashViews

    monkeypatch.setitem(core_game._GAMES, "dice", Clash)
    with pytest.raises(ValueError, match="undeclared metric.*luck"):
        score_parts_of(Clash())
    ClashViews.score_parts = ("dice_points",)
    folder = results_folder(tmp_path, {"name": "dice-test", "game": "dice"})
    with pytest.raises(ValueError, match="win_rates used twice"):
        build_report(folder)


def test_the_game_of_a_results_folder(tmp_path, dice):
    from ttr_lab.core.results import read_results

    assert game_of(results_folder(tmp_path / "a", {"game": "dice", "options": {"sides": 8}})).options == {"sides": 8}
    folder = results_folder(tmp_path / "b")  # no config.yaml: the rows name the game, default options
    assert game_of(folder, read_results(folder)).variant == "d6"
    folder = results_folder(tmp_path / "c", variant="d20")
    with pytest.raises(ConfigError, match="variant 'd20'.*options are unknown"):
        game_of(folder, read_results(folder))
    folder = results_folder(tmp_path / "d", {"game": "ticket_to_ride", "options": {"map": "usa"}})
    with pytest.raises(ConfigError, match="name game.*dice"):
        game_of(folder, read_results(folder))
    folder = results_folder(tmp_path / "e", {"game": "dice", "options": {"sides": 8}}, variant="d6")
    with pytest.raises(ConfigError, match="variant.*d6.*names variant 'd8'"):
        game_of(folder, read_results(folder))
    folder = results_folder(tmp_path / "f", {"game": "dice", "options": {"sides": 6}})
    (folder / "meta.json").write_text(json.dumps({"game": {"name": "dice", "options": {"sides": 20}}}))
    assert game_of(folder).options == {"sides": 20}  # meta.json first: a tournament writes the resolved game


def test_a_config_yaml_giving_its_games_shorthand_names_that_variant(tmp_path):
    """A config.yaml an earlier ttr-lab wrote beside its results: ``map:`` beside empty options."""
    from ttr_lab.analysis.game import _from_config

    (tmp_path / "config.yaml").write_text("game: ticket_to_ride\nmap: legendary_asia\noptions: {}\n")
    assert _from_config(tmp_path).options["map"] == "legendary_asia"
    (tmp_path / "config.yaml").write_text("game: trans_orient\nmap: null\noptions: {}\n")
    assert _from_config(tmp_path).name == "trans_orient"
