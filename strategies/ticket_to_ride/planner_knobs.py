"""The ticket planner's knobs, declared once.

One frozen dataclass, ``PlannerKnobs``, names every knob of the ticket planner with its type,
its default, what it means and the range worth tuning. Everything else is derived from it:

- the constructor signatures of ``ticket_planner`` and ``compiled_planner`` (``signature``), so
  the registry checks a config's parameters against the same types and defaults;
- ``TUNABLE`` (the ranges ``ttr-lab tune`` searches);
- the compiled planner's ``params`` array and the slot of each knob in it (``SLOT``, read by
  ``planner_decisions`` as compile-time constants);
- ``PLAYOUT_ORDERS``: the one-order defaults of the planner a search plays out with.

A new knob is one field here (and its use in the planner's decisions).
"""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pydantic import NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt

from ttr_lab.core.errors import ConfigError


def _knob(default: float, meaning: str, tune: tuple[float, float] | None = None) -> Any:
    return field(default=default, metadata={"meaning": meaning, "tune": tune})


@dataclass(frozen=True)
class PlannerKnobs:
    # The annotations are the pydantic types a config's value is checked against.
    plan_budget: PositiveFloat = _knob(
        0.8, "share of its trains a ticket plan may use (the rest is a safety margin)", (0.5, 1.0))
    ticket_cost_weight: NonNegativeFloat = _knob(
        0.3, "points a train of extra plan cost is worth when choosing tickets", (0.0, 1.5))
    draw_tickets_min_trains: NonNegativeInt = _knob(18, "draw new tickets only with at least this many trains", (5, 35))
    endgame_trains: NonNegativeInt = _knob(
        6, "when any player is down to this many trains, stop planning; score", (0, 15))
    locomotive_deficit: NonNegativeInt = _knob(
        3, "take a face-up locomotive when missing at least this many cards", (1, 6))
    points_min_length: NonNegativeInt = _knob(
        3, "in points mode, claim tracks at least this long (unless at the end)", (1, 6))
    # Orders trade speed for a little strength: not worth tuning.
    plan_orders: PositiveInt = _knob(4, "ticket orders tried when planning (more is slower and a little better)")
    card_weight: NonNegativeFloat = _knob(
        0.5, "extra plan cost, in trains, of each card the hand lacks for a track", (0.0, 2.0))
    keep_orders: PositiveInt = _knob(2, "ticket orders tried when weighing which tickets to keep")
    route_weight: NonNegativeFloat = _knob(
        1.5, "plan cost, in trains, taken off a track per route point it scores above one a train "
        "(plans lean towards long routes)", (0.0, 3.0))
    # Train stations (station_plans): nothing changes on a map without them.
    stations: NonNegativeInt = _knob(1, "build train stations that repair blocked tickets (0: never)")
    station_margin: NonNegativeFloat = _knob(
        2.0, "points a station's turn costs: built when the tickets it repairs reach its points, "
        "a point a card and this", (0.0, 8.0))

    def params(self) -> np.ndarray:
        """The compiled planner's ``params`` array: each knob at its ``SLOT``."""
        return np.array([float(getattr(self, f.name)) for f in FIELDS], dtype=np.float64)


FIELDS = dataclasses.fields(PlannerKnobs)
SLOT: dict[str, int] = {f.name: i for i, f in enumerate(FIELDS)}
# The planner a search plays out with tries one ticket order: four times the play-outs per second
# for a little judgement.
PLAYOUT_ORDERS: dict[str, int] = {"plan_orders": 1, "keep_orders": 1}
TUNABLE: dict[str, dict[str, float]] = {
    f.name: {"low": f.metadata["tune"][0], "high": f.metadata["tune"][1]} for f in FIELDS if f.metadata["tune"]
}


def knobs(base: PlannerKnobs | None = None, /, **overrides: Any) -> PlannerKnobs:
    """``base`` (the declared defaults if None) with ``overrides``; a misspelt knob is refused."""
    unknown = sorted(set(overrides) - set(SLOT))
    if unknown:
        raise ConfigError(f"unknown planner knob(s) {unknown}; the knobs are {sorted(SLOT)}")
    return dataclasses.replace(base or PlannerKnobs(), **overrides)


def signature(**defaults: Any) -> inspect.Signature:
    """A constructor's signature taking every knob by keyword (``self`` first), with the declared
    defaults except ``defaults``: what the registry validates a config's parameters against. The
    annotations stay text (``PositiveFloat``), as in any strategy written with postponed
    annotations: the registry resolves them in the strategy's module, which imports them."""
    values = knobs(**defaults)
    keyword = inspect.Parameter.KEYWORD_ONLY
    return inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(f.name, keyword, default=getattr(values, f.name), annotation=f.type)
           for f in FIELDS],
        return_annotation=None,
    )


def describe() -> str:
    """One line per knob, ``name: meaning``: for the planners' docstrings."""
    return "\n".join(f"{f.name}: {f.metadata['meaning']}." for f in FIELDS)
