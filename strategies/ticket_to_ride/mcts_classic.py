"""``MCTSClassic``: ``mcts`` as it was before its play-outs were compiled, kept for comparisons.

The same search (``ttr_lab.strategies.ticket_to_ride.mcts``: its candidates, tree moves and paired root), its
play-outs by the ticket planner at every seat in Python, with the parameters and defaults it had
then; ``cpu_ms`` is the one addition, for equal-CPU-time matches against the new ``mcts``. Its
games are pinned by golden records (``tests/golden/mcts_classic/``): the same seeds give the same
games, move for move.
"""

from __future__ import annotations

from pydantic import NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt

from ttr_lab.strategies.ticket_to_ride.mcts import MCTS, TurnAlternatives


class MCTSClassic(MCTS):
    name = "mcts_classic"
    TUNABLE = {
        "exploration": {"low": 1.0, "high": 40.0, "log": True},
        "widening": {"low": 0.25, "high": 0.8},
        **MCTS.TUNABLE,
    }

    def __init__(
        self,
        *,
        iterations: PositiveInt = 400,
        steps: PositiveInt = 500,
        time_ms: PositiveFloat | None = None,
        cpu_ms: PositiveFloat | None = None,
        exploration: NonNegativeFloat = 10.0,
        widening: NonNegativeFloat = 0.5,
        rollout_depth: NonNegativeInt = 0,
        confidence: NonNegativeFloat = 0.0,
        turn_confidence: NonNegativeFloat = 2.0,
        search_turns: bool = True,
        turn_alternatives: TurnAlternatives = "tickets,points",
        endgame_trains: NonNegativeInt = 12,
        tickets_when_tracks_left: NonNegativeInt = 2,
    ) -> None:
        """The parameters of ``mcts`` (its docstring says what each does), play-outs in Python."""
        super().__init__(
            iterations=iterations, steps=steps, time_ms=time_ms, cpu_ms=cpu_ms, playout="python", tree=True,
            exploration=exploration, widening=widening, rollout_depth=rollout_depth, confidence=confidence,
            turn_confidence=turn_confidence, search_turns=search_turns, turn_alternatives=turn_alternatives,
            endgame_trains=endgame_trains, tickets_when_tracks_left=tickets_when_tracks_left,
        )
