"""Playing a batch of tournament games: the same function runs in-process (serial backend) or
as a Ray task. A strategy that raises, returns an illegal move or thinks past the move time
limit forfeits its game: the row says why, and the tournament goes on."""

from __future__ import annotations

import json
import signal
import threading
import time
from typing import Any, Sequence

from ttr_lab.core.errors import StrategyError
from ttr_lab.core.game import Game
from ttr_lab.core.outcome import Outcome, Termination
from ttr_lab.core.play import play_game
from ttr_lab.tournament.design import GameSpec

# How long past the move time limit a runaway strategy is allowed before it is interrupted.
_GRACE_SECONDS = 1.0


class _MoveTimeout(Exception):
    pass


class MoveTimeLimitExceeded(RuntimeError):
    """A decision took longer than the tournament's move time limit (the game is forfeited)."""


class _Guarded:
    """A strategy wrapped to time each decision and to enforce the move time limit."""

    def __init__(self, inner: Any, limit: float | None) -> None:
        self.inner = inner
        self.limit = limit
        self.name = getattr(inner, "name", type(inner).__name__.lower())
        self.seconds = 0.0
        self.decisions = 0
        for hook in ("on_game_start", "on_event", "on_game_end"):
            if hasattr(inner, hook):
                setattr(self, hook, getattr(inner, hook))
        self._alarm = limit is not None and threading.current_thread() is threading.main_thread()

    def act(self, observation: Any, legal: Any, rng: Any) -> Any:
        start = time.perf_counter()
        if self._alarm:
            previous = signal.signal(signal.SIGALRM, _raise_timeout)
            signal.setitimer(signal.ITIMER_REAL, self.limit + _GRACE_SECONDS)
        try:
            action = self.inner.act(observation, legal, rng)
        except _MoveTimeout:
            raise MoveTimeLimitExceeded(
                f"thought for more than {self.limit + _GRACE_SECONDS:g} s (move time limit {self.limit:g} s)"
            ) from None
        finally:
            if self._alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
        spent = time.perf_counter() - start
        self.seconds += spent
        self.decisions += 1
        if self.limit is not None and spent > self.limit:
            raise MoveTimeLimitExceeded(f"took {spent:.2f} s for one move (move time limit {self.limit:g} s)")
        return action


def _raise_timeout(signum: int, frame: Any) -> None:
    raise _MoveTimeout()


def play_batch(
    game: Game, entrants: Sequence[dict[str, Any]], specs: Sequence[GameSpec],
    move_time_limit: float | None, keep_records: bool,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Play ``specs``; return one row per player per game, and the records' JSON if asked."""
    from ttr_lab.core.registry import factory

    factories = [factory(e["strategy"], e["params"], game.name) for e in entrants]
    rows: list[dict[str, Any]] = []
    records: list[str] = []
    for spec in specs:
        players = [_Guarded(factories[e](), move_time_limit) for e in spec.seats]
        try:
            record = play_game(game, players, spec.deal_seed)
        except StrategyError as exc:
            outcome = Outcome.forfeit(len(spec.seats), exc.seat, str(exc))
            rows += result_rows(game, entrants, spec, players, outcome)
            continue
        rows += result_rows(game, entrants, spec, players, record.outcome())
        if keep_records:
            data = record.to_dict()
            data["game_id"] = spec.game_id
            data["entrants"] = [entrants[e]["name"] for e in spec.seats]
            records.append(json.dumps(data, ensure_ascii=True))
    return rows, records


def result_rows(
    game: Game, entrants: Sequence[dict[str, Any]], spec: GameSpec, players: Sequence[_Guarded], outcome: Outcome,
) -> list[dict[str, Any]]:
    """One row per seat: the fixed columns (see ``ttr_lab.core.results``), then the game's metrics."""
    shares = outcome.win_shares()
    forfeit = outcome.termination is Termination.FORFEIT
    out = []
    for seat, p in enumerate(outcome.players):
        e = entrants[spec.seats[seat]]
        row = {
            "game_id": spec.game_id, "deal": spec.deal, "deal_seed": spec.deal_seed, "table": spec.table,
            "seating": spec.seating, "game": game.name, "variant": game.variant, "num_players": len(spec.seats),
            "seat": seat, "entrant": e["name"], "strategy": e["strategy"], "params": e["params_json"],
            "params_hash": e["params_hash"], "score": None if forfeit else p.score, "rank": p.rank,
            "win": shares[seat], "turns": outcome.turns, "termination": outcome.termination.value,
            "forfeit": forfeit and seat == outcome.forfeited_by, "error": outcome.error,
            "decisions": players[seat].decisions, "think_seconds": players[seat].seconds,
        }
        for m in game.metrics:
            row[m.name] = p.metrics.get(m.name)
        out.append(row)
    return out
