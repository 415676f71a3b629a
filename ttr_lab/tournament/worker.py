"""Playing a batch of tournament games: the same function runs in-process (serial backend) or
as a Ray task. A strategy that raises, returns an illegal move or thinks past the move time
limit forfeits its game: the row says why, and the tournament goes on."""

from __future__ import annotations

import atexit
import ctypes
import json
import signal
import threading
import time
from typing import Any, Sequence

from ttr_lab.core.errors import StrategyError
from ttr_lab.core.game import Game
from ttr_lab.core.isolation import IsolatedStrategy, StrategyHost, raised_as, shared_values
from ttr_lab.core.outcome import Outcome, Termination
from ttr_lab.core.play import play_game
from ttr_lab.tournament.design import GameSpec
from ttr_lab.tournament.integrity import SharedValues

# How long past the move time limit a runaway strategy is allowed before it is interrupted.
_GRACE_SECONDS = 1.0


class _MoveTimeout(BaseException):
    """Raised into a decision at the move time limit: a BaseException, so that a strategy's
    ``except Exception`` does not swallow it (and it is raised again every half second)."""


class MoveTimeLimitExceeded(RuntimeError):
    """A decision took longer than the tournament's move time limit (the game is forfeited)."""


class WorkerPaused(BaseException):
    """This process was stopped (SIGSTOP, a suspended job) while a strategy was thinking: the
    time it was not running is no strategy's, so the batch is played again instead of charging
    the seat. A BaseException, so that neither a strategy nor the game loop takes it for a forfeit."""


# The monotonic time of the last SIGCONT this process received (0: none), set by its handler.
_continued = [0.0]


def _on_sigcont(signum: int, frame: Any) -> None:
    _continued[0] = time.monotonic()


def _paused_since(start: float) -> bool:
    """Whether this process was stopped and continued since ``start`` (a ``time.monotonic()``).
    The SIGCONT that came with a SIGALRM may not be handled yet (Python runs the handlers in
    signal order and stops at the alarm's exception, leaving the rest for an event that may be
    long in coming): run the pending handlers first."""
    if threading.current_thread() is threading.main_thread():
        ctypes.pythonapi.PyErr_CheckSignals()
    return _continued[0] >= start


class _Guarded:
    """A strategy wrapped to time each decision and to enforce the move time limit."""

    def __init__(self, inner: Any, limit: float | None, isolated: bool = False, guard: SharedValues | None = None,
                 seat: int = -1) -> None:
        self.inner = inner
        self.guard, self.seat = guard, seat
        self.limit = limit
        self.name = getattr(inner, "name", type(inner).__name__.lower())
        self.seconds = 0.0
        self.decisions = 0
        for hook in ("on_game_start", "on_event", "on_game_end"):
            if hasattr(inner, hook):
                setattr(self, hook, self._checked(getattr(inner, hook)))
        # Isolated strategies are timed out by their host, from outside their process.
        self._alarm = limit is not None and not isolated and threading.current_thread() is threading.main_thread()

    def act(self, observation: Any, legal: Any, rng: Any) -> Any:
        start, began = time.perf_counter(), time.monotonic()
        if self._alarm:
            previous = signal.signal(signal.SIGALRM, _raise_timeout)
            signal.setitimer(signal.ITIMER_REAL, self.limit + _GRACE_SECONDS, 0.5)
            _thinking[0] = True
        try:
            action = _contained(self.inner.act, observation, legal, rng)
        except _MoveTimeout:
            _thinking[0] = False
            if _paused_since(began):
                raise WorkerPaused(f"the process was stopped while seat {self.seat} ({self.name}) was thinking") from None
            raise MoveTimeLimitExceeded(
                f"thought for more than {self.limit + _GRACE_SECONDS:g} s (move time limit {self.limit:g} s)"
            ) from None
        finally:
            _thinking[0] = False
            if self._alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
        if self.guard is not None:
            self._check()
        spent = time.perf_counter() - start
        self.seconds += spent
        self.decisions += 1
        if self.limit is not None and spent > self.limit:
            if _paused_since(began):
                raise WorkerPaused(f"the process was stopped while seat {self.seat} ({self.name}) was thinking")
            raise MoveTimeLimitExceeded(f"took {spent:.2f} s for one move (move time limit {self.limit:g} s)")
        return action

    def _check(self) -> None:
        changed = self.guard.changed()
        if changed:
            self.guard.restore()
            raise StrategyError(f"seat {self.seat} ({self.name}) changed the game's shared values "
                                f"({', '.join(sorted(set(changed)))}), which strategies may only read", self.seat, self.name)

    def _checked(self, hook: Any) -> Any:
        def checked(*args: Any) -> Any:
            result = _contained(hook, *args)
            if self.guard is not None:
                self._check()
            return result

        checked.__name__ = getattr(hook, "__name__", "hook")
        return checked


