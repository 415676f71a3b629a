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
"""

from __future__ import annotations

import io
import json
import os
import pickle
import signal
import socket
import subprocess
import sys
from multiprocessing.connection import Connection
from typing import Any, Callable, Sequence

from ttr_lab.core import confinement

HOOKS = ("on_game_start", "on_event", "on_game_end")
_PRIMITIVE = (int, float, str, bytes, bool, type(None))
_MAX_REPLY = 1 << 16  # bytes: an index, a name, a text; a child sending more is stopped
_MAX_TEXT = 500  # characters of a child's text kept in an error message


class StrategyProcessError(RuntimeError):
    """A strategy failed inside its process; subclasses carry the name of what it raised."""


class DecisionTimeout(StrategyProcessError):
    """A decision outlasted its limit: the strategy's process was killed from outside."""


class StrategyProcessDied(StrategyProcessError):
    """The strategy's process ended (``os._exit``, a crash, a signal)."""


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
        self.conn: Connection | None = None
        self._sent: set[int] = set()  # ids of shared values this child already has
        self._keep: list[Any] = []  # keeps those values alive, so their ids stay theirs
        self._logs: dict[int, Any] = {}  # per seat, the last history node the child was sent
        self._known: dict[int, int] = {}  # id -> key of everything the child holds by key
        self.uid: int | None = None  # the child's own user, when this process can give it one
        self._cache: str | None = None  # its private copy of the compiled kernels' caches

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
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ttr_lab.core.isolation", str(child.fileno()), str(self.uid or -1)],
            pass_fds=[child.fileno()], env=env, stdin=subprocess.DEVNULL, start_new_session=True,
        )
        child.close()
        self.conn = Connection(parent.detach())
        self._sent, self._keep, self._logs, self._known = set(), [], {}, {}

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is not None:
            confinement.end_all(self.proc.pid, self.uid)  # before the wait: the session's id is still its
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
        if self.conn is not None:
            self.conn.close()
        if self._cache is not None:
            import shutil

            shutil.rmtree(self._cache, ignore_errors=True)
        self.proc, self.conn, self._cache = None, None, None

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

    def send(self, message: tuple, shared: dict[int, Any]) -> None:
        """Send without waiting (events); a failure surfaces at the seat's next ``call``.

        A fresh child is started only for a new strategy (``"new"``, a game's start, or
        ``"check"``, a config's): one that
        died during a game stays dead until the game's next call reports it, so the error
        names the death (not a fresh child's confusion) and the seat whose process it was."""
        if message[0] in ("new", "check") and not self.alive():
            self.stop()
            self._start()
        if not self.alive() or self.conn is None:
            return  # it died: the next call reports how
        missing = {k: v for k, v in shared.items() if k not in self._sent}
        try:
            if missing:
                self.conn.send_bytes(pickle.dumps(("shared", missing), protocol=pickle.HIGHEST_PROTOCOL))
                self._sent.update(missing)
                self._keep += missing.values()
                self._known.update({k: k for k in missing})
            self.conn.send_bytes(self._dumps(message))
        except OSError:
            pass  # it died: the next call reports how

    def call(self, message: tuple, shared: dict[int, Any], timeout: float | None) -> Any:
        self.send(message, shared)
        if self.conn is None:  # stopped from outside earlier in this game
            raise StrategyProcessDied("its process was stopped")
        try:
            if timeout is not None and not self.conn.poll(timeout):
                self.stop()
                raise DecisionTimeout(f"thought for more than {timeout:g} s; its process was stopped from outside")
            data = self.conn.recv_bytes(_MAX_REPLY)
        except (EOFError, OSError) as exc:
            if isinstance(exc, OSError) and str(exc) == "bad message length":  # multiprocessing's words
                self.stop()
                raise StrategyProcessError(f"its process sent more than {_MAX_REPLY} bytes") from None
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
                 shared: dict[int, Any], timeout: float | None = None) -> None:
        """``spec``: the strategy's name (or ``module:Class``), its parameters and the game's
        name; the child resolves, checks and builds it, and says its name and hooks."""
        self.host, self.seat, self.shared, self.timeout = host, seat, shared, timeout
        self._rng_sent = False
        self.name, hooks = host.call(("new", seat, *spec), shared, None)
        for hook in hooks:
            setattr(self, hook, self._forward(hook))

    def _forward(self, hook: str) -> Callable[..., Any]:
        def forward(*args: Any) -> Any:
            if hook == "on_event":
                return self.host.send(("call", self.seat, hook, args, False), self.shared)
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

def check_strategies(specs: Sequence[tuple[str, dict[str, Any], str | None]]
                     ) -> list[tuple[dict[str, Any] | None, tuple[str, str] | None]]:
    """Resolve, check and build each ``(strategy, params, game)`` once in a child process (the
    engine's never imports a strategy): per spec, its validated parameters (converted, every
    default filled in, as JSON: the strategy's identity) and None, or None and what it raised
    (name, text)."""
    host = StrategyHost()
    out: list[tuple[dict[str, Any] | None, tuple[str, str] | None]] = []
    try:
        for spec in specs:
            try:
                out.append((host.call(("check", -1, *spec), {}, None), None))
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
    confinement.confine(None if uid < 0 else uid)
    _serve(Connection(int(sys.argv[1])))
