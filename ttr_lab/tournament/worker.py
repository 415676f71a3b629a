"""Playing a batch of tournament games: the same function runs in-process (serial backend) or
as a Ray task. A strategy that raises, returns an illegal move or thinks past the move time
limit forfeits its game: the row says why, and the tournament goes on.

Each decision is timed twice: wall-clock (``think_seconds``, what the move time limit counts)
and CPU (``think_cpu_seconds``: this process's CPU time, all its threads, plus that of the
strategy's own process when isolated). On a busy machine the first grows, the second does not."""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from dataclasses import dataclass
from typing import Any, Literal, Sequence, get_args

from ttr_lab.core.errors import ConfigError, StrategyError
from ttr_lab.core.game import Game
from ttr_lab.core.isolation import DecisionTimeout, IsolatedStrategy, StrategyHost, shared_values
from ttr_lab.core.outcome import Outcome, Termination
from ttr_lab.core.play import play_game
from ttr_lab.core.registry import StrategySpec
from ttr_lab.core.results import ResultRow, StoredRecord
from ttr_lab.tournament.alarm import BuildTimeLimitExceeded, built_within
from ttr_lab.tournament.design import GameSpec
from ttr_lab.tournament.guarded import (
    _GRACE_SECONDS, MoveTimeLimitExceeded, WorkerPaused, _ctrl_c, _Guarded, _on_sigcont, _on_sigint, stop_signal,
)
from ttr_lab.tournament.integrity import SharedValues
from ttr_lab.tournament.warm_up import warm_up

__all__ = ["Isolation", "MoveTimeLimitExceeded", "WorkerPaused", "host_for", "play_batch", "result_rows", "stop_hosts",
           "stop_signal"]

# Where strategies run: "none", in the worker's process; "process", each in a process of its own.
Isolation = Literal["none", "process"]


@dataclass(frozen=True)
class _Batch:
    """What every game of a batch is played with, the same for a game and for its checked replay."""

    game: Game
    entrants: Sequence[StrategySpec]
    # Per entrant, what builds it: its factory, or isolated, what its child process builds it from.
    factories: Sequence[Any]
    shared: dict[int, Any]  # the game's shared values, sent to isolated children (core.isolation)
    move_limit: float | None
    build_limit: float | None
    isolated: bool
    keep_records: bool


def play_batch(
    game: Game, entrants: Sequence[StrategySpec], specs: Sequence[GameSpec],
    move_time_limit: float | None, keep_records: bool, isolation: Isolation = "none",
    build_time_limit: float | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Play ``specs``; return one row per player per game, and the records' JSON if asked.
    ``isolation="process"`` runs every strategy in a process of its own (``core.isolation``).
    A strategy not built within ``build_time_limit`` seconds forfeits its game.
    ``entrants``: named specs, validated for the game (``StrategySpec.validated``)."""
    if isolation not in get_args(Isolation):
        raise ConfigError(f"isolation {isolation!r} is not one of {', '.join(get_args(Isolation))}")
    isolated = isolation == "process"
    # Isolated, the engine's process never imports a strategy: each child builds its own.
    factories = ([(e.strategy, e.params, game.name) for e in entrants] if isolated
                 else [e.factory(game.name) for e in entrants])
    if specs:
        limit = build_time_limit
        warming = [] if isolated else [i for i, e in enumerate(entrants) if _gave_up(game, e, limit) is None]
        for late in warm_up(game, len(specs[0].seats), [factories[i] for i in warming], limit):
            _GAVE_UP[_build_key(game, entrants[warming[late]], limit)] = \
                f"BuildTimeLimitExceeded: was not built within {limit:g} s (build time limit), warming up"
    batch = _Batch(game, entrants, factories, shared_values(game) if isolated else {}, move_time_limit,
                   build_time_limit, isolated, keep_records)
    # In-process strategies hold the engine's own values (its board, its action objects): check
    # them after the batch; when they changed, put them back and play the batch again checking
    # after every game, so that no changed value reaches a stored result or record.
    guard = None if isolated else _guard_for(game)
    _ctrl_c[0] = False
    main = threading.current_thread() is threading.main_thread()
    watch = main and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    previous = signal.signal(signal.SIGINT, _on_sigint) if watch else None
    process = _ProcessState()
    continued = signal.signal(signal.SIGCONT, _on_sigcont) if main else None
    try:
        rows, records = _play_specs(batch, specs, guard, process, careful=False)
        if guard is not None and guard.changed():
            guard.restore()
            rows, records = _play_specs(batch, specs, guard, process, careful=True)
    finally:
        process.close()
        if watch:
            signal.signal(signal.SIGINT, previous)
        if main:
            signal.signal(signal.SIGCONT, continued)
    return rows, records


_GUARD: list[Any] = [None, None]  # the last game and its snapshot: a worker's batches share one game


def _guard_for(game: Game) -> SharedValues:
    """The snapshot of ``game``'s shared values, taken once per game object (a thousand objects
    and more: milliseconds), valid across batches since every batch leaves them as they were."""
    if _GUARD[0] is not game:
        _GUARD[:] = [game, SharedValues(game)]
    return _GUARD[1]


class _ProcessState:
    """What an in-process strategy can change for the whole process: the working directory (a
    relative output folder then points elsewhere) and the standard output and error streams (the
    run's summary then fails). Put back after every game."""

    def __init__(self) -> None:
        self.cwd = os.getcwd()
        self.streams = {"stdout": sys.stdout, "stderr": sys.stderr}
        self.fds: dict[int, int] = {}
        for fd in (1, 2):
            try:
                self.fds[fd] = os.dup(fd)
            except OSError:
                pass  # not open when the batch began: nothing to put back

    def restore(self) -> None:
        try:
            moved = os.getcwd() != self.cwd
        except OSError:  # its directory was removed
            moved = True
        if moved:
            os.chdir(self.cwd)
        self._streams()

    def _streams(self) -> None:
        for fd, copy in self.fds.items():
            try:
                os.fstat(fd)
            except OSError:  # closed with os.close
                os.dup2(copy, fd)
        for name, stream in self.streams.items():
            if getattr(sys, name) is not stream or getattr(stream, "closed", False):
                self.streams[name] = _reopened(stream)
                setattr(sys, name, self.streams[name])

    def close(self) -> None:
        self.restore()
        for copy in self.fds.values():
            os.close(copy)


def _reopened(stream: Any) -> Any:
    """``stream``, or when a strategy closed it, a new one on the same file descriptor."""
    if not getattr(stream, "closed", False):
        return stream
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):
        name = getattr(stream, "name", "")  # a closed stream hides its descriptor, not its name
        fd = name if type(name) is int else {"<stdout>": 1, "<stderr>": 2}.get(name, -1)
    if fd < 0:
        return stream  # not a file (a test's capture): nothing to reopen
    return open(fd, "w", encoding=getattr(stream, "encoding", None), errors=getattr(stream, "errors", None),
                closefd=False, buffering=1 if getattr(stream, "line_buffering", False) else -1)


