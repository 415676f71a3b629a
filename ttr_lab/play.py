"""``play_game``: the whole game loop, in the spirit of OpenSpiel's evaluate_bots."""

from __future__ import annotations

import random
from typing import Any, Sequence

from ttr_lab.games.ticket_to_ride.board import Board
from ttr_lab.core.errors import IllegalActionError, StrategyError
from ttr_lab.record import GameRecord
from ttr_lab.core.rng import derive_seed
from ttr_lab.games.ticket_to_ride.actions import Claim
from ttr_lab.games.ticket_to_ride.state import new_game
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
from ttr_lab.core.strategy import strategy_name


def play_game(board: Board, strategies: Sequence[Any], seed: int, ruleset: Ruleset | None = None) -> GameRecord:
    """Play one seeded game; seat i is played by ``strategies[i]`` (an instance, or a class or
    factory called with no arguments to build a fresh one). Same inputs, same record."""
    players = [s() if isinstance(s, type) or not hasattr(s, "act") else s for s in strategies]
    names = tuple(strategy_name(s) for s in players)
    state = new_game(board, len(players), seed, ruleset)
    rngs = [random.Random(derive_seed(seed, 0x5EA7, seat)) for seat in range(len(players))]
    listeners = [(seat, s.on_event) for seat, s in enumerate(players) if hasattr(s, "on_event")]
    for seat, s in enumerate(players):
        if hasattr(s, "on_game_start"):
            _call(seat, names[seat], s.on_game_start, state.observation(seat))
    claims = state.game.actions
    actions: list[tuple[int, str]] = []
    while not state.is_terminal():
        seat = state.player
        legal = state.legal_actions()
        action = _call(seat, names[seat], players[seat].act, state.observation(seat), legal, rngs[seat])
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise StrategyError(f"seat {seat} ({names[seat]}) chose an illegal action: {exc}", seat, names[seat]) from None
        if type(action) is Claim and not action.label:  # a hand-made Claim: record the track's name
            action = claims.claim(action.track, action.colour, action.locomotives) or action
        actions.append((seat, str(action)))
        if listeners:
            event = state.log[:3]
            for listener_seat, on_event in listeners:
                _call(listener_seat, names[listener_seat], on_event, *event)
    result = state.result()
    for seat, s in enumerate(players):
        if hasattr(s, "on_game_end"):
            _call(seat, names[seat], s.on_game_end, state.observation(seat), result)
    rules = state.game.ruleset
    return GameRecord(
        map=board.name, num_players=len(players), seed=seed, strategies=names, actions=tuple(actions),
        result=result.to_dict(), ruleset=None if rules == board.ruleset else rules.to_dict(),
    )


def _call(seat: int, name: str, fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except StrategyError:
        raise
    except Exception as exc:
        where = getattr(fn, "__name__", "strategy")
        raise StrategyError(f"seat {seat} ({name}) raised {type(exc).__name__} in {where}: {exc}", seat, name) from exc
