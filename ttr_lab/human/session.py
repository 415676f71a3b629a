"""One game a person plays in the browser: ``play_game`` in a thread of its own, the person's
seat a strategy whose ``act`` publishes what that seat may see and waits for the choice the page
sends, the AI seats wrapped so the page can say who is thinking and see their moves one by one.

What a session publishes (``view()``) is built from ``observation(person)`` only, through the
game's ``views.live()``: never a hidden card. Each of the person's decisions has a number, published
with its actions; a choice names the decision it answers, and is checked against the legal actions
published with it (an index, or an action's text) before the game loop sees it, all under the
game's lock: a stale or repeated choice (a double click, a click on a list already replaced) is
refused, never played at the next decision, and each decision is answered once however many
requests race for it. An AI seat thinks on the shared ``AIThreads``, at most its limit a decision:
past it the game ends, said on the page. A person who does not choose for ``idle_seconds`` ends the
game, said to them too. Sessions are named by unguessable ids (``secrets.token_urlsafe``), each with
its own state, lock and thread: games never mix.
"""

from __future__ import annotations

import queue
import secrets
import threading
import time
from typing import Any, Callable, Sequence

from ttr_lab.core.errors import ConfigError, IllegalActionError, StrategyError, TTRLabError
from ttr_lab.core.play import play_game, reads_observations
from ttr_lab.core.record import GameRecord
from ttr_lab.core.registry import StrategySpec
from ttr_lab.core.strategy import strategy_name
from ttr_lab.human.seats import AIThreads, LeftTheTable, think_limit, timed

IDLE_SECONDS = 3600.0  # a game whose person has not chosen for this long is ended
HOOKS = ("on_game_start", "on_event", "on_game_end")


class StaleMove(TTRLabError):
    """A choice for a decision that is not the open one (already answered, or not yet asked)."""


class GameEnded(TTRLabError):
    """A choice for a game that is over, or that ended while nobody played it."""


def spoken(seconds: float) -> str:
    """A duration as a person reads it (``60 minutes``, ``2.5 seconds``)."""
    return f"{seconds / 60:g} minutes" if seconds >= 60 else f"{seconds:g} seconds"


def build_seats(game: Any, specs: dict[int, StrategySpec], think: float, threads: AIThreads) -> dict[int, Any]:
    """The AI seats' strategies (seat -> strategy), each built on ``threads`` within its limit.
    ``ConfigError`` naming the strategy when one raises or takes too long."""
    built = {}
    for seat, spec in specs.items():
        try:
            built[seat] = threads.run(timed, spec, game.name, think)
        except TimeoutError as exc:
            raise ConfigError(f"strategy {spec.label!r} was not built: it {exc}") from None
        except Exception as exc:  # noqa: BLE001 - a plug-in's constructor may raise anything
            raise ConfigError(f"strategy {spec.label!r} could not be built: {type(exc).__name__}: "
                              f"{' '.join(str(exc).split())[:300]}") from None
    return built