def _play_specs(batch: _Batch, specs: Sequence[GameSpec], guard: SharedValues | None, process: _ProcessState,
                careful: bool) -> tuple[list[dict[str, Any]], list[str]]:
    """The rows of ``specs``' games and, if the batch keeps them, their records' JSON. ``careful``:
    check ``guard`` after every game, and replay one that changed it to name the seat."""
    game, entrants = batch.game, batch.entrants
    rows: list[dict[str, Any]] = []
    records: list[str] = []
    for spec in specs:
        try:
            players = _players(batch, spec)
        except StrategyError as exc:
            rows += result_rows(game, entrants, spec, None, Outcome.forfeit(len(spec.seats), exc.seat, str(exc)))
            continue
        record, outcome = _play(game, players, spec)
        process.restore()
        if careful and guard is not None and guard.changed():
            # Put the values back, then replay the game checking after every strategy call, so
            # the seat that changed them forfeits (games replay exactly from their seed).
            guard.restore()
            players = _players(batch, spec, guard)
            record, outcome = _play(game, players, spec)
            process.restore()
            if guard.changed():
                guard.restore()
            if outcome.termination is not Termination.FORFEIT:  # not reproduced: nobody is named
                record, outcome = None, Outcome.forfeit(len(spec.seats), -1, "the game's shared values were changed "
                                                         "during the game, by a seat the replay could not name")
        rows += result_rows(game, entrants, spec, players, outcome)
        if record is None:
            continue
        if batch.keep_records:
            records.append(StoredRecord(record, spec.game_id, tuple(entrants[e].label for e in spec.seats)).to_json())
    return rows, records


def _play(game: Game, players: Sequence[_Guarded], spec: GameSpec) -> tuple[Any, Outcome]:
    """The game's record and outcome; a strategy's fault is a forfeit (no record)."""
    try:
        record = play_game(game, players, spec.deal_seed)
    except StrategyError as exc:
        return None, Outcome.forfeit(len(spec.seats), exc.seat, str(exc))
    return record, record.outcome()


def _players(batch: _Batch, spec: GameSpec, guard: SharedValues | None = None) -> list[_Guarded]:
    """A fresh strategy per seat of ``spec`` (the same way for a game and for its checked replay,
    so isolated copies of one strategy keep a process each)."""
    return [_build(batch, e, seat, guard, copy=_copies_before(batch.entrants, spec.seats, seat))
            for seat, e in enumerate(spec.seats)]


def _copies_before(entrants: Sequence[StrategySpec], seats: Sequence[int], seat: int) -> int:
    """How many seats before ``seat`` hold the same strategy and parameters as it does."""
    mine = entrants[seats[seat]].params_hash()
    return sum(entrants[e].params_hash() == mine for e in seats[:seat])


