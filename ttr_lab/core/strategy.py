"""What a strategy is, for the game loop.

A strategy is any object with ``act(observation, legal_actions, rng) -> action`` that returns one
of ``legal_actions``. It is built fresh for each game. Optional hooks, called when defined:

- ``on_game_start(observation)`` once, before the strategy's first decision;
- ``on_event(player, action, card)`` after every public event (its own included): the
  state's ``last_event()``: ``action`` is the public form (a keep shows only how many tickets
  were kept, as ``TicketsKept``) and ``card`` the card the action moved into sight (Ticket to
  Ride: the colour taken from the market), else None;
- ``on_game_end(observation, outcome)`` once the game is over (``outcome``: ``ttr_lab.core.Outcome``).

``rng`` is a ``random.Random`` seeded from the game seed and the seat: the only randomness a
strategy should use, so that games replay exactly.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, Sequence, runtime_checkable



@runtime_checkable
class Strategy(Protocol):
    """``observation`` and the actions are the game's own (e.g. Ticket to Ride's ``Observation``)."""

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any: ...


def strategy_name(strategy: Any) -> str:
    """A strategy's display name: its ``name`` attribute, else its class name in lower case."""
    name = getattr(strategy, "name", None)
    if isinstance(name, str) and name:
        return name
    cls = strategy if isinstance(strategy, type) else type(strategy)
    return cls.__name__.lower()
