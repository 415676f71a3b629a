"""Matches: one table of entrants on seeded deals, under every rotation of its seats
(``design.match_games``), played on a tournament backend and handed back as rows rather than
stored. Tuning trials, their validation and the strength benchmark are matches; a tournament
plays many tables and stores its rows as they come (``run_tournament``)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ttr_lab.core.errors import TTRLabError
from ttr_lab.core.game import Game
from ttr_lab.core.registry import StrategySpec
from ttr_lab.tournament.backends import Backend, SerialBackend
from ttr_lab.tournament.design import GameSpec


class MatchError(TTRLabError, RuntimeError):
    """A match could not be played out: a batch of games failed, or a strategy forfeited."""


def entrant_specs(entrants: Sequence[Mapping[str, Any] | StrategySpec], game: Game) -> list[StrategySpec]:
    """Entrants (specs, or ``{name, strategy, params}``) validated for ``game``, as the
    tournament's game player takes them; a bad one is a one-line ConfigError."""
    return [StrategySpec.of(e).validated(game.name) for e in entrants]


def play_match(
    entrants: Sequence[Mapping[str, Any] | StrategySpec], games: Sequence[GameSpec], game: Game, backend: Backend | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` (on ``backend``, already started; in this process without one): one row
    per player per game, in the order of ``games`` whatever order they finished in. A match measures strength, so a
    forfeit is a fault to report rather than a result: it raises MatchError."""
    rows: list[dict[str, Any]] = []
    for batch in (backend or SerialBackend()).run(game, entrant_specs(entrants, game), games, None, False):
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
