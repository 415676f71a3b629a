"""``MCTSFlat``: the flat search of ``mcts`` as it stands in December 2026, frozen as the
yardstick later searches are measured against.

Flat Monte Carlo over a few candidates (the ticket planner's move, drawing tickets, the best
claim for points, every ticket subset at a ticket choice), compiled planner play-outs, paired
rounds with successive elimination; ``ttr_lab.strategies.ticket_to_ride.mcts`` says how. Every parameter but
the budget is pinned here to the value ``mcts`` had then, so a new default of ``mcts`` does not
move it; its games are pinned by golden records (``tests/golden/mcts_flat/``), so a change to
the search engine, the planner or the rules that would change its play shows there.
"""

from __future__ import annotations

from typing import Any

from pydantic import PositiveFloat, PositiveInt

from ttr_lab.strategies.ticket_to_ride.mcts import MCTS

# The configuration of ``mcts`` frozen here (its constructor's defaults of December 2026).
FROZEN: dict[str, Any] = {
    "playout": "planner", "leaf_playouts": 1, "tree": False, "exploration": 10.0, "widening": 0.5,
    "rollout_depth": 0, "confidence": 0.0, "turn_confidence": 2.0, "search_turns": True,
    "turn_alternatives": "tickets,points", "endgame_trains": 12, "tickets_when_tracks_left": 2,
}


class MCTSFlat(MCTS):
    name = "mcts_flat"
    TUNABLE: dict[str, object] = {}  # frozen: nothing to tune

    def __init__(
        self,
        *,
        iterations: PositiveInt = 400,
        steps: PositiveInt = 4000,
        time_ms: PositiveFloat | None = None,
        cpu_ms: PositiveFloat | None = None,
    ) -> None:
        """The budget of ``mcts`` (its docstring says what each does); the rest is ``FROZEN``."""
        super().__init__(iterations=iterations, steps=steps, time_ms=time_ms, cpu_ms=cpu_ms, **FROZEN)
