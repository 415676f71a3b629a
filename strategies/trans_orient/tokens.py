"""What a card costs a player, in tokens: the price after discounts and what the reserve lacks.

Small pure functions of an ``Observation`` (or any object with the same ``deck``, ``reserve``
and ``discount`` accessors) shared by the Trans-Orient Express strategies. The rule itself
(a discount lowers its colour's price by one, never below zero) is the engine's; these only
count, so a strategy can look at cards it does not hold.
"""

from __future__ import annotations

from typing import Sequence

from ttr_lab.games.trans_orient import RULES, Observation


def price(cost: Sequence[int], discount: Sequence[int]) -> int:
    """Tokens paid for a card of ``cost`` with ``discount`` (per colour)."""
    return sum(k - d for k, d in zip(cost, discount) if k > d)


def shortfall(cost: Sequence[int], discount: Sequence[int], reserve: Sequence[int]) -> int:
    """Tokens the reserve lacks to pay for a card (0: affordable now)."""
    return sum(k - d - r for k, d, r in zip(cost, discount, reserve) if k - d > r)


def needs(obs: Observation, seat: int, cards: Sequence[int]) -> list[int]:
    """Per colour, the most tokens any of ``cards`` asks of ``seat`` after its discounts."""
    deck, disc = obs.deck, obs.discount(seat)
    out = [0] * deck.num_colours
    for x in cards:
        for c, k in enumerate(deck.cost[x]):
            out[c] = max(out[c], k - disc[c])
    return out


def plus(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b))


def token_limit(obs: Observation, seat: int) -> int:
    """Tokens ``seat`` may keep at the end of a turn (5 plus one per capacity effect)."""
    return RULES.reserve_limit + obs.capacity[seat]
