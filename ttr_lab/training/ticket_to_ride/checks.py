"""Ticket to Ride's own checks of a training config (after the generic ones of ``training/config.py``)."""

from __future__ import annotations

from ttr_lab.core.errors import ConfigError
from ttr_lab.strategies.ticket_to_ride.plan_features import PLAN_KNOBS
from ttr_lab.strategies.ticket_to_ride.planner_knobs import knobs
from ttr_lab.training.config import TrainConfig


def check(cfg: TrainConfig, source: str) -> None:
    """A ConfigError naming the first setting the game cannot train with (``source``: the config file)."""
    if cfg.teacher_knobs:
        if cfg.teacher != "ticket_planner":
            raise ConfigError(f"{source}: teacher_knobs are for teacher: ticket_planner")
        shaping = sorted(set(cfg.teacher_knobs) & set(PLAN_KNOBS))
        if shaping:
            raise ConfigError(f"{source}: teacher_knobs: {', '.join(shaping)} would change the teacher's plan "
                              "(the kept plan is the default planner's)")
        try:
            knobs(**cfg.teacher_knobs)
        except ConfigError as exc:
            raise ConfigError(f"{source}: teacher_knobs: {exc}") from None
