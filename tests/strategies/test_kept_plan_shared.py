"""A search's anchor planner and its learned prior keep the same plan, so they may share one.

At every decision a search's planner (``TicketPlanner``, the default knobs) updates its
``KeptPlan`` through ``choose_kept`` and the prior's kept-plan features update theirs through
``kept_features``: two kernels, one ``cached_plan`` with the same plan-shaping knobs. These
games check, decision by decision, that the two copies hold the same plan, which is what lets a
search hand its planner's plan to the prior (``Learned.read(..., kept=...)``) instead of keeping
a second copy."""

from __future__ import annotations

import random

import pytest

from ttr_lab import play_game
from ttr_lab.core.registry import build
from ttr_lab.games.ticket_to_ride import Phase, TicketToRide
from ttr_lab.strategies.ticket_to_ride.learned import shares_plan
from ttr_lab.strategies.ticket_to_ride.planner_playouts import KeptPlan
from ttr_lab.strategies.ticket_to_ride.search.root import policy_prior
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner, seat_view

USA = TicketToRide("usa")


def _row(kept: KeptPlan, p: int) -> tuple:
    """Seat ``p``'s plan as the kernels read it (the rows past ``sizes[p]`` are scratch)."""
    return (int(kept.sizes[p]), kept.keys[p].tolist(), kept.before[p].tolist(), kept.plans[p, :kept.sizes[p]].tolist())


class _TwoCopies:
    """A search's decision without the search: its planner, then its prior on the same view,
    each keeping its own plan; every decision's two plans are recorded."""

    name = "two_copies"

    def __init__(self) -> None:
        self.planner, self.prior = TicketPlanner(), policy_prior("learned")
        self.seen: list[tuple[Phase, tuple, tuple]] = []

    def act(self, observation, legal_actions, rng):
        view = seat_view(observation)
        anchor = self.planner.act_on(view)
        self.prior.read(observation, legal_actions, view)
        p = observation.player
        self.seen.append((observation.phase, _row(self.planner.kept, p), _row(self.prior.kept, p)))
        return anchor


@pytest.mark.parametrize("players, seed", [(2, 1), (2, 2), (3, 3)])
def test_the_planner_and_the_prior_keep_the_same_plan_at_every_decision(players, seed):
    probe = _TwoCopies()
    others = [build("ticket_planner", {}, "ticket_to_ride") for _ in range(players - 1)]
    play_game(USA, [probe, *others], seed)
    assert len(probe.seen) > 30
    for k, (phase, planner, prior) in enumerate(probe.seen):
        if k == 0:
            # The first ticket choice: the planner keeps without a plan, the features plan for the
            # tickets held (none). The seat's next decision holds tickets, so both plan afresh
            # there and the empty plan is never read.
            assert phase == Phase.INITIAL_TICKETS and planner[0] == prior[0] == 0
            assert planner[1] == [0, 0, 0] and prior[1][:2] == [1, 0]
            continue
        assert planner == prior, f"decision {k} ({phase.name}): the two kept plans differ"


def test_only_a_planner_with_the_default_plan_knobs_shares_its_plan():
    assert shares_plan(TicketPlanner())
    assert shares_plan(TicketPlanner(keep_orders=3))  # a choice knob: the plan is the same
    assert not shares_plan(TicketPlanner(plan_orders=2))
    assert not shares_plan(TicketPlanner(route_weight=0.5))


@pytest.mark.parametrize("name, params", [("mcts_learned", {"iterations": 8}),
                                          ("mcts_tree", {"iterations": 8, "policy": "learned"})])
def test_a_search_with_a_prior_keeps_one_plan(name, params):
    """The prior reads the search's planner's plan: it keeps none of its own."""
    search = build(name, params, "ticket_to_ride")
    state = USA.new_game(2, 4)
    for _ in range(4):
        p = state.current_player
        legal = state.legal_actions()
        state.apply(search.act(state.observation(p), legal, random.Random(0)) if p == 0 else legal[0])
    assert search.prior.kept is None and search.planner.kept is not None and search.planner.kept.sizes[0] > 0
