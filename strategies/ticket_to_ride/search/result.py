"""``SearchResult``: what one searched decision found, returned by every search's ``search(...)``
(in the shape of mctx's ``PolicyOutput``); ``act`` plays its ``action``.

Benchmarks, training and tests read a search through this value, never through the search's
attributes: a decision the search leaves to its planner (a forced move, a second card) is a
result too, with no rows and no play-outs, so nothing stale from an earlier decision is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np


class RootRow(NamedTuple):
    """One of the root's moves as the search left it."""

    move: str  # the move (its text)
    samples: int  # its visits, or its samples in a race
    lead: float  # its mean reward, in points of lead (a race's: less the anchor's, sample by sample)


@dataclass(frozen=True)
class SearchResult:
    action: Any
    # The root's moves (Actions) with their share of its samples: the search's policy over them.
    policy: dict[Any, float] = field(default_factory=dict)
    root: tuple[RootRow, ...] = ()  # in the order the search opened or raced them
    playouts: int = 0  # play-outs (iterations, visits) spent; 0: not searched
    simulations: int = 0  # play-outs played (a visit may play several)
    rounds: int = 0  # the paired rounds of a flat search
    nodes: int = 0  # the tree's size
    switched: bool = False  # the answer is not the anchor (the planner's move)
    inputs: np.ndarray | None = None  # what the search's prior network read at this decision

    @classmethod
    def of_rows(cls, action: Any, rows: list[tuple[Any, int, float]], **spent: Any) -> "SearchResult":
        """A result from the root's (move, samples, mean lead) rows: the policy is each move's
        share of the samples."""
        total = sum(n for _, n, _ in rows)
        policy = {m: n / total for m, n, _ in rows} if total > 0 else {}
        return cls(action, policy, tuple(RootRow(str(m), int(n), float(v)) for m, n, v in rows), **spent)