def _build(batch: _Batch, e: int, seat: int, guard: SharedValues | None = None, copy: int = 0) -> _Guarded:
    """A fresh strategy of entrant ``e`` for ``seat``; one that cannot be built (within the
    batch's build time limit) forfeits the game, named. ``copy``: how many seats before this one
    hold the same strategy and parameters."""
    limit = batch.move_limit
    name = batch.entrants[e].label
    earlier = _gave_up(batch.game, batch.entrants[e], batch.build_limit)
    if earlier is not None:
        raise StrategyError(f"seat {seat} ({name}) could not be built: its constructor already ran past the build "
                            f"time limit in this worker ({earlier}); not built again, its games forfeit at once",
                            seat, name)
    try:
        if batch.isolated:
            timeout = None if limit is None else limit + _GRACE_SECONDS
            inner = IsolatedStrategy(host_for(batch.entrants[e], copy), seat, batch.factories[e], batch.shared, timeout,
                                     batch.build_limit)
        else:
            inner = built_within(batch.factories[e], batch.build_limit)
    except Exception as exc:  # noqa: BLE001 - any failure to build is the strategy's
        cause = f"{type(exc).__name__}: {exc}"
        if isinstance(exc, (BuildTimeLimitExceeded, DecisionTimeout)):  # in _build, a timeout is the build's
            _GAVE_UP[_build_key(batch.game, batch.entrants[e], batch.build_limit)] = cause
        raise StrategyError(f"seat {seat} ({name}) could not be built: {cause}", seat, name) from None
    return _Guarded(inner, limit, isolated=batch.isolated, guard=guard, seat=seat)


# The entrants whose constructor ran past the build time limit in this process -> that timeout.
# A constructor that hangs when built for a game hangs every time: waiting the limit again in
# each of its games would stretch a run by the limit times its games (60 s a game), so its later
# games forfeit at once. Keyed by what builds it (the game, the limit, the strategy and its
# parameters): a later run of the same entrant in this process gives it up too.
_GAVE_UP: dict[tuple[str, str, float | None, str], str] = {}


def _build_key(game: Game, entrant: StrategySpec, build_limit: float | None) -> tuple[str, str, float | None, str]:
    return (game.name, game.variant, build_limit, entrant.params_hash())


def _gave_up(game: Game, entrant: StrategySpec, build_limit: float | None) -> str | None:
    """Why ``entrant`` is no longer built in this process (its build timed out), or None."""
    return _GAVE_UP.get(_build_key(game, entrant, build_limit))


_HOSTS: dict[tuple[str, int], StrategyHost] = {}


def host_for(entrant: StrategySpec, copy: int = 0) -> StrategyHost:
    """This process's child process for an entrant (by strategy and parameters), kept across
    batches so that starting one is paid once per worker, not once per game. ``copy`` tells
    apart the seats one entrant (or two with the same strategy and parameters) holds at one
    table: each has a process of its own, so one ending its process (``os._exit`` in
    ``on_event``) cannot take the other down or be blamed on it."""
    key = (entrant.params_hash(), copy)
    if key not in _HOSTS:
        _HOSTS[key] = StrategyHost()
    return _HOSTS[key]


def stop_hosts() -> None:
    for host in _HOSTS.values():
        host.stop()
    _HOSTS.clear()


atexit.register(stop_hosts)


def result_rows(
    game: Game, entrants: Sequence[StrategySpec], spec: GameSpec, players: Sequence[_Guarded] | None,
    outcome: Outcome,
) -> list[dict[str, Any]]:
    """One row per seat, built as a ``ResultRow`` (``ttr_lab.core.results``) and handed on as
    its columns: the fixed ones, then the game's metrics."""
    shares = outcome.win_shares()
    forfeit = outcome.termination is Termination.FORFEIT
    identity = {i: (entrants[i].params_json(), entrants[i].params_hash()) for i in set(spec.seats)}
    out = []
    for seat, p in enumerate(outcome.players):
        e = entrants[spec.seats[seat]]
        params, params_hash = identity[spec.seats[seat]]
        row = ResultRow(
            game_id=spec.game_id, deal=spec.deal, deal_seed=spec.deal_seed, table=spec.table,
            seating=spec.seating, game=game.name, variant=game.variant, num_players=len(spec.seats),
            seat=seat, entrant=e.label, strategy=e.strategy, params=params,
            params_hash=params_hash, score=None if forfeit else p.score, rank=p.rank,
            win=shares[seat], turns=outcome.turns, termination=outcome.termination.value,
            forfeit=forfeit and seat == outcome.forfeited_by, error=outcome.error,
            decisions=players[seat].decisions if players else 0,
            think_seconds=players[seat].seconds if players else 0.0,
            think_cpu_seconds=players[seat].cpu_seconds if players else 0.0,
            metrics=p.metrics,
        )
        out.append(row.columns(game.metrics))
    return out