_thinking = [False]  # the alarm interrupts only a decision, never the handling of its end
_ctrl_c = [False]  # set by a real Ctrl-C (SIGINT), to tell it from a strategy raising KeyboardInterrupt


def _contained(fn: Any, *args: Any) -> Any:
    """``fn(*args)``, with ``sys.exit`` and a KeyboardInterrupt that no Ctrl-C caused turned into
    ordinary errors of the strategy (its forfeit), instead of ending the run."""
    try:
        return fn(*args)
    except SystemExit as exc:
        raise raised_as("SystemExit", f"exit code {exc.code}") from None
    except KeyboardInterrupt:
        if _ctrl_c[0]:
            raise
        raise raised_as("KeyboardInterrupt", "raised by the strategy, not by Ctrl-C") from None


def _on_sigint(signum: int, frame: Any) -> None:
    _ctrl_c[0] = True
    raise KeyboardInterrupt


def _raise_timeout(signum: int, frame: Any) -> None:
    if _thinking[0]:
        raise _MoveTimeout()


def play_batch(
    game: Game, entrants: Sequence[dict[str, Any]], specs: Sequence[GameSpec],
    move_time_limit: float | None, keep_records: bool, isolation: str = "none",
) -> tuple[list[dict[str, Any]], list[str]]:
    """Play ``specs``; return one row per player per game, and the records' JSON if asked.
    ``isolation="process"`` runs every strategy in a process of its own (``core.isolation``)."""
    from ttr_lab.core.registry import factory

    factories = [factory(e["strategy"], e["params"], game.name) for e in entrants]
    shared = shared_values(game) if isolation == "process" else {}
    # In-process strategies hold the engine's own values: check them after every game.
    guard = SharedValues(game) if isolation != "process" else None
    rows: list[dict[str, Any]] = []
    records: list[str] = []
    _ctrl_c[0] = False
    main = threading.current_thread() is threading.main_thread()
    watch = main and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    previous = signal.signal(signal.SIGINT, _on_sigint) if watch else None
    continued = signal.signal(signal.SIGCONT, _on_sigcont) if main else None
    try:
        _play_specs(game, entrants, specs, factories, shared, guard, move_time_limit, isolation, keep_records, rows, records)
    finally:
        if watch:
            signal.signal(signal.SIGINT, previous)
        if main:
            signal.signal(signal.SIGCONT, continued)
    return rows, records


def _play_specs(game: Game, entrants: Sequence[dict[str, Any]], specs: Sequence[GameSpec], factories: Sequence[Any],
                shared: dict[int, Any], guard: SharedValues | None, move_time_limit: float | None, isolation: str,
                keep_records: bool, rows: list[dict[str, Any]], records: list[str]) -> None:
    for spec in specs:
        try:
            players = _players(entrants, factories, spec, shared, move_time_limit, isolation)
        except StrategyError as exc:
            rows += result_rows(game, entrants, spec, None, Outcome.forfeit(len(spec.seats), exc.seat, str(exc)))
            continue
        record, outcome = _play(game, players, spec)
        if guard is not None and guard.changed():
            # Put the values back, then replay the game checking after every strategy call, so
            # the seat that changed them forfeits (games replay exactly from their seed).
            guard.restore()
            players = _players(entrants, factories, spec, shared, move_time_limit, isolation, guard)
            record, outcome = _play(game, players, spec)
            if guard.changed():
                guard.restore()
            if outcome.termination is not Termination.FORFEIT:  # not reproduced: nobody is named
                record, outcome = None, Outcome.forfeit(len(spec.seats), -1, "the game's shared values were changed "
                                                         "during the game, by a seat the replay could not name")
        rows += result_rows(game, entrants, spec, players, outcome)
        if record is None:
            continue
        if keep_records:
            data = record.to_dict()
            data["game_id"] = spec.game_id
            data["entrants"] = [entrants[e]["name"] for e in spec.seats]
            records.append(json.dumps(data, ensure_ascii=True))


