"""``play_game``: the whole game loop, in the spirit of OpenSpiel's evaluate_bots."""

from __future__ import annotations

import random
from typing import Any, Sequence

from ttr_lab.core.errors import ConfigError, GameInterrupted, IllegalActionError, StrategyError
from ttr_lab.core.game import Game, default_game, load_game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.rng import STRATEGY_KEY, derive_seed
from ttr_lab.core.strategy import strategy_name


def play_game(game: Game | str, strategies: Sequence[Any], seed: int, **options: Any) -> GameRecord:
    """Play one seeded game; seat i is played by ``strategies[i]`` (an instance, or a class or
    factory called with no arguments to build a fresh one). Same inputs, same record.

    ``game`` is a ``Game`` or a registered name (then ``options`` choose its variant, e.g.
    ``play_game("ticket_to_ride", players, 7, map="usa")``)."""
    if not isinstance(game, str) and not callable(getattr(game, "new_game", None)):
        # The old signature took Ticket to Ride's Board.
        raise ConfigError(f"play_game takes a Game or a game's name, not a {type(game).__name__}: pass "
                          f"load_game(...), e.g. play_game(load_game({default_game()!r}), strategies, seed)")
    game = load_game(game, **options)
    players = [s() if isinstance(s, type) or not hasattr(s, "act") else s for s in strategies]
    names = tuple(strategy_name(s) for s in players)
    state = game.new_game(len(players), seed)
    rngs = [random.Random(derive_seed(seed, STRATEGY_KEY, seat)) for seat in range(len(players))]
    listeners = [(seat, s.on_event) for seat, s in enumerate(players) if hasattr(s, "on_event")]
    observes = [reads_observations(s) for s in players]
    for seat, s in enumerate(players):
        if hasattr(s, "on_game_start"):
            _call(seat, names[seat], s.on_game_start, state.observation(seat))
    actions: list[tuple[int, str]] = []
    # The loop runs hundreds of times a game: its methods are looked up once.
    acts = [s.act for s in players]
    own = game.action_space.own
    is_terminal, legal_actions, observe, apply, text = (
        state.is_terminal, state.legal_actions, state.observation, state.apply, state.action_text)
    record = actions.append
    while not is_terminal():
        seat = state.current_player
        legal = legal_actions()
        observation = observe(seat) if observes[seat] else None
        try:
            action = acts[seat](observation, legal, rngs[seat])
        except BaseException as exc:  # noqa: BLE001 - sorted out by _fault, as _call does
            raise _fault(seat, names[seat], acts[seat], exc) from None
        # The game's own object is applied and recorded, never a value that lies about itself (an
        # equal claim whose text names another payment): so a record always replays.
        mine, lie = own(action)
        if lie:
            raise StrategyError(f"seat {seat} ({names[seat]}) chose an illegal action: {_text(action)!r}: {lie}",
                                seat, names[seat])
        if mine is not None:
            action = mine
        try:
            apply(action)
        except IllegalActionError as exc:
            raise StrategyError(f"seat {seat} ({names[seat]}) chose an illegal action: {_text(exc)}", seat, names[seat]) from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - an object's __str__ may raise anything
            if any(a is action for a in legal):
                raise  # the game's own action: the fault is the engine's
            # Not an action the game offered: its fields (or its __eq__, __hash__, __str__) broke the rules' checks.
            raise StrategyError(f"seat {seat} ({names[seat]}) chose something that is not an action of the game "
                                f"({type(action).__name__}): {type(exc).__name__}: {_text(exc)}", seat, names[seat]) from None
        record((seat, text(action)))
        if listeners:
            event = state.last_event()
            for listener_seat, on_event in listeners:
                _call(listener_seat, names[listener_seat], on_event, *event)
    outcome = state.outcome()
    for seat, s in enumerate(players):
        if hasattr(s, "on_game_end"):
            _call(seat, names[seat], s.on_game_end, state.observation(seat), outcome)
    return GameRecord(
        game=game.name, options=game.options, num_players=len(players), seed=seed, strategies=names,
        actions=tuple(actions), result=state.result_data(), _outcome=outcome,
    )


def reads_observations(strategy: Any) -> bool:
    """False when the class whose ``act`` the strategy runs declares ``observes = False`` in its
    own body: then ``act`` is handed None instead of an observation, since building an
    information set nobody reads is a large part of a fast strategy's game. A subclass that
    overrides ``act`` reads observations again unless it says otherwise. A wrapper (a timing
    guard, say) forwards its strategy's answer as an ``observes`` attribute of its own."""
    own = getattr(strategy, "__dict__", {}).get("observes")
    if own is not None:
        return own is not False
    for cls in type(strategy).__mro__:
        if "act" in vars(cls):
            return vars(cls).get("observes", True) is not False
    return True


def _call(seat: int, name: str, fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except BaseException as exc:  # noqa: BLE001 - sorted out by _fault
        raise _fault(seat, name, fn, exc) from None


def _fault(seat: int, name: str, fn: Any, exc: BaseException) -> BaseException:
    """What a strategy's exception in ``fn`` becomes: the exception itself for Ctrl-C, sys.exit
    and an interrupted game (a single game ends; the tournament's guard makes them forfeits),
    else a ``StrategyError`` naming the seat (GeneratorExit or a strategy's own BaseException
    included: its fault)."""
    if isinstance(exc, (StrategyError, KeyboardInterrupt, SystemExit, GameInterrupted)):
        return exc
    from ttr_lab.core.isolation import NotLegal  # here: the module runs as its children's main

    where = getattr(fn, "__name__", "strategy")
    if where == "act" and isinstance(exc, NotLegal):  # an isolated strategy's answer
        return StrategyError(f"seat {seat} ({name}) chose an illegal action: {_text(exc)}", seat, name)
    return StrategyError(f"seat {seat} ({name}) raised {type(exc).__name__} in {where}: {_text(exc)}", seat, name)


def _text(value: Any) -> str:
    """``str(value)``, or a word on why there is none: a strategy's exception may break ``__str__``."""
    try:
        return str(value)
    except BaseException as exc:  # noqa: BLE001 - whatever its __str__ raises
        return f"<its str() raised {type(exc).__name__}>"
