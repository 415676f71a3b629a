"""The seats of a table with people at it: which seats are people, the strategies of the others,
and the time an AI seat may think."""

from __future__ import annotations

import inspect
from typing import Any, Sequence

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.registry import StrategySpec, resolve


class LeftTheTable(KeyboardInterrupt):
    """A person left before the end (end of input, ``quit``): like Ctrl-C, the game loop lets it
    through instead of calling it a strategy's fault."""


def human_seats(text: str, players: int) -> list[int]:
    """``--human 0`` or ``--human 0,2``: the seats people take, each once, within the table."""
    seats = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece.isdigit() or int(piece) >= players:
            raise ConfigError(f"--human {text!r}: {piece!r} is not a seat (0 to {players - 1})")
        if int(piece) in seats:
            raise ConfigError(f"--human {text!r}: seat {piece} is named twice")
        seats.append(int(piece))
    return sorted(seats)


def ai_specs(specs: Sequence[StrategySpec], humans: Sequence[int], players: int) -> dict[int, StrategySpec]:
    """The strategy of every seat no person takes: one spec for all of them, or one per such seat
    in seat order."""
    others = [s for s in range(players) if s not in humans]
    if len(specs) == 1:
        specs = list(specs) * len(others)
    if len(specs) != len(others):
        raise ConfigError(f"{len(specs)} strategies given for the {len(others)} seats no person takes; "
                          f"give one, or one per such seat")
    return dict(zip(others, specs))


def timed(spec: StrategySpec, game: str, think_seconds: float) -> Any:
    """A fresh strategy of ``spec`` for ``game`` that thinks for at most ``think_seconds`` a
    decision: a strategy that searches by the clock (a ``time_ms`` parameter, mcts) gets that
    budget unless its parameters already set one; the others are fast by design."""
    params = dict(spec.params)
    if "time_ms" in inspect.signature(resolve(spec.strategy, game)).parameters and params.get("time_ms") is None:
        params["time_ms"] = max(1.0, 1000.0 * think_seconds)
    return StrategySpec(strategy=spec.strategy, params=params, name=spec.name).factory(game)()
