"""``ttr-lab review``: each decision of a game against what the strongest search would have played
(a record file), or of a seeded sample of a tournament's games, with a decision-quality table per
entrant added to its report (a results folder with ``--sample``); and the summary ``ttr-lab play
--review`` ends a game with."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import typer

from ttr_lab.cli.console import fail, make_console, printable
from ttr_lab.core.errors import ConfigError, TTRLabError

_BUDGET = 400  # the review's DEFAULT_BUDGET, said here so that --help loads no search (a test holds them equal)


def review(
    source: Path = typer.Argument(..., help="A game record (JSON), e.g. from ttr-lab play --record; or a "
                                            "tournament's results folder (then --sample reviews some of its games)."),
    seats: Optional[str] = typer.Option(None, "--seats", metavar="SEATS", help="The seats to review, e.g. 0 or 0,2 "
                                        "(default: every seat)."),
    budget: int = typer.Option(_BUDGET, "--budget", help="Play-outs per decision: half to find the best move, "
                               "half to measure it against the move played."),
    seed: int = typer.Option(0, "--seed", help="The review's seed (the same seed, the same review; with a folder "
                             "it also draws the sample)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write review.csv, seats.csv, summary.md and games/*.json "
                                       "here (default: RECORD-review beside a record; review/ in a results folder, which its report then shows)."),
    sample: Optional[int] = typer.Option(None, "--sample", help="With a results folder: review this many of its "
                                         "games, drawn with --seed (default: all)."),
    backend: Optional[str] = typer.Option(None, "--backend", help="serial (this process) or ray (default: ray for "
                                          "more than one game, else serial)."),
    workers: Optional[int] = typer.Option(None, "--workers", help="With ray: the workers of a local Ray "
                                          "(default: one per core)."),
) -> None:
    """Review a game: for each decision, the move played against the strongest search's (mcts_learned), from that seat's information, and the points it lost."""
    from ttr_lab.review.outputs import check_writable, folder_sample, record_file, write_review
    from ttr_lab.review.runner import check_budget

    try:
        check_budget(budget)
        if backend not in (None, "serial", "ray"):
            raise ConfigError(f"--backend is serial or ray, not {backend!r}")
        if source.is_dir():
            games, kept = folder_sample(source, sample, seed)
            target = out or source / "review"
            typer.echo(f"reviewing {len(games)} of the {kept} games {source} keeps")
        else:
            if sample is not None:
                raise ConfigError("--sample takes a results folder, not a record file")
            games = [record_file(source)]
            target = out or source.with_name(f"{source.stem}-review")
        wanted = seat_list(seats)
        check_writable(target)
        reviewed = _review(games, wanted, budget, seed, backend or ("ray" if len(games) > 1 else "serial"), workers)
        summary = write_review(target, reviewed)
        viewer = None if source.is_dir() else _viewer(target, games[0].record, reviewed[0])
        # The report reads the review kept in the folder's review/; one written elsewhere is not its.
        report = _report(source) if source.is_dir() and out is None else None
    except TTRLabError as exc:
        fail(exc)
    if len(reviewed) == 1:
        for line in reviewed[0].summary_lines():
            typer.echo(printable(line))
    typer.echo(f"review written to {target} (review.csv, seats.csv, {summary.name}, games/)")
    if viewer is not None:
        typer.echo(f"the replay with this review drawn in it: {viewer} (open it in a browser)")
    if report is not None:
        typer.echo(f"report with its Decision quality table: {report}")


def _viewer(target: Path, record: Any, reviewed: Any) -> Optional[Path]:
    """A record's review drawn in its replay viewer, ``viewer.html`` beside review.csv (None for
    a game without a viewer)."""
    views = record.load_game().views
    if not views.offers("replay_page"):
        return None
    path = target / "viewer.html"
    try:
        path.write_text(views.replay_page(record, review=reviewed.to_dict()), encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def seat_list(text: Optional[str]) -> Optional[list[int]]:
    """``--seats 0,2`` as seats (None: all); the table's size is checked against each game."""
    if text is None:
        return None
    pieces = [p.strip() for p in text.split(",") if p.strip()]
    bad = next((p for p in pieces if not p.isdigit()), None)
    if bad is not None or not pieces:
        raise ConfigError(f"--seats {text!r}: {bad!r} is not a seat number" if bad else f"--seats {text!r}: no seat")
    return [int(p) for p in pieces]


def _review(games: Sequence[Any], seats: Optional[list[int]], budget: int, seed: int, backend: str,
            workers: Optional[int]) -> list[Any]:
    """The games reviewed with a progress bar over their decisions, on ``backend``."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ttr_lab.review.runner import chosen_seats, decisions_of, review_games

    total = sum(len(decisions_of(g.record, chosen_seats(g.record, seats))) for g in games)
    console = make_console()
    # Without a terminal a bar draws nothing until the end: a plain line on stderr every half minute.
    progress = Progress(TextColumn("[bold]review"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
                        TimeRemainingColumn(), console=console, transient=False, disable=not console.is_terminal)
    lines = _Lines(total) if not console.is_terminal else None
    runner = None
    if backend == "ray":
        from ttr_lab.tournament.backends import RayBackend

        runner = RayBackend(workers=workers)
        runner.start()
    try:
        with progress:
            task = progress.add_task("review", total=total)

            def advance(n: int) -> None:
                progress.advance(task, n)
                if lines is not None:
                    lines.advance(n)

            return review_games(games, seats, budget, seed, backend=runner, advance=advance)
    finally:
        if runner is not None:
            runner.close()


class _Lines:
    """Progress as a line on standard error at most every ``interval`` seconds."""

    def __init__(self, total: int, interval: float = 30.0) -> None:
        import time

        self.total, self.done, self.interval, self.clock = total, 0, interval, time.perf_counter
        self.started = self.last = self.clock()

    def advance(self, n: int) -> None:
        self.done += n
        now = self.clock()
        if now - self.last >= self.interval or self.done == self.total:
            self.last = now
            rate = self.done / max(now - self.started, 1e-9)
            left = f", about {(self.total - self.done) / rate / 60:.0f} min left" if self.done < self.total else ""
            typer.echo(f"review: {self.done} of {self.total} decisions, {rate:.1f} decisions/s{left}", err=True)


def _report(folder: Path) -> Any:
    """The results' report built again, with the review's tables in it."""
    from ttr_lab.analysis.report import build_report

    return build_report(folder, quiet=True)


def review_after_play(record: Any, seats: Sequence[int], say: Callable[[str], None]) -> None:
    """``ttr-lab play --review``: the finished game's review of ``seats`` at the default budget,
    said line by line (a progress bar while it runs)."""
    from ttr_lab.review.runner import GameToReview

    say(f"reviewing seat {', '.join(map(str, seats))}'s decisions (against what mcts_learned would have played)...")
    reviewed = _review([GameToReview(record, "game")], list(seats), _BUDGET, 0, "serial", None)[0]
    for line in reviewed.summary_lines():
        say(printable(line))


def play_review_seats(human: Optional[str], players: int, game: str) -> list[int]:
    """The seats ``play --review`` reviews: the people's, else every seat; refused before the
    game when ``game`` has no review."""
    from ttr_lab.review.judge import JUDGES

    if game not in JUDGES:
        raise ConfigError(f"--review: no review for {game} games (the review judges {', '.join(sorted(JUDGES))})")
    if human is None:
        return list(range(players))
    from ttr_lab.human.seats import human_seats

    return human_seats(human, players)
