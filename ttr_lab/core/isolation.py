"""Strategies in their own processes: a strategy that runs here cannot reach the game.

In-process, a strategy shares the interpreter with the engine: it can walk the call stack
(``sys._getframe``) or the heap (``gc``) to the live state (every hand, the deck) and change it.
Isolated, each strategy lives in a child process (``python -m ttr_lab.core.isolation``) that
builds it (the engine's process never imports a strategy's module), receives, per decision,
only the pickled observation and legal actions, and answers with the index of its choice among
them; the engine keeps every object it owns. A child's answers are JSON that the engine decodes
and checks (an index, "not legal" with a text, an error's name and text): nothing a child sends
is unpickled, so no object of the strategy's runs code in the engine. The operating system's
boundaries around the child (its own user, limits, its own session) are ``core.confinement``'s. The child also takes the
blows a strategy can deal its process: ``sys.exit``, ``os._exit``, ``KeyboardInterrupt``, a
crash or a decision that never returns (the parent stops waiting at the move time limit and
kills it) become one named error for that seat, and a fresh child serves the next game.

The game's own values (``Game`` attributes such as a board and a ruleset) are sent to a child
once and referred to by key afterwards (pickle persistent ids), and so is the public history
(an observation's ``log``, the core's linked list, ``core.history``): each decision sends the
events since the seat's last one, not the map and the whole game again.

Over 400 lines on purpose: the parent's side and the child's loop speak one protocol (what is sent,
what is answered, how each failure is named), kept in one file so that a change to one end is
made beside the other.
"""

from __future__ import annotations

import io
import json
import os
import pickle
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Callable, Sequence

from ttr_lab.core import confinement

HOOKS = ("on_game_start", "on_event", "on_game_end")
_PRIMITIVE = (int, float, str, bytes, bool, type(None))
_MAX_REPLY = 1 << 16  # bytes: an index, a name, a text; a child sending more is stopped
_MAX_TEXT = 500  # characters of a child's text kept in an error message
# A fresh child's start (an interpreter, the engine's modules) is the engine's time, not the
# strategy's: it says it is ready before any strategy code runs, and only then is a build timed.
START_SECONDS = 120.0


class StrategyProcessError(RuntimeError):
    """A strategy failed inside its process; subclasses carry the name of what it raised."""


class DecisionTimeout(StrategyProcessError):
    """A decision outlasted its limit: the strategy's process was killed from outside."""


class StrategyProcessDied(StrategyProcessError):
    """The strategy's process ended (``os._exit``, a crash, a signal)."""


class _Late(Exception):
    """The deadline passed before a message to or from a child was whole (``got`` of ``size``
    bytes of a reply: a child that sends part of one and sleeps is as late as a silent one)."""

    def __init__(self, got: int = 0, size: int = 0) -> None:
        super().__init__()
        self.got, self.size = got, size


def _left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (a ``time.monotonic()``; None: no deadline); ``_Late`` once past."""
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise _Late()
    return left


def shared_values(game: Any) -> dict[int, Any]:
    """The game's own values that observations refer to (e.g. its board and ruleset), by id."""
    names = list(getattr(game, "__dict__", {})) + [s for c in type(game).__mro__ for s in getattr(c, "__slots__", ())]
    out = {}
    for name in names:
        value = getattr(game, name, None)
        if not isinstance(value, _PRIMITIVE) and not callable(value):
            out[id(value)] = value
    return out


def raised_as(name: str, message: str) -> StrategyProcessError:
    """An error whose class name is what the strategy raised, for the usual forfeit message."""
    return type(name if name.isidentifier() else "StrategyError", (StrategyProcessError,), {})(message)


class NotLegal(StrategyProcessError):
    """The strategy chose something that is not one of the legal actions (the text says what)."""


