"""``TicketPlanner``: plan the cheapest network that completes its tickets, then build it.

The idea, in the order it decides:

1. **Plan.** For the tickets it holds, the cheapest set of tracks joining each ticket's cities,
   on the board as it is now (its own tracks free, other players' tracks impassable). Tickets
   are routed one after another with already-chosen tracks free, so shared stretches are paid
   once; several orders are tried and the cheapest kept. The plan is recomputed when a planned
   track is taken by someone else or its tickets change.
2. **Choose tickets.** Keeps the set of offered tickets with the best points for their extra
   plan cost, refusing sets whose plan would not fit in its trains with a margin. Draws new
   tickets only once its plan is built and it still has plenty of trains.
3. **Claim.** Claims a planned track as soon as it can pay for it, the irreplaceable ones first
   (no parallel track left), longest first among those; it pays with the cards its other
   planned tracks need least (locomotives last).
4. **Draw.** Otherwise draws the colours its plan still lacks: a face-up card of a missing
   colour, a face-up locomotive when it lacks several cards, else a blind card.
5. **Late game.** With its tickets done (or lost), no tickets worth drawing, or the end near,
   it turns its trains into points: the longest affordable tracks, preferring ones that touch
   its network (they extend its longest trail).

The judgement is the planner's kernels (``planner_decisions`` on ``planner_toolkit``); this
class is their face, as ``GameState`` is the rules kernels' face: it turns the observation into
an array state the kernels read and keeps its plan between decisions (``KeptPlan``). The one
planner is those kernels; a plain-Python copy of them is kept in the tests as the reference
they are checked against.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import numpy as np
# The knobs' annotations (planner_knobs.signature), which the registry resolves in this module.
from pydantic import NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt  # noqa: F401

from ttr_lab.games.ticket_to_ride import NUM_CARD_KINDS, Action, GameState, Observation, tables_for, tunnel_fields
from ttr_lab.games.ticket_to_ride.state import assemble_state
from ttr_lab.strategies.ticket_to_ride.planner_knobs import TUNABLE, PlannerKnobs, describe, knobs, signature
from ttr_lab.strategies.ticket_to_ride.planner_playouts import KeptPlan


class TicketPlanner:
    name = "ticket_planner"
    TUNABLE = TUNABLE  # the ranges worth searching (``ttr-lab tune``), declared with the knobs

    def __init__(self, **knob_values: Any) -> None:
        self.knobs: PlannerKnobs = knobs(**knob_values)
        self.params: np.ndarray = self.knobs.params()
        self.kept: KeptPlan | None = None

    # Every knob by keyword, its type and default from the declaration: the registry checks a
    # config's parameters against this.
    __init__.__signature__ = signature()  # type: ignore[attr-defined]
    __init__.__doc__ = "The planner's knobs (``planner_knobs``), by keyword:\n\n" + describe()

    def warm_up(self, state: Any) -> None:
        """Compile (or load) the planner's kernels on ``state``, outside any timed move."""
        KeptPlan(state.face.g).choose_id(state.clone(), self.params)

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return self.act_on(seat_view(observation))

    def act_on(self, state: GameState) -> Action:
        """``act`` on the seat's view already built (``seat_view``): a search builds it once per
        decision and shares it between the planner, its prior and its root."""
        kept = self.kept
        if kept is None or not kept.fits(state.face.g):
            kept = self.kept = KeptPlan(state.face.g)
        return state.face.actions[kept.choose_id(state, self.params)]

    def planned(self, player: int) -> int:
        """How many tracks ``player``'s kept plan still has (0 before its first plan)."""
        return 0 if self.kept is None else int(self.kept.sizes[player])

    def adopt(self, other: TicketPlanner) -> None:
        """Start from ``other``'s kept plans: a search's play-out planner then re-plans only
        when its position moves away from the plan the searching seat holds."""
        self.kept = None if other.kept is None else other.kept.adopted()


def seat_view(obs: Observation) -> GameState:
    """The array state of what ``obs``'s seat sees, for the planner's kernels: the known parts
    of ``determinize``'s states (the seat's hand, tickets and offer, the opponents' cards seen,
    the board, the market, the discard, the counts), the draw pile as many cards as it holds
    (their kind left 0) and nothing hidden dealt. The kernels read only what the seat sees
    and, of the pile, its size, so they choose here what they choose in any sampled state, at a
    third of a sample's cost and drawing no random numbers (the caller's ``rng`` is a search's
    own stream)."""
    game = tables_for(obs.board, obs.num_players, obs.ruleset)
    n, me = obs.num_players, obs.player
    hands: list[int] = []
    for q in range(n):
        hands += obs.hand if q == me else obs.known_cards[q]
    assert len(hands) == n * NUM_CARD_KINDS
    return assemble_state(
        game, log=obs.log, log_len=obs.history_length,
        phase=int(obs.phase), player=obs.current_player, hands=hands,
        known=[c for k in obs.known_cards for c in k], pile=[0] * obs.draw_pile_size,
        discard=list(obs.discard), market=list(obs.market), owner=list(obs.owner), trains=list(obs.trains),
        points=list(obs.route_points), tickets=[obs.tickets if q == me else () for q in range(n)],
        offers=[obs.offered if q == me else () for q in range(n)], ticket_deck=tuple(obs.ticket_deck_known),
        returned_by=tuple(me if t >= 0 else -1 for t in obs.ticket_deck_known), boxed=tuple(obs.boxed_known),
        boxed_by=(me,) * len(obs.boxed_known), final_turns=obs.final_turns_left, passes=obs.passes_in_a_row,
        turns=obs.turns, **tunnel_fields(obs),
        # Train stations are public (empty without them): the station choice and legality read them.
        stations=list(obs.stations),
        stations_built=[obs.ruleset.stations_per_player - left for left in obs.stations_left],
    )
