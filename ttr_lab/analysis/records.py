"""The game records a tournament keeps (``records/*.jsonl.gz``, one JSON record a line, each
with the ``game_id`` of its results rows), found by game id: what ``ttr-lab replay RESULTS_DIR
--game GAME_ID`` replays."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Iterator

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.record import GameRecord

UPSET = "upset"  # the --game name of the biggest upset (``verdict.biggest_upset``)


def _lines(folder: Path) -> Iterator[dict[str, Any]]:
    for part in sorted(folder.glob("records/*.jsonl.gz")):
        with gzip.open(part, "rt", encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def stored_game(folder: str | Path, game_id: str) -> tuple[str, GameRecord]:
    """The game id and record of game ``game_id`` in the results folder ``folder``; ``game_id``
    may be ``"upset"``: the game the report lists first under Upsets."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ConfigError("not a results folder (no such folder)")
    if not any(folder.glob("records/*.jsonl.gz")):
        raise ConfigError("the folder keeps no game records (a tournament keeps them with records: true in its config)")
    if game_id == UPSET:
        from ttr_lab.analysis.verdict import biggest_upset
        from ttr_lab.core.results import read_results

        found = biggest_upset(read_results(folder))
        if found is None:
            raise ConfigError("no game was won against the ratings, so there is no upset to replay")
        game_id = found
    seen = 0
    for data in _lines(folder):
        if data.get("game_id") == game_id:
            return game_id, GameRecord.from_dict(data)
        seen += 1
    raise ConfigError(f"no stored record of game {game_id!r} ({seen} records kept; the game ids are the results' "
                      "game_id column, as the report's Upsets table lists them)")


def stored_record(folder: str | Path, game_id: str) -> GameRecord:
    """The record of game ``game_id`` (or ``"upset"``) in the results folder ``folder``."""
    return stored_game(folder, game_id)[1]


__all__ = ["UPSET", "stored_game", "stored_record"]