def _reply(data: bytes) -> tuple[str, Any]:
    """A child's reply, decoded and checked: ``("ok", index or None)``, ``("new", (name, hooks))``,
    ``("checked", validated parameters)``,
    ``("not legal", text)`` or ``("error", (name, text))``; anything else is a ``StrategyProcessError``."""
    try:
        reply = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise StrategyProcessError("its process sent an answer that is not JSON") from None
    ok = isinstance(reply, list) and reply and isinstance(reply[0], str)
    kind = reply[0] if ok else None
    if kind == "ok" and len(reply) == 2 and (reply[1] is None or type(reply[1]) is int):
        return kind, reply[1]
    if kind == "checked" and len(reply) == 2 and isinstance(reply[1], dict):
        return kind, reply[1]
    if kind == "new" and len(reply) == 3 and isinstance(reply[1], str) and isinstance(reply[2], list):
        return kind, (reply[1][:100], [h for h in reply[2] if h in HOOKS])
    if kind == "not legal" and len(reply) == 2 and isinstance(reply[1], str):
        return kind, reply[1][:_MAX_TEXT]
    if kind == "error" and len(reply) == 3 and isinstance(reply[1], str) and isinstance(reply[2], str):
        return kind, (reply[1][:100], reply[2][:_MAX_TEXT])
    raise StrategyProcessError("its process sent an answer the engine does not read")


