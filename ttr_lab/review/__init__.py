"""Reviewing a game: for each decision, what the strongest search would have played, what the
move played lost against it (paired, with its standard error) and the seat's expected final lead
(``review_game``, ``review_games``; files in and out in ``outputs``; docs/review.md).

The names below load on first use: the command line reads the defaults without loading the
searches."""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {"DEFAULT_BUDGET": "reviewed", "ReviewedDecision": "reviewed", "ReviewedGame": "reviewed",
          "GameToReview": "runner", "review_game": "runner", "review_games": "runner"}


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)


__all__ = sorted(_WHERE)
