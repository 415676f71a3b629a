"""One game a person plays in the browser: ``play_game`` in a thread of its own, the person's
seat a strategy whose ``act`` publishes what that seat may see and waits for the choice the page
sends, the AI seats wrapped so the page can say who is thinking and see their moves one by one.

What a session publishes (``view()``) is built from ``observation(person)`` only, through the
game's ``views.live()``: never a hidden card. A choice is checked against the legal actions
published with it (an index, or an action's text) before the game loop sees it, so a bad request
is refused with a message and the game goes on. Sessions are named by unguessable ids
(``secrets.token_urlsafe``), each with its own state, lock and thread: games never mix.
"""

from __future__ import annotations

import queue
import secrets
import threading
import time
from typing import Any, Sequence

from ttr_lab.core.errors import ConfigError, IllegalActionError, TTRLabError
from ttr_lab.core.play import play_game, reads_observations
from ttr_lab.core.record import GameRecord
from ttr_lab.core.registry import StrategySpec
from ttr_lab.core.strategy import strategy_name
from ttr_lab.human.seats import LeftTheTable, timed

IDLE_SECONDS = 3600.0  # a game whose person has not chosen for this long is abandoned


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
    """An AI seat: its strategy, with the page told while it thinks, and at least ``pace``
    seconds a move so a person sees the moves one after another."""

    def __init__(self, inner: Any, seat: int, session: "Session") -> None:
        self.inner, self.seat, self.session = inner, seat, session
        self.observes = reads_observations(inner)
        self.name = strategy_name(inner)

    def __getattr__(self, name: str) -> Any:  # its hooks (on_event, on_game_start...) and name
        return getattr(self.inner, name)

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        start = time.monotonic()
        self.session._thinking(self.seat)
        try:
            return self.inner.act(observation, legal_actions, rng)
        finally:
            time.sleep(max(0.0, self.session.pace - (time.monotonic() - start)))
            self.session._thinking(None)


class Session:
    """A game of ``game`` with a person at seat ``person`` and ``specs`` (seat -> strategy) at the
    others; ``think``: the clock budget of a searching AI seat; ``pace``: the least time an AI
    move takes on the page."""

    def __init__(self, game: Any, person: int, specs: dict[int, StrategySpec], seed: int, think: float = 2.0,
                 pace: float = 0.4) -> None:
        self.id = secrets.token_urlsafe(18)
        self.game, self.person, self.seed, self.pace = game, person, seed, pace
        self.players = len(specs) + 1
        self.names = ["you" if s == person else specs[s].label for s in range(self.players)]
        self.live = game.views.live()
        seats: list[Any] = [_Person(self) if s == person else _Machine(timed(specs[s], game.name, think), s, self)
                            for s in range(self.players)]
        self._watched = _Watched(game)
        self._lock = threading.Lock()
        self._choices: queue.Queue[Any] = queue.Queue()
        self._legal: list[Any] = []
        self._mark: dict[str, Any] | None = None
        self._view: dict[str, Any] = {"version": 0, "started": False}
        self.record: GameRecord | None = None
        self.error: str | None = None
        self.touched = time.monotonic()
        self._thread = threading.Thread(target=self._run, args=(seats,), name=f"game-{self.id[:6]}", daemon=True)
        self._thread.start()

    # -- the page's side ----------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """What the page shows now (plain JSON, the person's information only)."""
        with self._lock:
            return dict(self._view)

    def choose(self, value: Any) -> None:
        """Play the person's choice: an index into the published actions, or an action's text.
        ``ConfigError`` or ``IllegalActionError`` when it is none of them, or not their turn."""
        self.touched = time.monotonic()
        with self._lock:
            legal = list(self._legal)
            if not legal:
                raise ConfigError("it is not your turn" if self.record is None else "the game is over")
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise ConfigError(f"an action is an index or a text, not {type(value).__name__}")
            if isinstance(value, int):
                if not 0 <= value < len(legal):
                    raise ConfigError(f"no action {value} (0 to {len(legal) - 1})")
                action = legal[value]
            else:
                wanted = self.game.parse_action(value)
                found = [a for a in legal if a == wanted]
                if not found:
                    raise IllegalActionError(f"{wanted} is not legal now")
                action = found[0]
            self._legal = []  # one choice per decision: a second request finds none
            self._view = {**self._view, "actions": [], "version": self._view["version"] + 1}
        self._choices.put(action)

    def stop(self) -> None:
        """Abandon the game (its thread ends at the person's next decision)."""
        self._choices.put(LeftTheTable("the game was abandoned"))

    # -- the game thread's side -----------------------------------------------------------------

    def _run(self, seats: list[Any]) -> None:
        try:
            self.record = play_game(self._watched, seats, self.seed)
        except LeftTheTable:
            return
        except TTRLabError as exc:
            self.error = str(exc)
        self._publish()

    def _decide(self, observation: Any, legal: Sequence[Any]) -> Any:
        actions = [{"text": str(a), "target": self.live.target(observation, a), "keep": self.live.keep(a)} for a in legal]
        with self._lock:
            self._legal = list(legal)
        self._publish(actions)
        while True:
            try:
                choice = self._choices.get(timeout=60.0)
            except queue.Empty:
                if time.monotonic() - self.touched > IDLE_SECONDS:
                    raise LeftTheTable("nobody chose for an hour") from None
                continue
            if isinstance(choice, BaseException):
                raise choice
            with self._lock:
                self._mark = self._view.get("step")
            return choice

    def _thinking(self, seat: int | None) -> None:
        with self._lock:
            self._view = {**self._view, "thinking": seat, "version": self._view["version"] + 1}

    def _publish(self, actions: list[dict[str, Any]] | None = None) -> None:
        """The person's view of the state now (``actions``: theirs to choose from, if any)."""
        state = self._watched.state
        observation = state.observation(self.person)
        over = self.record is not None or self.error is not None
        view = {
            "id": self.id, "started": True, "title": self.game.title, "you": self.person, "names": self.names,
            "to_play": -1 if state.is_terminal() else state.current_player, "thinking": None, "over": over,
            "step": self.live.step(observation, self._mark), "scores": self.live.scores(observation),
            "events": [f"seat {p} ({self.names[p]}): {self.live.event_text(p, a, c)}"
                       for p, a, c in self.live.history(observation)],
            "actions": actions or [], "error": self.error, "outcome": self._outcome() if self.record else None,
        }
        with self._lock:
            view["version"] = self._view["version"] + 1
            self._view = view

    def _outcome(self) -> dict[str, Any]:
        assert self.record is not None
        ending, headers, rows, lines = self.game.views.result_summary(self.record)
        return {"ending": ending, "headers": headers, "rows": rows, "lines": lines,
                "replay": self.game.views.offers("replay_page")}
