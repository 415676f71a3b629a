"""Where tournament games run: in this process (``serial``, for tests and debugging) or on Ray
(a local Ray by default, or an existing cluster by address). Both play the same batches with
the same function, so they produce the same games.

Over 400 lines on purpose: the two backends are read side by side (the batch, its timing and its
retries are one statement for both), and the Ray half is the bulk of it."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

from ttr_lab.core.game import Game
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.registry import StrategySpec
from ttr_lab.tournament import ray_watchdog
from ttr_lab.core.location import Location
from ttr_lab.core.results import rows_table, schema
from ttr_lab.tournament.design import GameSpec
from ttr_lab.tournament.parts import Manifest, compact_parts, write_part
from ttr_lab.tournament.worker import Isolation, WorkerPaused, play_batch

# Batches aim at this many seconds of a worker's CPU: long enough that scheduling and the driver's
# share of a batch (a manifest, one look at the part) cost little, short enough that the
# progress bar moves, costly games still spread over every worker and an interrupted run loses
# little. Sized from the games' cost as measured in the last few batches.
TARGET_BATCH_SECONDS = 1.5
MAX_BATCH = 20_000
SIZED_FROM = 4  # batches
# Tries at starting a local Ray: on an overloaded machine its raylet can miss Ray's fixed
# start-up deadlines (on 2 cores at load 9-15, three tries failed in 2 runs of 3, and five tries
# in 3 runs of 3: the raylet stops waiting for its dashboard agent after about 16 s).
START_TRIES = 5
# A batch is played again when its process was stopped (SIGSTOP) during it, or (on Ray) when it
# makes no progress for BATCH_DEADLINE_FACTOR times the time its games should take (at least
# BATCH_DEADLINE_FLOOR s; FIRST_BATCH_DEADLINE s before any game was timed), at most
# BATCH_REPLAYS times; then it is reported, not stored.
BATCH_REPLAYS = 2
BATCH_DEADLINE_FACTOR = 20.0
BATCH_DEADLINE_FLOOR = 120.0
FIRST_BATCH_DEADLINE = 600.0


class Batch:
    """What one finished batch brings back: its rows and records, or, when its worker stored
    them itself, only their ``manifest``."""

    def __init__(self, specs: Sequence[GameSpec], rows: list[dict], records: list[str], seconds: float, error: str = "",
                 note: str = "", manifest: Manifest | None = None, cpu_seconds: float = 0.0) -> None:
        self.specs, self.rows, self.records, self.seconds, self.error = specs, rows, records, seconds, error
        self.note = note  # something the user should hear about, though nothing was lost
        self.manifest = manifest
        self.cpu_seconds = cpu_seconds  # the worker's CPU time for the batch, storing it included


class _Sizer:
    """Batch sizes from the time games have taken so far."""

    def __init__(self) -> None:
        self.games = 0
        self.seconds = 0.0
        # The last few batches' (games, seconds): a worker's first batch also pays its warm-up
        # (compiling kernels: seconds), which, averaged over a whole run of cheap games, would
        # keep their batches at a game or two for thousands of batches.
        self.recent: list[tuple[int, float]] = []

    def observe(self, batch: Batch) -> None:
        if not batch.error:
            self.games += len(batch.specs)
            self.seconds += batch.seconds
            # A game's cost is the CPU its worker spends on it, whatever the machine's load (on a
            # shared machine the wall-clock time is several times that, and batches sized by it
            # would be a fraction of the work meant, each costing the driver the same); at
            # least a quarter of its wall-clock time, so games that mostly wait still spread.
            cost = max(batch.cpu_seconds, batch.seconds / 4)
            self.recent = [*self.recent[1 - SIZED_FROM:], (len(batch.specs), cost)]

    def deadline(self, games: int) -> float:
        """Seconds a batch of ``games`` may go without finishing before it is played again."""
        if not self.games:
            return FIRST_BATCH_DEADLINE
        return max(BATCH_DEADLINE_FLOOR, BATCH_DEADLINE_FACTOR * games * self.seconds / self.games)

    def size(self) -> int:
        if self.games < 2:
            return 1
        per_game = sum(s for _, s in self.recent) / max(1, sum(g for g, _ in self.recent))
        return max(1, min(MAX_BATCH, int(TARGET_BATCH_SECONDS / max(per_game, 1e-6))))


def _timed_batch(game: Game, entrants: Sequence[StrategySpec], specs: Sequence[GameSpec], limit: float | None, records: bool,
                 isolation: Isolation = "none", build_limit: float | None = None, sink: str | None = None) -> tuple:
    """``(rows, records, seconds, paused, cpu_seconds)``: ``paused`` says why the batch must be
    played again (its process was stopped during it), with no rows; else it is empty. With a
    ``sink`` (a results folder: a path or a URI), the rows and records are stored there as a
    part of their own (``parts.write_part``) and ``rows`` is that part's ``Manifest``."""
    start, cpu = time.perf_counter(), time.process_time()
    try:
        rows, recs = play_batch(game, entrants, specs, limit, records, isolation, build_limit)
    except WorkerPaused as exc:
        return [], [], time.perf_counter() - start, str(exc), time.process_time() - cpu
    if sink is not None:
        ids = [spec.game_id for spec in specs]
        manifest = write_part(Location(sink), rows_table(rows, schema(game.metrics)), ids, recs)
        return manifest, [], time.perf_counter() - start, "", time.process_time() - cpu
    return rows, recs, time.perf_counter() - start, "", time.process_time() - cpu