class StrategyHost:
    """One child process hosting strategies (one instance per seat), restarted when it dies.

    Give each seat a host of its own (the tournament does: ``host_for``): a
    strategy that ends its process then takes down only its own seat, and the error names it,
    even when another seat plays the same strategy with the same parameters."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        # The engine's end: read and written by the frames of ``multiprocessing.connection`` (as
        # the child does), each read and write bounded by the call's deadline.
        self.sock: socket.socket | None = None
        self._why = ""  # why the child was stopped from outside between calls (a send too late)
        self._sent: set[int] = set()  # ids of shared values this child already has
        self._keep: list[Any] = []  # keeps those values alive, so their ids stay theirs
        self._logs: dict[int, Any] = {}  # per seat, the last history node the child was sent
        self._known: dict[int, int] = {}  # id -> key of everything the child holds by key
        self.uid: int | None = None  # the child's own user, when this process can give it one
        self._cache: str | None = None  # its private copy of the compiled kernels' caches
        self._temp: str | None = None  # its own temporary folder

    def _start(self) -> None:
        parent, child = socket.socketpair()
        env = dict(os.environ)
        # The child imports strategies as this process does: give it this process's path.
        env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([os.getcwd(), *(p for p in sys.path if p)]))
        confinement.protect_parent()
        self.uid = confinement.next_uid()
        self._cache = confinement.compiled_cache(self.uid)
        if self._cache is not None:
            env["NUMBA_CACHE_DIR"] = self._cache
        self._temp = confinement.private_temp(self.uid)
        env.update(TMPDIR=self._temp, TEMP=self._temp, TMP=self._temp)
        # The child dies with the thread that starts it: only the main thread lives as long as the engine.
        engine = os.getpid() if threading.current_thread() is threading.main_thread() else -1
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ttr_lab.core.isolation", str(child.fileno()), str(self.uid or -1), str(engine)],
            pass_fds=[child.fileno()], env=env, stdin=subprocess.DEVNULL, start_new_session=True,
        )
        child.close()
        self.sock, self._why = parent, ""
        self._sent, self._keep, self._logs, self._known = set(), [], {}, {}
        try:
            ready = self._receive(time.monotonic() + START_SECONDS) == b'["ready"]'
        except (_Late, EOFError, OSError, StrategyProcessError):
            ready = False
        if not ready:
            self.stop()
            self._why = f"its process did not start within {START_SECONDS:g} s"

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is not None:
            confinement.end_all(self.proc.pid, self.uid)  # before the wait: the session's id is still its
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
        if self.sock is not None:
            self.sock.close()
        if self._cache is not None:
            import shutil

            shutil.rmtree(self._cache, ignore_errors=True)
        if self.proc is not None or self._temp is not None:
            confinement.remove_files(self._temp, self.uid)
        self.proc, self.sock, self._cache, self._temp = None, None, None, None

    def _write(self, data: bytes, deadline: float | None) -> None:
        """One frame (``Connection.send_bytes``'s): a child that stops reading cannot hold the engine."""
        assert self.sock is not None
        head = struct.pack("!i", len(data)) if len(data) <= 0x7FFFFFFF else struct.pack("!iQ", -1, len(data))
        self.sock.settimeout(_left(deadline))
        try:
            self.sock.sendall(head + data)
        except TimeoutError:
            raise _Late() from None

    def _read(self, size: int, deadline: float | None, got: int = 0, total: int = 0) -> bytes:
        assert self.sock is not None
        buffer = bytearray()
        while len(buffer) < size:
            try:
                self.sock.settimeout(_left(deadline))
                chunk = self.sock.recv(size - len(buffer))
            except (_Late, TimeoutError):
                raise _Late(got + len(buffer), total) from None
            if not chunk:
                raise EOFError
            buffer += chunk
        return bytes(buffer)

    def _receive(self, deadline: float | None) -> bytes:
        """One reply frame, whole by ``deadline``: the length first, then no more than it says."""
        (size,) = struct.unpack("!i", self._read(4, deadline))
        if size == -1:
            (size,) = struct.unpack("!Q", self._read(8, deadline))
        if not 0 <= size <= _MAX_REPLY:
            raise StrategyProcessError(f"its process sent more than {_MAX_REPLY} bytes")
        return self._read(size, deadline, 0, size)

    def _dumps(self, message: Any) -> bytes:
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        lookup = self._known.get
        pickler.persistent_id = lambda obj: lookup(id(obj))  # type: ignore[method-assign]
        pickler.dump(message)
        return buffer.getvalue()

    def remember_log(self, seat: int, log: Any) -> None:
        """The child keeps ``log`` (sent with this seat's decision) in place of the seat's last:
        the next decision refers to it rather than sending it again. The child does the same."""
        old = self._logs.pop(seat, None)
        if old is not None and not any(o is old for o in self._logs.values()):
            self._known.pop(id(old), None)
        if log is not None:
            self._logs[seat] = log
            self._known[id(log)] = id(log)

    def send(self, message: tuple, shared: dict[int, Any], deadline: float | None = None) -> None:
        """Send without waiting for an answer (events); a failure surfaces at the seat's next
        ``call``. A child that has not taken the message by ``deadline`` is stopped.

        A fresh child is started only for a new strategy (``"new"``, a game's start, or
        ``"check"``, a config's): one that
        died during a game stays dead until the game's next call reports it, so the error
        names the death (not a fresh child's confusion) and the seat whose process it was."""
        if message[0] in ("new", "check") and not self.alive():
            self.stop()
            self._start()
        if not self.alive() or self.sock is None:
            return  # it died: the next call reports how
        missing = {k: v for k, v in shared.items() if k not in self._sent}
        try:
            if missing:
                self._write(pickle.dumps(("shared", missing), protocol=pickle.HIGHEST_PROTOCOL), deadline)
                self._sent.update(missing)
                self._keep += missing.values()
                self._known.update({k: k for k in missing})
            self._write(self._dumps(message), deadline)
        except _Late:
            self.stop()
            self._why = "it stopped reading the engine's messages; its process was stopped from outside"
        except OSError:
            pass  # it died: the next call reports how

    def call(self, message: tuple, shared: dict[int, Any], timeout: float | None) -> Any:
        """Send ``message`` and read the answer, both within ``timeout`` seconds (None: no limit):
        past it, the child is stopped and the call raises ``DecisionTimeout``."""
        if message[0] in ("new", "check") and not self.alive():
            self.stop()
            self._start()  # before the deadline is set: the start is the engine's time
        deadline = None if timeout is None else time.monotonic() + timeout
        self.send(message, shared, deadline)
        if self.sock is None:  # stopped from outside, now or earlier in this game
            if self._why:
                raise DecisionTimeout(self._why)
            raise StrategyProcessDied("its process was stopped")
        try:
            data = self._receive(deadline)
        except _Late as late:
            self.stop()
            if message[0] in ("new", "check"):
                late_by = f"was not built within {timeout:g} s"
            elif late.got:
                late_by = f"sent {late.got} bytes of a {late.size}-byte answer within {timeout:g} s"
            else:
                late_by = f"thought for more than {timeout:g} s"
            raise DecisionTimeout(f"{late_by}; its process was stopped from outside") from None
        except StrategyProcessError:
            self.stop()
            raise
        except (EOFError, OSError):
            code = self.proc.wait() if self.proc is not None else None
            self.stop()
            how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
            raise StrategyProcessDied(f"its process ended ({how})") from None
        try:
            kind, value = _reply(data)
        except StrategyProcessError:
            self.stop()
            raise
        if kind == "error":
            raise raised_as(*value)
        if kind == "not legal":
            raise NotLegal(value)
        return value


class IsolatedStrategy:
    """Stands in the game loop for a strategy that lives in a ``StrategyHost``.

    Hooks are forwarded only when the strategy defines them; events go without waiting for an
    answer (their errors come back with the next decision)."""

    def __init__(self, host: StrategyHost, seat: int, spec: tuple[str, dict[str, Any], str | None],
                 shared: dict[int, Any], timeout: float | None = None, build_timeout: float | None = None) -> None:
        """``spec``: the strategy's name (or ``module:Class``), its parameters and the game's
        name; the child resolves, checks and builds it within ``build_timeout`` seconds (a fresh
        child's start-up included), and says its name and hooks."""
        self.host, self.seat, self.shared, self.timeout = host, seat, shared, timeout
        self._rng_sent = False
        self.name, hooks = host.call(("new", seat, *spec), shared, build_timeout)
        for hook in hooks:
            setattr(self, hook, self._forward(hook))

    def _forward(self, hook: str) -> Callable[..., Any]:
        def forward(*args: Any) -> Any:
            if hook == "on_event":
                deadline = None if self.timeout is None else time.monotonic() + self.timeout
                return self.host.send(("call", self.seat, hook, args, False), self.shared, deadline)
            return self.host.call(("call", self.seat, hook, args, True), self.shared, self.timeout)

        forward.__name__ = hook
        return forward

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        # The rng goes once per game: the child keeps drawing from its copy, as in-process.
        sent_rng = None if self._rng_sent else rng
        self._rng_sent = True
        log = getattr(observation, "log", None)
        log = log if isinstance(log, tuple) else None
        message = ("act", self.seat, observation, legal_actions, sent_rng, None if log is None else id(log))
        try:
            choice = self.host.call(message, self.shared, self.timeout)
        finally:
            self.host.remember_log(self.seat, log)
        if choice is not None and 0 <= choice < len(legal_actions):
            return legal_actions[choice]  # the engine's own object, never the child's copy
        raise NotLegal(f"its answer is not one of the {len(legal_actions)} legal actions")

    act.__name__ = "act"


# ---- the child ---------------------------------------------------------------------------

def check_strategies(specs: Sequence[tuple[str, dict[str, Any], str | None]], timeout: float | None = None,
                     ) -> list[tuple[dict[str, Any] | None, tuple[str, str] | None]]:
    """Resolve, check and build each ``(strategy, params, game)`` once in a child process (the
    engine's never imports a strategy), each within ``timeout`` seconds: per spec, its validated
    parameters (converted, every default filled in, as JSON: the strategy's identity) and None,
    or None and what it raised (name, text)."""
    host = StrategyHost()
    out: list[tuple[dict[str, Any] | None, tuple[str, str] | None]] = []
    try:
        for spec in specs:
            try:
                out.append((host.call(("check", -1, *spec), {}, timeout), None))
            except StrategyProcessError as exc:
                out.append((None, (type(exc).__name__, str(exc))))
    finally:
        host.stop()
    return out


def _text(value: Any) -> str:
    """``str(value)``, or a word on why it has none: a strategy's ``__str__`` may raise."""
    try:
        return str(value)[:_MAX_TEXT]
    except BaseException as exc:  # noqa: BLE001 - whatever a strategy's object raises
        return f"<{type(value).__name__} whose str() raised {type(exc).__name__}>"


def _validated(strategy: str, params: dict[str, Any], game: str | None) -> dict[str, Any]:
    """The parameters as the strategy takes them, defaults filled in, as plain JSON."""
    from ttr_lab.core.registry import resolve, validate_parameters

    checked = validate_parameters(strategy, resolve(strategy, game), params)
    return json.loads(json.dumps(checked, sort_keys=True, default=str))


def _build(strategy: str, params: dict[str, Any], game: str | None) -> Any:
    from ttr_lab.core.registry import factory
    from ttr_lab.core.strategy import strategy_name

    player = factory(strategy, params, game)()
    return player, ["new", _text(strategy_name(player)), [h for h in HOOKS if hasattr(player, h)]]


def _serve(conn: Connection) -> None:
    # Ctrl-C is the parent's to handle; a strategy raising KeyboardInterrupt is the strategy's fault.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    shared: dict[int, Any] = {}
    players: dict[int, Any] = {}
    rngs: dict[int, Any] = {}
    pending: dict[int, tuple[str, str]] = {}  # a failed event, reported at the seat's next answer
    logs: dict[int, int] = {}  # per seat, the key of the last history node received (as the parent)

    def loads(data: bytes) -> Any:
        unpickler = pickle.Unpickler(io.BytesIO(data))
        unpickler.persistent_load = shared.__getitem__  # type: ignore[method-assign]
        return unpickler.load()

    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return  # the parent is gone
        message = loads(data)
        kind = message[0]
        if kind == "shared":
            shared.update(message[1])
            continue
        seat = message[1]
        reply: list = ["ok", None]
        try:
            if kind in ("new", "check"):
                player, reply = _build(*message[2:])
                if kind == "check":
                    reply = ["checked", _validated(*message[2:])]
                if seat >= 0:
                    players[seat] = player
                rngs.pop(seat, None)
                pending.pop(seat, None)
            elif kind == "act":
                _, _, observation, legal, rng, log_key = message
                old = logs.pop(seat, None)
                if old is not None and old not in logs.values():
                    shared.pop(old, None)
                if log_key is not None:
                    shared[log_key] = observation.log
                    logs[seat] = log_key
                if rng is not None:
                    rngs[seat] = rng
                action = players[seat].act(observation, legal, rngs[seat])
                index = next((i for i, a in enumerate(legal) if a is action), None)
                if index is None:
                    index = next((i for i, a in enumerate(legal) if a == action), None)
                reply = ["ok", index] if index is not None else ["not legal", f"{_text(action)!r} is not legal"]
            else:
                _, _, hook, args, answer = message
                getattr(players[seat], hook)(*args)
                if not answer:
                    continue
        except BaseException as exc:  # noqa: BLE001 - SystemExit and KeyboardInterrupt too: the seat's fault
            text = f"exit code {_text(exc.code)}" if isinstance(exc, SystemExit) else _text(exc)
            if kind == "call" and not message[4]:
                pending.setdefault(seat, (type(exc).__name__, text))
                continue
            reply = ["error", type(exc).__name__, text]
        if seat in pending:
            reply = ["error", *pending.pop(seat)]
        conn.send_bytes(json.dumps(reply).encode())


if __name__ == "__main__":
    uid = int(sys.argv[2])
    confinement.confine(None if uid < 0 else uid, int(sys.argv[3]))
    connection = Connection(int(sys.argv[1]))
    connection.send_bytes(b'["ready"]')
    _serve(connection)
