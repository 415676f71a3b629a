"""Matches: one table of entrants on seeded deals, under every rotation of its seats
(``design.match_games``), played on a tournament backend and handed back as rows rather than
stored. Tuning trials, their validation and the strength benchmark are matches; a tournament
plays many tables and stores its rows as they come (``run_tournament``)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ttr_lab.core.errors import TTRLabError
from ttr_lab.core.game import Game
from ttr_lab.tournament.backends import Backend, SerialBackend
from ttr_lab.tournament.config import EntrantConfig
from ttr_lab.tournament.design import GameSpec


class MatchError(TTRLabError, RuntimeError):
    """A match could not be played out: a batch of games failed, or a strategy forfeited."""


def entrant_row(entrant: EntrantConfig) -> dict[str, Any]:
    """An entrant in the form the tournament's game player expects."""
    return {**entrant.model_dump(), "params_json": entrant.params_json(), "params_hash": entrant.params_hash()}


def entrant_rows(entrants: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Entrants given as ``{name, strategy, params}`` in the form the game player expects."""
    return [entrant_row(EntrantConfig(name=e["name"], strategy=e["strategy"], params=dict(e["params"])))
            for e in entrants]


def play_match(
    entrants: Sequence[Mapping[str, Any]], games: Sequence[GameSpec], game: Game, backend: Backend | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` (on ``backend``, already started; in this process without one): one row
    per player per game, in the order of ``games`` whatever order they finished in. A match measures strength, so a
    forfeit is a fault to report rather than a result: it raises MatchError."""
    rows: list[dict[str, Any]] = []
    for batch in (backend or SerialBackend()).run(game, entrant_rows(entrants), games, None, False):
        if batch.error:
            raise MatchError(f"{len(batch.specs)} games failed: {batch.error}")
        rows += batch.rows
    check_forfeits(rows)
    order = {g.game_id: i for i, g in enumerate(games)}
    return sorted(rows, key=lambda r: (order[r["game_id"]], r["seat"]))


def check_forfeits(rows: Sequence[Mapping[str, Any]]) -> None:
    for r in rows:
        if r["forfeit"]:
            raise MatchError(f"game {r['game_id']}: {r['entrant']} ({r['strategy']}) forfeited: {r['error']}")