def _batch(specs: Sequence[GameSpec], result: Any, records: list[str], seconds: float, cpu: float, note: str = "",
           error: str = "") -> Batch:
    """The batch ``_timed_batch`` brought back: its rows, or the manifest of the part it stored."""
    if isinstance(result, Manifest):
        return Batch(specs, [], [], seconds, error=error, note=note, manifest=result, cpu_seconds=cpu)
    return Batch(specs, result, records, seconds, error=error, note=note, cpu_seconds=cpu)


class SerialBackend:
    name = "serial"
    workers = 1

    def start(self) -> None:
        pass

    def run(self, game: Game, entrants: Sequence[StrategySpec], specs: Sequence[GameSpec], limit: float | None, records: bool,
            isolation: Isolation = "none", build_limit: float | None = None,
            sink: str | None = None) -> Iterator[Batch]:
        sizer = _Sizer()
        i = 0
        while i < len(specs):
            chunk = specs[i:i + sizer.size()]
            i += len(chunk)
            why = ""
            for replay in range(BATCH_REPLAYS + 1):
                rows, recs, seconds, paused, cpu = _timed_batch(game, entrants, chunk, limit, records, isolation, build_limit, sink)
                if not paused:
                    break
                why = paused
            note = f"{len(chunk)} games played again: {why}" if replay and not paused else ""
            batch = _batch(chunk, rows, recs, seconds, cpu, note=note, error=_stopped(paused, replay))
            sizer.observe(batch)
            yield batch

    def compact(self, sink: str, table_schema: Any, wait: bool = False) -> None:
        """Merge the batches' parts stored so far (``parts.compact_parts``; ``wait``: every
        part, at the end of a run)."""
        compact_parts(Location(sink), table_schema, fresh_only=not wait)

    def close(self) -> None:
        pass


def _warm_up() -> int:
    from ttr_lab.core.game import available_games
    from ttr_lab.core.registry import game_strategies

    for game in available_games():  # imports every game package
        game_strategies(game)  # loads the tables of registered strategies
    return os.getpid()


def _token_available() -> bool:
    if os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH"):
        return True
    return (Path.home() / ".ray" / "auth_token").is_file()


