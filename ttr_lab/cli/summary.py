"""What the command line prints at the end: a finished game, tournament or tuning run."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ttr_lab.cli.console import make_console, printable

if TYPE_CHECKING:
    from ttr_lab.core.game import Game
    from ttr_lab.core.record import GameRecord
    from ttr_lab.tournament.config import TournamentConfig
    from ttr_lab.tournament.runner import TournamentRun
    from ttr_lab.tuning.config import TuneConfig
    from ttr_lab.tuning.trials import TuningRun


def print_game_summary(game: "Game", record: "GameRecord", console: Console | None = None) -> None:
    """A finished game as its game tells it (its views' ``result_summary``; by default its
    outcome: rank, seat, strategy, the score parts the game declares, and the score)."""
    console = console or make_console()
    ending, headers, rows, lines = game.views.result_summary(record)
    console.print(
        f"[bold]{escape(game.title)}[/bold], {record.num_players} players, seed {record.seed}: "
        + (f"{record.outcome().turns} turns, " if record.outcome().turns is not None else "")
        + f"{len(record.actions)} actions, {escape(ending)}"
    )
    table = Table(show_header=True, header_style="bold")
    for col in headers:
        table.add_column(col, justify="left" if col == "strategy" else "right")
    total = headers.index("total") if "total" in headers else -1
    for row in rows:
        table.add_row(*(f"[bold]{escape(v)}[/bold]" if i == total else escape(v) for i, v in enumerate(row)))
    console.print(table)
    for line in lines:
        console.print(line, markup=False, highlight=False)


def _number(value: float | None) -> str:
    return "" if value is None or math.isnan(value) else f"{value:.1f}"


def _share(rate: float, low: float | None = None, high: float | None = None) -> str:
    """A share as the report writes it: ``42.1%``, or with its interval ``42.1% [37.4, 47.0]``."""
    if rate is None or math.isnan(rate):
        return ""
    if low is None or high is None:
        return f"{100 * rate:.1f}%"
    return f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def print_tournament_summary(console: Console, config: "TournamentConfig", run: "TournamentRun") -> None:
    """Per entrant: win rate with its interval, mean score, tickets, bonus, forfeits (narrow
    enough for an 80-column terminal); then what went wrong, if anything, and where the results
    are."""
    from rich import box

    table = run.summary
    extra = list(table.attrs.get("extra", []))
    percent = set(table.attrs.get("percent", []))
    caption = "score: mean points" + (f"; {table.attrs['caption']}" if table.attrs.get("caption") else "")
    game = config.load_game()
    # The variant (map and every rule override) is named, on a line of its own so that a long one
    # is not folded into the table's width: a rule change shows in its own results.
    console.print(f"[bold]{escape(game.title)}[/bold] ({escape(game.variant)})")
    out = Table(title=escape(f"{config.name}: {config.players} players, {config.design}"),
                box=box.SIMPLE_HEAD, pad_edge=False, caption=caption)
    for col in ("entrant", "games", "win rate [95% CI]", "score", *extra, "forfeits"):
        out.add_column(col, justify="left" if col == "entrant" else "right",
                       no_wrap=col != "entrant", overflow="fold")
    for r in table.to_dict("records"):
        out.add_row(
            escape(printable(str(r["entrant"]))), str(r["games"]), _share(r["win_rate"], r["win_low"], r["win_high"]),
            _number(r["mean_score"]), *(_share(r[c]) if c in percent else _number(r[c]) for c in extra),
            str(r["forfeits"]),
        )
    console.print(out)
    if len(run.errors):
        console.print("[red]forfeited games:[/red]")
        for r in run.errors.itertuples():
            console.print(f"  {escape(printable(r.entrant))}: {r.games} x {escape(printable(r.error))}")
    stored = run.stored
    if run.interrupted:
        console.print(f"[yellow]interrupted: {stored} of {run.planned} games are stored; "
                      "run the same command again to play the rest[/yellow]")
    for failure in run.failed_batches:
        console.print(f"[red]not played (worker failed after retries): {escape(failure)}; rerun to retry them[/red]")
    if run.backend_error:
        console.print(f"[red]{escape(printable(run.backend_error))}: every stored game is intact; rerun to play "
                      "the rest[/red]")
    console.print(f"results: {escape(run.folder if isinstance(run.folder, str) else str(run.folder.resolve()))} ({run.played} games played now, {stored} stored, {run.seconds:.1f} s)")


def _value_and_interval(row: Any, objective: str) -> tuple[str, str]:
    """A trial's objective and its interval, as the tuning report writes them (a win rate as a
    percentage, like the validation's shares)."""
    from ttr_lab.tuning.report import format_value

    text = format_value(row["objective"], row["low"], row["high"], objective)
    value, _, interval = text.partition(" ")
    return value, interval or "n/a"


def print_tuning_summary(console: Console, config: "TuneConfig", run: "TuningRun") -> None:
    """The best trials, the validation, the tuned entrant and where the outputs are; or, when
    the run was interrupted, how many trials are stored."""
    from ttr_lab.tuning.report import best_trials

    if run.interrupted:
        console.print(f"[yellow]interrupted: {len([t for t in run.trials if t.measure])} trials are stored in "
                      f"{run.folder}; run the same command again to go on[/yellow]")
        return
    frame = run.trials_table
    table = Table(title=f"{config.name}: best trials of {len(frame)} ({config.objective}, 95% interval)")
    params = [c for c in frame.columns if c.startswith("param.")]
    for col in ["trial", *(p.removeprefix("param.") for p in params), config.objective, "interval"]:
        table.add_column(col, justify="right")
    for _, r in best_trials(frame).head(10).iterrows():
        values = [f"{r[p]:.3g}" if isinstance(r[p], float) else str(r[p]) for p in params]
        table.add_row(str(int(r["trial"])) + (" (default)" if r["is_default"] else ""), *values,
                      *_value_and_interval(r, config.objective))
    console.print(table)
    for line in run.summary:
        console.print(line)
    console.print("entrant for a tournament config (also in best.yaml):")
    console.print(run.entrant, markup=False, highlight=False)
    console.print(f"results: {run.folder.resolve()} (trials.csv, objective.png, best.yaml, report.md; "
                  f"{run.ran_now} trials run now, {run.seconds:.1f} s)")