def _play(game: Game, players: Sequence[_Guarded], spec: GameSpec) -> tuple[Any, Outcome]:
    """The game's record and outcome; a strategy's fault is a forfeit (no record)."""
    try:
        record = play_game(game, players, spec.deal_seed)
    except StrategyError as exc:
        return None, Outcome.forfeit(len(spec.seats), exc.seat, str(exc))
    return record, record.outcome()


def _players(entrants: Sequence[dict[str, Any]], factories: Sequence[Any], spec: GameSpec, shared: dict[int, Any],
             limit: float | None, isolation: str, guard: SharedValues | None = None) -> list[_Guarded]:
    """A fresh strategy per seat of ``spec`` (the same way for a game and for its checked replay,
    so isolated copies of one strategy keep a process each)."""
    return [_build(entrants, factories, e, seat, shared, limit, isolation, guard,
                   copy=_copies_before(entrants, spec.seats, seat))
            for seat, e in enumerate(spec.seats)]


def _copies_before(entrants: Sequence[dict[str, Any]], seats: Sequence[int], seat: int) -> int:
    """How many seats before ``seat`` hold the same strategy and parameters as it does."""
    mine = entrants[seats[seat]]["params_hash"]
    return sum(entrants[e]["params_hash"] == mine for e in seats[:seat])


def _build(entrants: Sequence[dict[str, Any]], factories: Sequence[Any], e: int, seat: int, shared: dict[int, Any],
           limit: float | None, isolation: str, guard: SharedValues | None = None, copy: int = 0) -> _Guarded:
    """A fresh strategy for ``seat``; one that cannot be built forfeits the game, named.
    ``copy``: how many seats before this one hold the same strategy and parameters."""
    try:
        if isolation == "process":
            timeout = None if limit is None else limit + _GRACE_SECONDS
            inner = IsolatedStrategy(host_for(entrants[e], copy), seat, factories[e], shared, timeout)
        else:
            inner = factories[e]()
    except Exception as exc:  # noqa: BLE001 - any failure to build is the strategy's
        name = entrants[e]["name"]
        raise StrategyError(f"seat {seat} ({name}) could not be built: {type(exc).__name__}: {exc}", seat, name) from None
    return _Guarded(inner, limit, isolated=isolation == "process", guard=guard, seat=seat)


_HOSTS: dict[tuple[str, int], StrategyHost] = {}


def host_for(entrant: dict[str, Any], copy: int = 0) -> StrategyHost:
    """This process's child process for an entrant (by strategy and parameters), kept across
    batches so that starting one is paid once per worker, not once per game. ``copy`` tells
    apart the seats one entrant (or two with the same strategy and parameters) holds at one
    table: each has a process of its own, so one ending its process (``os._exit`` in
    ``on_event``) cannot take the other down or be blamed on it."""
    key = (entrant["params_hash"], copy)
    if key not in _HOSTS:
        _HOSTS[key] = StrategyHost()
    return _HOSTS[key]


def stop_hosts() -> None:
    for host in _HOSTS.values():
        host.stop()
    _HOSTS.clear()


atexit.register(stop_hosts)


def result_rows(
    game: Game, entrants: Sequence[dict[str, Any]], spec: GameSpec, players: Sequence[_Guarded] | None,
    outcome: Outcome,
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
            "decisions": players[seat].decisions if players else 0,
            "think_seconds": players[seat].seconds if players else 0.0,
        }
        for m in game.metrics:
            row[m.name] = p.metrics.get(m.name)
        out.append(row)
    return out