class _Watched:
    """The game, remembering the state ``play_game`` makes, so the person's view can be drawn
    from it after every action (only through ``observation(person)``)."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.state: Any = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def new_game(self, num_players: int, seed: int) -> Any:
        self.state = self._game.new_game(num_players, seed)
        return self.state


class _Person:
    """The person's seat: publishes the decision and waits for the page's choice."""

    name = "human"

    def __init__(self, session: "Session") -> None:
        self.session = session

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        return self.session._decide(observation, legal_actions)

    def on_event(self, player: int, action: Any, card: Any) -> None:
        self.session._publish()


class _Machine:
    """An AI seat: its strategy, thinking on the shared threads within its limit, with the page
    told while it thinks, and at least ``pace`` seconds a move so a person sees the moves one
    after another."""

    def __init__(self, inner: Any, seat: int, session: "Session") -> None:
        self.inner, self.seat, self.session = inner, seat, session
        self.observes = reads_observations(inner)
        self.name = strategy_name(inner)
        for hook in HOOKS:  # a hook runs on the threads too: a hanging one cannot hold the game
            if callable(getattr(inner, hook, None)):
                setattr(self, hook, self._limited(getattr(inner, hook)))

    def __getattr__(self, name: str) -> Any:  # its other attributes
        return getattr(self.inner, name)

    def _limited(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            try:
                return self.session.threads.run(fn, *args)
            except TimeoutError as exc:
                name = self.session.names[self.seat]  # as the page names the seat
                raise StrategyError(f"seat {self.seat} ({name}) {exc} ({fn.__name__}); the game ended",
                                    self.seat, name) from None

        call.__name__ = getattr(fn, "__name__", "hook")
        return call

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        start = time.monotonic()
        self.session._thinking(self.seat)
        try:
            return self._limited(self.inner.act)(observation, legal_actions, rng)
        finally:
            time.sleep(max(0.0, self.session.pace - (time.monotonic() - start)))
            self.session._thinking(None)


class Session:
    """A game of ``game`` with a person at seat ``person`` and ``specs`` (seat -> strategy) at the
    others; ``think``: the clock budget of a searching AI seat; ``pace``: the least time an AI
    move takes on the page; ``threads``: where the AI seats think (a pool of the session's own
    when None); ``built``: the AI seats' strategies, already built (``build_seats``); ``idle_seconds``:
    how long the person may leave a decision open before the game ends."""

    def __init__(self, game: Any, person: int, specs: dict[int, StrategySpec], seed: int, think: float = 2.0,
                 pace: float = 0.4, *, threads: AIThreads | None = None, built: dict[int, Any] | None = None,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self.id = secrets.token_urlsafe(18)
        self.game, self.person, self.seed, self.pace = game, person, seed, pace
        self.idle_seconds = idle_seconds
        self.threads = threads if threads is not None else AIThreads(len(specs), think_limit(think))
        self.players = len(specs) + 1
        self.names = ["you" if s == person else specs[s].label for s in range(self.players)]
        self.live = game.views.live()
        if built is None:
            built = build_seats(game, specs, think, self.threads)
        seats: list[Any] = [_Person(self) if s == person else _Machine(built[s], s, self) for s in range(self.players)]
        self._watched = _Watched(game)
        self._lock = threading.Lock()
        self._choices: queue.Queue[Any] = queue.Queue()
        self._legal: list[Any] = []
        self._decision = 0  # the number of the person's decision last asked
        self._mark: dict[str, Any] | None = None
        self._view: dict[str, Any] = {"version": 0, "started": False, "decision": 0}
        self.record: GameRecord | None = None
        self.error: str | None = None
        self.ended: str | None = None  # why the game ended before its end (the person left it idle)
        self.touched = time.monotonic()
        self._thread = threading.Thread(target=self._run, args=(seats,), name=f"game-{self.id[:6]}", daemon=True)
        self._thread.start()

    @property
    def done(self) -> bool:
        """Over: played to its end, ended by a seat's fault, or ended idle."""
        return self.record is not None or self.error is not None or self.ended is not None

    # -- the page's side ----------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """What the page shows now (plain JSON, the person's information only)."""
        with self._lock:
            return dict(self._view)

    def choose(self, decision: Any, value: Any, text: Any = None) -> None:
        """Play the person's choice at decision number ``decision``: an index into the actions
        published with it, or an action's text (``text``, if given: the text the index must stand
        for). ``GameEnded`` when the game is over, ``StaleMove`` when ``decision`` is not the open
        one, ``ConfigError`` or ``IllegalActionError`` when the choice is none of its actions."""
        if isinstance(decision, bool) or not isinstance(decision, int):
            raise ConfigError(f"decision is the number of the decision the move answers, not {decision!r}")
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ConfigError(f"an action is an index or a text, not {type(value).__name__}")
        if text is not None and not isinstance(text, str):
            raise ConfigError(f"text is the chosen action's text, not {type(text).__name__}")
        self.end_if_idle()  # the game thread looks once a minute: a move after the limit ends it all the same
        with self._lock:
            if self.done:
                raise GameEnded(self.ended or self.error or "the game is over")
            if decision != self._decision or not self._legal:
                raise StaleMove(f"decision {decision} is not open (it was answered already, or is not asked yet); "
                                f"the open one is {self._decision if self._legal else 'none: it is not your turn'}")
            legal = self._legal
            if isinstance(value, int):
                if not 0 <= value < len(legal):
                    raise ConfigError(f"no action {value} (0 to {len(legal) - 1})")
                action = legal[value]
                if text is not None and text != str(action):
                    raise StaleMove(f"action {value} of decision {decision} is {str(action)!r}, not {text!r}")
            else:
                wanted = self.game.parse_action(value)
                found = [a for a in legal if a == wanted]
                if not found:
                    raise IllegalActionError(f"{wanted} is not legal now")
                action = found[0]
            self._legal = []  # one choice per decision: a second request finds none
            self._view = {**self._view, "actions": [], "version": self._view["version"] + 1}
            self.touched = time.monotonic()
        self._choices.put(action)

    def end_if_idle(self) -> bool:
        """End the game now if the person's decision has been open longer than the idle limit."""
        with self._lock:
            expired = self._expired()
        if expired:
            self._choices.put(LeftTheTable(self.ended))
        return expired

    def stop(self) -> None:
        """Abandon the game (its thread ends at the person's next decision)."""
        self._choices.put(LeftTheTable("the game was abandoned"))

    # -- the game thread's side -----------------------------------------------------------------

    def _run(self, seats: list[Any]) -> None:
        try:
            self.record = play_game(self._watched, seats, self.seed)
        except LeftTheTable:
            if self.ended is None:
                return
        except TTRLabError as exc:
            self.error = str(exc)
        self._publish()

    def _decide(self, observation: Any, legal: Sequence[Any]) -> Any:
        actions = [{"text": str(a), "target": self.live.target(observation, a), "keep": self.live.keep(a)} for a in legal]
        with self._lock:
            self._legal = list(legal)
            self._decision += 1
            self.touched = time.monotonic()  # the person's time starts when they are asked
        self._publish(actions)
        while True:
            try:
                choice = self._choices.get(timeout=min(60.0, self.idle_seconds))
            except queue.Empty:
                with self._lock:
                    if self._expired():
                        raise LeftTheTable(self.ended) from None
                continue
            if isinstance(choice, BaseException):
                raise choice
            with self._lock:
                self._mark = self._view.get("step")
            return choice

    def _expired(self) -> bool:
        """End the game if the person's decision has been open longer than the idle limit (under the lock)."""
        if not self._legal or self.ended is not None or time.monotonic() - self.touched <= self.idle_seconds:
            return False
        self._legal = []
        self.ended = f"this game ended after {spoken(self.idle_seconds)} idle (nobody chose a move)"
        return True

    def _thinking(self, seat: int | None) -> None:
        with self._lock:
            self._view = {**self._view, "thinking": seat, "version": self._view["version"] + 1}

    def _publish(self, actions: list[dict[str, Any]] | None = None) -> None:
        """The person's view of the state now (``actions``: theirs to choose from, if any)."""
        state = self._watched.state
        observation = state.observation(self.person)
        view = {
            "id": self.id, "started": True, "title": self.game.title, "you": self.person, "names": self.names,
            "to_play": -1 if state.is_terminal() else state.current_player, "thinking": None, "over": self.done,
            "step": {**self.live.step(observation, self._mark), **(self.live.final(self.record) if self.record else {})},
            "scores": self.live.scores(observation),
            "events": [f"seat {p} ({self.names[p]}): {self.live.event_text(p, a, c)}"
                       for p, a, c in self.live.history(observation)],
            "actions": actions or [], "error": self.error or self.ended,
            "outcome": self._outcome() if self.record else None,
        }
        with self._lock:
            view["version"] = self._view["version"] + 1
            view["decision"] = self._decision
            self._view = view
    def _outcome(self) -> dict[str, Any]:
        assert self.record is not None
        ending, headers, rows, lines = self.game.views.result_summary(self.record)
        return {"ending": ending, "headers": headers, "rows": rows, "lines": lines,
                "replay": self.game.views.offers("replay_page")}