class RayBackend:
    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None, runtime_env: dict | None = None) -> None:
        self.address = address
        self.requested = workers
        self.runtime_env = runtime_env
        self.workers = workers or (os.cpu_count() or 1)
        self._started_here = False
        self._watchdog: Any = None  # the local Ray's watchdog (ray_watchdog.py); none for a cluster
        self._raylet: ray_watchdog.RayletWatch | None = None  # the local Ray's raylet, watched
        self._compacting: Any = None  # the merge of parts running on a worker, if any

    def start(self) -> None:
        if self.address and "RAY_AUTH_MODE" not in os.environ and _token_available():
            # Ray clusters may require token authentication (on by default from Ray 2.61, and
            # wherever RAY_AUTH_MODE=token was set at `ray start`). A driver sending its token
            # also connects to clusters without authentication, so send it whenever one exists.
            # Ray reads this when it is imported, so it is set first.
            os.environ["RAY_AUTH_MODE"] = "token"
        import ray

        if ray.is_initialized():  # the caller's own Ray session (e.g. a notebook): use it, leave it open
            self.workers = self.requested or max(1, int(ray.cluster_resources().get("CPU", 1)))
            return
        self._started_here = True
        options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False, "include_dashboard": False}
        if self.runtime_env:
            options["runtime_env"] = self.runtime_env
        if self.address:
            options.pop("include_dashboard")
            _probe(self.address)
            try:
                ray.init(address=self.address, **options)
            except Exception as exc:  # noqa: BLE001 - turn Ray's long messages into one line
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise ConfigError(
                    f"cannot connect to Ray at {self.address}: {first} (for a cluster with token "
                    "authentication, make its token available: RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or "
                    "~/.ray/auth_token, e.g. from `ray get-auth-token` on the head)"
                ) from None
            cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
            self.workers = min(self.requested, cpus) if self.requested else cpus
        else:
            # Workers on this machine import strategies as the driver does: give them its path
            # (the current directory last, as the driver has it), so `my_module:MyStrategy` works
            # without packaging and a user's folder never shadows an installed package.
            env = dict(options.get("runtime_env") or {})
            env_vars = dict(env.get("env_vars") or {})
            paths = [p for p in sys.path if p and os.path.isdir(p)] + [os.getcwd()]
            if env_vars.get("PYTHONPATH"):
                paths.insert(0, env_vars["PYTHONPATH"])
            env_vars["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
            env["env_vars"] = env_vars
            options["runtime_env"] = env
            # "local": always a fresh Ray of our own, never a cluster some earlier `ray start` left.
            for attempt in range(START_TRIES):
                try:
                    with _no_inherited_address():
                        context = ray.init(address="local", num_cpus=self.workers, **options)
                    break
                except Exception as exc:  # noqa: BLE001 - only Ray's start-up timeout is retried
                    ray.shutdown()
                    # A failed start leaves what it started running (Ray's shutdown does not know
                    # it): stop it, or the next try competes with it for the CPUs.
                    for session in ray_watchdog.sessions_started_here():
                        ray_watchdog.sweep(session)
                    # Ray gives its node a fixed 30 s to register; on a loaded machine it can
                    # miss that and succeed at the next try.
                    if "timed out during startup" not in str(exc) or attempt == START_TRIES - 1:
                        raise
            # A driver killed with -9 must not leave this Ray's processes behind (its agents
            # outlive it by a minute or more): a watchdog stops them when this process dies.
            # ray.init is annotated as returning BaseContext; a local start returns its RayContext.
            self._watchdog = ray_watchdog.start(context.address_info["session_dir"])  # type: ignore[attr-defined]
            raylet = ray_watchdog.raylet_of(os.getpid())
            self._raylet = ray_watchdog.RayletWatch(raylet) if raylet is not None else None
        # Start every worker and import the engine there now, so the first batches do not pay it.
        warm = ray.remote(num_cpus=1)(_warm_up)
        ray.get([warm.remote() for _ in range(self.workers)])

    def run(self, game: Game, entrants: Sequence[StrategySpec], specs: Sequence[GameSpec], limit: float | None, records: bool,
            isolation: Isolation = "none", build_limit: float | None = None,
            sink: str | None = None) -> Iterator[Batch]:
        import ray

        # One retry covers a worker lost by accident (the OOM killer, a lost node). A batch whose
        # worker dies again is played once more with every strategy in its own process: a strategy
        # that ends its process (os._exit, a crash) then forfeits its games, named, and the
        # others' games are stored, instead of the whole batch being lost.
        task = ray.remote(max_retries=1, num_cpus=1)(_timed_batch)
        contained = ray.remote(max_retries=2, num_cpus=1)(_timed_batch)
        game_ref = ray.put(game)  # once: every task reads the same copy from the object store
        entrants_ref = ray.put(list(entrants))
        sizer = _Sizer()
        # task -> (its games, the worker's death, how often it was played again, when it was sent)
        in_flight: dict[Any, tuple[Sequence[GameSpec], str, int, float]] = {}
        limit_in_flight = 3 * self.workers
        i = 0

        def again(chunk: Sequence[GameSpec], died: str, replays: int, why: str) -> Batch | None:
            """Send ``chunk`` once more (it was stopped or stalled), or the batch that reports it."""
            if replays >= BATCH_REPLAYS:
                return Batch(chunk, [], [], 0.0, error=_stopped(why, replays))
            mode = "process" if died else isolation
            ref = (contained if died else task).remote(game_ref, entrants_ref, chunk, limit, records, mode, build_limit, sink)
            in_flight[ref] = (chunk, died, replays + 1, time.monotonic())
            return None

        try:
            while i < len(specs) or in_flight:
                if self._raylet is not None and self._raylet.lost:
                    raise ray_watchdog.RayLost(self._raylet.lost)  # stop before Ray ends this process
                while i < len(specs) and len(in_flight) < limit_in_flight:
                    chunk = specs[i:i + sizer.size()]
                    i += len(chunk)
                    in_flight[task.remote(game_ref, entrants_ref, chunk, limit, records, isolation, build_limit, sink)] = (chunk, "", 0, time.monotonic())
                ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=_WAIT_SECONDS)
                now = time.monotonic()
                for ref in [r for r, (chunk, _, _, sent) in in_flight.items()
                            if r not in ready and now - sent > sizer.deadline(len(chunk))]:
                    # No progress (a stopped or hung worker): ended, and its games played again.
                    chunk, died, replays, sent = in_flight.pop(ref)
                    ray.cancel(ref, force=True)
                    failed = again(chunk, died, replays, f"their worker made no progress for {now - sent:.0f} s")
                    if failed is not None:
                        yield failed
                for ref in ready:
                    chunk, died, replays, _ = in_flight.pop(ref)
                    try:
                        rows, recs, seconds, paused, cpu = ray.get(ref)
                    except Exception as exc:  # noqa: BLE001 - retries exhausted
                        error = one_line(exc)
                        if not died and isolation != "process":
                            again_ref = contained.remote(game_ref, entrants_ref, chunk, limit, records, "process",
                                                         build_limit, sink)
                            in_flight[again_ref] = (chunk, f"their worker died twice ({error})", replays, time.monotonic())
                            continue
                        batch = Batch(chunk, [], [], 0.0, error=error)  # report, store nothing
                    else:
                        if paused:
                            failed = again(chunk, died, replays, paused)
                            if failed is not None:
                                yield failed
                            continue
                        notes = [f"{len(chunk)} games replayed with each strategy in its own process after {died}"] if died else []
                        if replays and not died:
                            notes.append(f"{len(chunk)} games played again after their worker stopped or stalled")
                        batch = _batch(chunk, rows, recs, seconds, cpu, note="; ".join(notes))
                    sizer.observe(batch)
                    yield batch
        finally:
            for ref in in_flight:
                ray.cancel(ref, force=True)

    def compact(self, sink: str, table_schema: Any, wait: bool = False) -> None:
        """Merge the batches' parts stored so far, on a worker (reading and writing every row is
        a worker's kind of work: on the driver it would cost as much as storing them did). One
        merge at a time; ``wait``: until it is done (at the end of a run)."""
        import ray

        if self._compacting is not None:
            done, _ = ray.wait([self._compacting], timeout=None if wait else 0)
            if not done:
                return
            self._compacting = None
        merge = ray.remote(num_cpus=1, max_retries=1)(_compact)
        self._compacting = merge.remote(sink, table_schema, not wait)
        if wait:
            ray.get(self._compacting)
            self._compacting = None

    def close(self) -> None:
        import ray

        lost = self._raylet is not None and self._raylet.lost
        if self._raylet is not None:
            self._raylet.stop()  # before the shutdown ends the raylet
            self._raylet = None
        if lost:  # Ray's shutdown would reach its dead object store (and end this process):
            return  # what is left of it dies with this process, and the watchdog sweeps the rest
        try:
            if self._started_here and ray.is_initialized():
                ray.shutdown()
        finally:
            ray_watchdog.stop(self._watchdog)  # Ray was shut down here: nothing left to sweep
            self._watchdog = None


