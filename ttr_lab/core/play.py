"""``play_game``: the whole game loop, in the spirit of OpenSpiel's evaluate_bots."""

from __future__ import annotations

import random
from typing import Any, Sequence

from ttr_lab.core.errors import ConfigError, IllegalActionError, StrategyError
from ttr_lab.core.game import Game, load_game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.rng import derive_seed
from ttr_lab.core.strategy import strategy_name


def play_game(game: Game | str, strategies: Sequence[Any], seed: int, **options: Any) -> GameRecord:
    """Play one seeded game; seat i is played by ``strategies[i]`` (an instance, or a class or
    factory called with no arguments to build a fresh one). Same inputs, same record.

    ``game`` is a ``Game`` or a registered name (then ``options`` choose its variant, e.g.
    ``play_game("ticket_to_ride", players, 7, map="usa")``)."""
    if not isinstance(game, str) and not callable(getattr(game, "new_game", None)):
        # The old signature took Ticket to Ride's Board.
        raise ConfigError(f"play_game takes a Game or a game's name, not a {type(game).__name__}: pass "
                          "load_game(...), e.g. play_game(load_game('ticket_to_ride', map='usa'), strategies, seed)")
    game = load_game(game, **options)
    players = [s() if isinstance(s, type) or not hasattr(s, "act") else s for s in strategies]
    names = tuple(strategy_name(s) for s in players)
    state = game.new_game(len(players), seed)
    rngs = [random.Random(derive_seed(seed, 0x5EA7, seat)) for seat in range(len(players))]
    listeners = [(seat, s.on_event) for seat, s in enumerate(players) if hasattr(s, "on_event")]
    for seat, s in enumerate(players):
        if hasattr(s, "on_game_start"):
            _call(seat, names[seat], s.on_game_start, state.observation(seat))
    actions: list[tuple[int, str]] = []
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_actions()
        action = _call(seat, names[seat], players[seat].act, state.observation(seat), legal, rngs[seat])
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise StrategyError(f"seat {seat} ({names[seat]}) chose an illegal action: {exc}", seat, names[seat]) from None
        actions.append((seat, state.action_text(action)))
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


def _call(seat: int, name: str, fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except StrategyError:
        raise
    except Exception as exc:
        where = getattr(fn, "__name__", "strategy")
        raise StrategyError(f"seat {seat} ({name}) raised {type(exc).__name__} in {where}: {exc}", seat, name) from exc
