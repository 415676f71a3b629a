"""The strategy contract: one function any strategy, shipped or yours, can be run through.

    from ttr_lab.core.testing import check_strategy
    check_strategy(MyStrategy)                       # a class, or any zero-argument factory
    check_strategy(functools.partial(MyStrategy, depth=3), players=(2, 4))
    check_strategy(MyStrategy, game=load_game("ticket_to_ride", map="legendary_asia"))

It plays seeded games and raises ``StrategyContractError`` naming the first broken promise:

1. it completes games at every player count asked (all the game allows by default), in every seat, both
   against itself and against random opponents;
2. every action it returns is one of the ``legal_actions`` it was given;
3. it is reproducible: the same seed gives the same game, also when the global ``random``
   module is seeded differently (so it must use the ``rng`` it is given);
4. it never mutates what it is given (the observation and the list of legal actions);
5. a fresh instance per game is enough: a game played after other games is the same as that
   game played first (no state carried over between games, e.g. in class attributes).

Hidden information needs no check here: a strategy only ever receives ``observation(player)``.
Returns a ``ContractReport`` with the games played and the time per decision.
"""

from __future__ import annotations

import pickle
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ttr_lab.core.errors import StrategyError
from ttr_lab.core.game import Game, default_game, load_game
from ttr_lab.core.play import play_game
from ttr_lab.core.strategy import strategy_name


class StrategyContractError(AssertionError):
    """A strategy broke the contract; the message says which promise and where."""


@dataclass(frozen=True)
class ContractReport:
    strategy: str
    games: int
    decisions: int
    seconds_per_decision: float
    max_seconds_per_decision: float

    def __str__(self) -> str:
        return (
            f"{self.strategy}: passed the contract in {self.games} games, {self.decisions} decisions, "
            f"{1000 * self.seconds_per_decision:.2f} ms per decision on average "
            f"(slowest {1000 * self.max_seconds_per_decision:.1f} ms)"
        )


class _Checked:
    """Wraps a strategy: checks each decision and times it."""

    def __init__(self, inner: Any, seat_label: str) -> None:
        self.inner = inner
        self.name = strategy_name(inner)
        self.label = seat_label
        self.decisions = 0
        self.seconds = 0.0
        self.slowest = 0.0
        for hook in ("on_game_start", "on_event", "on_game_end"):
            if hasattr(inner, hook):
                setattr(self, hook, getattr(inner, hook))

    def act(self, observation: Any, legal_actions: list, rng: random.Random) -> Any:
        given = list(legal_actions)
        snapshot = pickle.dumps(observation)
        start = time.perf_counter()
        action = self.inner.act(observation, legal_actions, rng)
        spent = time.perf_counter() - start
        self.decisions += 1
        self.seconds += spent
        self.slowest = max(self.slowest, spent)
        if list(legal_actions) != given or len(legal_actions) != len(given):
            raise StrategyContractError(f"{self.label} changed the legal_actions list it was given")
        if pickle.dumps(observation) != snapshot:
            raise StrategyContractError(f"{self.label} changed the observation it was given")
        if action not in given:
            raise StrategyContractError(
                f"{self.label} returned {action!r}, which is not among the {len(given)} legal actions"
            )
        return action


def random_walk(state: Any, seed: int) -> Any:
    """Every state of a uniformly random play-out from ``state`` (played on in place), each with
    its legal actions and the action then taken; the last is the end, with ``[]`` and None.
    The walker of the property tests of every game."""
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        yield state, legal, action
        state.apply(action)
    yield state, [], None


class RandomPlayer:
    """The default opponent: a uniformly random legal action (knows no game)."""

    name = "random"
    observes = False  # play_game hands it None: it reads no observation

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        return legal_actions[rng.randrange(len(legal_actions))]


def check_strategy(
    factory: Callable[[], Any],
    *,
    game: Game | str | None = None,
    players: Sequence[int] | None = None,
    seeds: Sequence[int] = (1, 2),
    opponent: Callable[[], Any] | None = None,
    **options: Any,
) -> ContractReport:
    """Run ``factory`` (a strategy class or zero-argument factory) through the contract, in
    ``game`` (a ``Game``, or a registered name with its ``options``, e.g. ``map="usa"``; None:
    the games catalogue's house game)."""
    game = load_game(default_game() if game is None else game, **options)
    players = players or tuple(range(game.min_players, game.max_players + 1))
    opponent = opponent or RandomPlayer
    name = strategy_name(factory() if not isinstance(factory, type) else factory)
    checked: list[_Checked] = []

    def play(n: int, seed: int, mine: Sequence[int]) -> str:
        seats: list[Any] = []
        for seat in range(n):
            if seat in mine:
                wrapper = _Checked(factory(), f"{name} (seat {seat}, {n} players, seed {seed})")
                checked.append(wrapper)
                seats.append(wrapper)
            else:
                seats.append(opponent())
        try:
            return play_game(game, seats, seed).to_json()
        except StrategyContractError:
            raise
        except StrategyError as exc:
            raise StrategyContractError(f"{name} did not complete a {n}-player game (seed {seed}): {exc}") from exc

    games = 0
    first_game: tuple[int, int, tuple[int, ...], str] | None = None
    for n in players:
        for i, seed in enumerate(seeds):
            lone = (seed + i) % n  # its seat against random opponents moves with the seed
            cases = [tuple(range(n)), (lone,)]
            for mine in cases:
                state = random.getstate()
                random.seed(seed)
                first = play(n, seed, mine)
                random.seed(seed + 1_000_003)  # a differently seeded global random
                second = play(n, seed, mine)
                random.setstate(state)
                games += 2
                if first != second:
                    raise StrategyContractError(
                        f"{name} is not reproducible: two {n}-player games with seed {seed} differ "
                        "(use the rng passed to act(), not the global random module or the clock, "
                        "and carry no state from one game to the next)"
                    )
                if first_game is None:
                    first_game = (n, seed, mine, first)
    assert first_game is not None
    n, seed, mine, text = first_game
    if play(n, seed, mine) != text:  # the first game again, after all the others
        raise StrategyContractError(
            f"{name} plays a {n}-player game (seed {seed}) differently after other games: "
            "it carries state between games (class attributes, module globals or caches)"
        )
    games += 1
    decisions = sum(c.decisions for c in checked)
    return ContractReport(
        strategy=name,
        games=games,
        decisions=decisions,
        seconds_per_decision=sum(c.seconds for c in checked) / max(decisions, 1),
        max_seconds_per_decision=max((c.slowest for c in checked), default=0.0),
    )
