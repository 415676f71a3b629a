"""``MCTSLearned`` (``mcts_learned``): the strongest search here, ``mcts_halving`` with the learned
policy network as its prior.

The race of ``mcts_halving`` (``halving_search.py`` says how it searches) with ``policy:
learned``: the planner's move is the anchor, and the rivals it races are the groups of moves
the shipped network (the ``learned`` strategy's) scores highest, instead of the hand prior's
order. Against the same search with the hand prior, on the same deals at 50 ms a decision, it
won more against the ticket planner and against ``mcts_flat`` (docs/strategies.md, "The
policy prior, measured"). Every other parameter is ``mcts_halving``'s; ``policy`` may name
another weights file. Maps without shipped weights are refused with the ``learned`` strategy's
error, at the first decision.
"""

from __future__ import annotations

from typing import Literal

from pydantic import NonNegativeFloat, PositiveFloat, PositiveInt

from ttr_lab.strategies.ticket_to_ride.halving_search import HalvingSearch


class MCTSLearned(HalvingSearch):
    name = "mcts_learned"

    def __init__(
        self,
        *,
        iterations: PositiveInt = 400,
        time_ms: PositiveFloat | None = None,
        cpu_ms: PositiveFloat | None = None,
        min_samples: PositiveInt = 8,
        max_candidates: PositiveInt = 64,
        confidence: NonNegativeFloat = 2.0,
        streams: bool = True,
        policy: str = "learned",
        verdict: Literal["all", "final"] = "all",
    ) -> None:
        """``mcts_halving``'s parameters (its docstring says what each does), the prior a policy
        network: ``"learned"`` (the weights shipped for the map) or a weights file."""
        super().__init__(iterations=iterations, time_ms=time_ms, cpu_ms=cpu_ms, min_samples=min_samples,
                         max_candidates=max_candidates, confidence=confidence, streams=streams, policy=policy,
                         verdict=verdict)
