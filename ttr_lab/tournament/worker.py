"""Playing a batch of tournament games: the same function runs in-process (serial backend) or
as a Ray task. A strategy that raises, returns an illegal move or thinks past the move time
limit forfeits its game: the row says why, and the tournament goes on."""

from __future__ import annotations

import signal
import threading
import time
from typing import Any, Sequence

from ttr_lab.games.ticket_to_ride.board import Board
from ttr_lab.core.errors import StrategyError
from ttr_lab.play import play_game
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
    board: Board, entrants: Sequence[dict[str, Any]], specs: Sequence[GameSpec],
    move_time_limit: float | None, keep_records: bool,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Play ``specs``; return one row per player per game, and the records' JSON if asked."""
    from strategies.registry import factory

    factories = [factory(e["strategy"], e["params"]) for e in entrants]
    rows: list[dict[str, Any]] = []
    records: list[str] = []
    for spec in specs:
        players = [_Guarded(factories[e](), move_time_limit) for e in spec.seats]
        try:
            record = play_game(board, players, spec.deal_seed)
        except StrategyError as exc:
            rows += _forfeit_rows(board, entrants, spec, players, exc)
            continue
        rows += _rows(board, entrants, spec, players, record.result, _claimed_tracks(board, record.actions, len(spec.seats)))
        if keep_records:
            data = record.to_dict()
            data["game_id"] = spec.game_id
            data["entrants"] = [entrants[e]["name"] for e in spec.seats]
            import json

            records.append(json.dumps(data, ensure_ascii=True))
    return rows, records


def _base(board: Board, entrants: Sequence[dict[str, Any]], spec: GameSpec, seat: int, player: _Guarded) -> dict[str, Any]:
    e = entrants[spec.seats[seat]]
    return {
        "game_id": spec.game_id, "deal": spec.deal, "deal_seed": spec.deal_seed, "table": spec.table,
        "seating": spec.seating, "map": board.name, "num_players": len(spec.seats), "seat": seat,
        "entrant": e["name"], "strategy": e["strategy"], "params": e["params_json"], "params_hash": e["params_hash"],
        "decisions": player.decisions, "think_seconds": player.seconds,
    }


def _claimed_tracks(board: Board, actions: Sequence[tuple[int, str]], n: int) -> list[list[int]]:
    """Per seat, the ids of the tracks it claimed (for maps of who builds where)."""
    from ttr_lab.games.ticket_to_ride.actions import parse_action

    out: list[list[int]] = [[] for _ in range(n)]
    for seat, text in actions:
        if text.startswith("claim "):
            out[seat].append(parse_action(text, board).track)
    return out


def _rows(
    board: Board, entrants: Sequence[dict[str, Any]], spec: GameSpec, players: list[_Guarded],
    result: dict[str, Any], tracks: list[list[int]],
) -> list[dict[str, Any]]:
    out = []
    winners = sum(1 for p in result["players"] if p["rank"] == 1)
    for seat, p in enumerate(result["players"]):
        row = _base(board, entrants, spec, seat, players[seat])
        failed = [t for t in p["tickets"] if not t["completed"]]
        row.update({
            "route_points": p["route_points"], "ticket_points": p["ticket_points"],
            "tickets_held": len(p["tickets"]), "tickets_completed": p["tickets_completed"],
            "tickets_failed": p["tickets_failed"],
            "ticket_points_completed": sum(t["points"] for t in p["tickets"] if t["completed"]),
            "ticket_points_failed": sum(t["points"] for t in failed),
            "longest_trail": p["longest_trail"], "longest_bonus": p["longest_bonus"], "total": p["total"],
            "rank": p["rank"], "win": (1.0 / winners) if p["rank"] == 1 else 0.0,
            "trains_left": p["trains_left"], "cards_left": p["cards_left"],
            "turns": result["turns"], "stalled": result["stalled"], "forfeit": False, "error": "",
            "tracks": tracks[seat],
            "explorer_bonus": p.get("explorer_bonus"), "largest_network": p.get("largest_network"),
            "mountain_routes": p.get("mountain_routes"),
        })
        out.append(row)
    return out


def _forfeit_rows(board: Board, entrants: Sequence[dict[str, Any]], spec: GameSpec, players: list[_Guarded], exc: StrategyError) -> list[dict[str, Any]]:
    """The strategy at ``exc.seat`` loses; the others share the win; no scores."""
    n = len(spec.seats)
    message = str(exc)
    out = []
    for seat in range(n):
        row = _base(board, entrants, spec, seat, players[seat])
        lost = seat == exc.seat
        row.update({
            "route_points": None, "ticket_points": None, "tickets_held": None, "tickets_completed": None,
            "tickets_failed": None, "ticket_points_completed": None, "ticket_points_failed": None,
            "longest_trail": None, "longest_bonus": None, "total": None,
            "rank": n if lost else 1, "win": 0.0 if lost else 1.0 / (n - 1),
            "trains_left": None, "cards_left": None, "turns": None, "stalled": False,
            "forfeit": lost, "error": message, "tracks": [],
            "explorer_bonus": None, "largest_network": None, "mountain_routes": None,
        })
        out.append(row)
    return out
