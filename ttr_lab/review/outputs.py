"""Where a review's games come from and where its findings go: a record file or a seeded sample
of a results folder's stored games in; ``review.csv`` (one row per decision), ``seats.csv`` (one
row per reviewed seat of a game: its summed loss and final margin), ``summary.md`` and one JSON
per game (``games/GAME_ID.json``, what a viewer draws) out."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
from pathlib import Path
from typing import Sequence

from ttr_lab.core.errors import ConfigError, TTRLabError
from ttr_lab.core.record import GameRecord
from ttr_lab.review.reviewed import ReviewedGame, csv_text, summary_text
from ttr_lab.review.runner import GameToReview

SEAT_COLUMNS = ("game", "seat", "entrant", "decisions", "points_lost", "final_margin")


def record_file(path: Path) -> GameToReview:
    """The record at ``path`` to review, its file name as its id; a one-line error when it is
    missing or no game record."""
    if not path.is_file():
        raise ConfigError(f"{path}: no such record file" if not path.exists() else f"{path}: not a file")
    try:
        record = GameRecord.load(path)
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a game record (not text)") from None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except TTRLabError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return GameToReview(record, path.stem)


def folder_sample(folder: Path, n: int | None, seed: int) -> tuple[list[GameToReview], int]:
    """A seeded sample of ``n`` (None: all) of the games a results folder keeps, each played to
    its end (a forfeited game is left out), in game-id order; with how many it keeps in all."""
    from ttr_lab.core.results import read_records

    if n is not None and n < 1:
        raise ConfigError(f"--sample is a number of games, at least 1, not {n}")
    if not (folder / "results").is_dir():
        raise ConfigError(f"{folder} is not a results folder (no results/ in it)")
    stored = [s for s in read_records(folder) if s.game_id is not None]
    if not stored:
        raise ConfigError(f"{folder} keeps no game records to review (a tournament keeps them with records: true "
                          "in its config)")
    stored.sort(key=lambda s: str(s.game_id))
    chosen = stored if n is None or n >= len(stored) else random.Random(seed).sample(stored, n)
    games = [GameToReview(s.record, str(s.game_id), s.entrants) for s in sorted(chosen, key=lambda s: str(s.game_id))
             if s.record.replay().is_terminal()]
    if not games:
        raise ConfigError(f"{folder}: none of the {len(chosen)} games sampled was played to its end")
    return games, len(stored)


def seat_rows(games: Sequence[ReviewedGame]) -> list[dict[str, object]]:
    return [{"game": g.game_id, "seat": seat, "entrant": g.entrants[seat], "decisions": len(g.of_seat(seat)),
             "points_lost": round(g.lost(seat), 3), "final_margin": g.margins[seat]}
            for g in games for seat in g.seats]


def write_review(out: Path, games: Sequence[ReviewedGame]) -> Path:
    """Write the review of ``games`` into ``out`` (created); the summary's path."""
    try:
        (out / "games").mkdir(parents=True, exist_ok=True)
        (out / "review.csv").write_text(csv_text(games), encoding="utf-8")
        seats = io.StringIO()
        writer = csv.DictWriter(seats, fieldnames=SEAT_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(seat_rows(games))
        (out / "seats.csv").write_text(seats.getvalue(), encoding="utf-8")
        (out / "summary.md").write_text("# Review\n\n" + summary_text(games), encoding="utf-8")
        for game in games:
            (out / "games" / f"{file_name(game.game_id)}.json").write_text(game.to_json() + "\n", encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot write the review into {out}: {exc.strerror or exc}") from None
    return out / "summary.md"


def check_writable(out: Path) -> None:
    """Refuse an output folder that cannot be made or written, before any work."""
    existing = next((p for p in (out, *out.parents) if p.exists()), None)
    if existing is None or not existing.is_dir() or not os.access(existing, os.W_OK):
        raise ConfigError(f"--out {out}: cannot write there ({existing or out} is not a writable folder)")


def file_name(game_id: str) -> str:
    """A game id as a file name (ids are the results' game_id: letters, digits and dashes)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", game_id) or "game"


def load_review(path: Path) -> ReviewedGame:
    """A per-game review JSON back (what a viewer reads)."""
    try:
        return ReviewedGame.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the review {path}: {exc}") from None
