"""Strategy names for configs and the command line: a short registered name or an import path."""

from __future__ import annotations

import importlib
from typing import Any, Callable, Sequence

from ttr_lab.errors import ConfigError

REGISTRY: dict[str, str] = {
    "random": "strategies.random:Random",
}


def resolve(name: str) -> Callable[..., Any]:
    """The strategy class for ``name``: a registered name (``random``) or ``package.module:Class``."""
    path = REGISTRY.get(name, name)
    if ":" not in path:
        raise ConfigError(f"unknown strategy {name!r}; registered: {', '.join(sorted(REGISTRY))} (or give module:Class)")
    module_name, _, attr = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"strategy {name!r}: cannot import {module_name!r} ({exc})") from None
    try:
        cls = getattr(module, attr)
    except AttributeError:
        raise ConfigError(f"strategy {name!r}: module {module_name!r} has no {attr!r}") from None
    if not callable(cls):
        raise ConfigError(f"strategy {name!r}: {path} is not a class")
    return cls


def build_strategies(names: Sequence[str], players: int) -> list[Any]:
    """One fresh strategy per seat: ``names`` gives one per seat, or one for every seat."""
    names = [n.strip() for item in names for n in item.split(",") if n.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ConfigError(f"{len(names)} strategies given for {players} players; give one, or one per seat")
    return [resolve(n)() for n in names]