def _compact(sink: str, table_schema: Any, fresh_only: bool) -> int:
    return compact_parts(Location(sink), table_schema, fresh_only=fresh_only)


@contextlib.contextmanager
def _no_inherited_address() -> Iterator[None]:
    """``RAY_ADDRESS`` hidden while the local Ray starts: its processes inherit this environment,
    and a ``ray.init()`` run inside one of them (a strategy's, a user's) would otherwise join the
    cluster the variable names, not the Ray it runs in. The driver's own value is put back."""
    inherited = os.environ.pop("RAY_ADDRESS", None)
    try:
        yield
    finally:
        if inherited is not None:
            os.environ["RAY_ADDRESS"] = inherited


def _probe(address: str, seconds: float = 10.0) -> None:
    """Fail in seconds, in one line, when nothing listens at ``host:port`` (Ray itself keeps
    retrying for minutes). ``auto`` and addresses without a port are left to Ray."""
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ConfigError(f"cannot connect to Ray at {address}: {reason} (is the head running? `ray status` "
                          "on it shows its address)") from None


# How often the batches in flight are checked against their deadlines, and the raylet for being
# gone (Ray ends this process some 10 s after its raylet: the run must stop before that).
_WAIT_SECONDS = 1.0


def _stopped(why: str, replays: int) -> str:
    """The error of a batch given up after ``replays`` replays (empty: it was not)."""
    if not why:
        return ""
    return f"played {replays + 1} times, stopped every time ({why}); not stored: rerun to retry"


def one_line(exc: BaseException) -> str:
    """Ray's error as one line: its type and first line, without colour codes."""
    import re

    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc)).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__


Backend = SerialBackend | RayBackend


def make_backend(name: str, address: str | None = None, workers: int | None = None,
                 runtime_env: dict | None = None) -> Backend:
    """The backend called ``name``: ``serial``, or ``ray`` (a local Ray unless ``address``)."""
    if name == "serial":
        return SerialBackend()
    return RayBackend(address, workers, runtime_env)
