"""The planner's knobs are declared once (``planner_knobs``): both planners' constructors, the
registry's checks, ``TUNABLE`` and the kernel's ``params`` slots all follow the declaration."""

from __future__ import annotations

import dataclasses

import pytest

from ttr_lab import ConfigError
from ttr_lab.core.registry import parameters, resolve, validate_parameters
from ttr_lab.strategies.ticket_to_ride import planner_knobs
from ttr_lab.strategies.ticket_to_ride.planner_decisions import P_BUDGET, P_KEEP_ORDERS, P_ROUTE_WEIGHT
from ttr_lab.strategies.ticket_to_ride.planner_knobs import PLAYOUT_ORDERS, SLOT, TUNABLE, PlannerKnobs
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

CompiledPlanner = resolve("compiled_planner", "ticket_to_ride")  # a preset of TicketPlanner


def test_both_planners_take_exactly_the_declared_knobs():
    declared = [f.name for f in dataclasses.fields(PlannerKnobs)]
    for cls in (TicketPlanner, CompiledPlanner):
        assert list(parameters(cls)) == declared
    assert {k: p.default for k, p in parameters(TicketPlanner).items()} == dataclasses.asdict(PlannerKnobs())
    one_order = {k: p.default for k, p in parameters(CompiledPlanner).items()}
    assert one_order == dataclasses.asdict(PlannerKnobs()) | PLAYOUT_ORDERS


def test_the_registry_checks_a_config_against_the_declared_types():
    checked = validate_parameters("ticket_planner", TicketPlanner, {"endgame_trains": "8", "plan_budget": 0.5})
    assert checked["endgame_trains"] == 8 and checked["plan_budget"] == 0.5 and checked["plan_orders"] == 4
    with pytest.raises(ConfigError, match="plan_budget"):
        validate_parameters("ticket_planner", TicketPlanner, {"plan_budget": -1})
    with pytest.raises(ConfigError, match="no parameter 'plan_order'"):
        validate_parameters("compiled_planner", CompiledPlanner, {"plan_order": 1})
    with pytest.raises(ConfigError, match="unknown planner knob"):
        TicketPlanner(plan_order=1)


def test_the_knobs_reach_both_planners():
    shipped = TicketPlanner(card_weight=1.25, keep_orders=3)
    assert shipped.knobs.card_weight == 1.25 and shipped.knobs.keep_orders == 3
    assert shipped.params[SLOT["card_weight"]] == 1.25 and shipped.params[P_KEEP_ORDERS] == 3.0
    compiled = CompiledPlanner(plan_budget=0.6, route_weight=2.0)
    assert compiled.params[P_BUDGET] == 0.6 and compiled.params[P_ROUTE_WEIGHT] == 2.0
    assert compiled.params[P_KEEP_ORDERS] == 1.0  # the one-order default


def test_slots_and_tuning_ranges_come_from_the_declaration():
    assert list(SLOT.values()) == list(range(len(dataclasses.fields(PlannerKnobs))))
    assert TicketPlanner.TUNABLE is TUNABLE
    assert "plan_orders" not in TUNABLE and TUNABLE["plan_budget"] == {"low": 0.5, "high": 1.0}
    for name, bounds in TUNABLE.items():
        assert bounds["low"] <= getattr(PlannerKnobs(), name) <= bounds["high"], name


def test_a_new_knob_is_one_field(monkeypatch):
    """Declaring one more knob gives it a signature entry, a slot and a place in ``params``."""
    extended = dataclasses.make_dataclass(
        "ExtendedKnobs", [("bluff", float, dataclasses.field(default=0.25, metadata={"meaning": "m", "tune": None}))],
        bases=(PlannerKnobs,), frozen=True)
    fields = dataclasses.fields(extended)
    monkeypatch.setattr(planner_knobs, "FIELDS", fields)
    monkeypatch.setattr(planner_knobs, "SLOT", {f.name: i for i, f in enumerate(fields)})
    monkeypatch.setattr(planner_knobs, "PlannerKnobs", extended)
    assert list(planner_knobs.signature().parameters)[-1] == "bluff"
    values = planner_knobs.knobs(bluff=0.75)
    assert values.params()[planner_knobs.SLOT["bluff"]] == 0.75 and len(values.params()) == len(fields)
