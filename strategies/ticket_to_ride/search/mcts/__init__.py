"""``MCTS``: information-set Monte Carlo tree search over determinizations, anchored on a plan.

A configuration of ``ttr_lab.strategies.search`` (the one search engine): this module supplies the
candidates at the root, the moves the tree opens below it, the play-out planners and the
evaluation; the engine does the rest. The searching player never sees hidden information. Each round of the search samples one full
state consistent with its observation (``ttr_lab.determinize``: opponents' hands and tickets
and both decks, drawn from what it cannot see) and tries **every** candidate move on that same
sample, so candidates are compared on equal luck (common random numbers). Every visit plays
the game out to its end and backs up a reward per player: its lead in points over the best
other player (a logistic of the lead would flatten exactly the differences a player far ahead
or far behind must still tell apart).

Who plays out (``playout``): by default the ticket planner at every seat *compiled*
(``planner_playouts.planner_playouts``; without a tree one native call per round plays every
candidate; both in ``candidate_playouts``; the sample is one call, ``determinizer``), each visit
straight from its candidate (``tree=False``: flat Monte Carlo over the candidates; the tree
below them cost a third of the time in Python, more than the play-outs it steered). ``playout="python"`` is the same planner in Python on
observations, with a single-observer ISMCTS tree below each candidate (``tree=True``): UCT
selection, where a child's *availability* counts the samples in which it was legal (an
opponent's claims depend on its sampled hand), and progressive widening, so the tree follows
the fast policy's favourite move first and opens alternatives as visits accumulate; it may
stop after ``rollout_depth`` decisions and use the projected-score evaluation of
``ttr_lab.strategies.ticket_to_ride.search.mcts.playout``. ``mcts_classic`` is that configuration, frozen.
``playout="random"`` plays uniformly random native play-outs (``leaf_playouts`` per visit):
much weaker per play-out, plumbing for comparisons.

Candidates: at a ticket choice, every subset it may keep; in a turn, the ticket planner's own
move (the *anchor*), drawing tickets, the best claim for points, and the fast policy's choice.
The search plays another move than the anchor only when it beats the anchor, paired sample by
sample, by ``confidence`` standard errors; so it does what the planner does unless it sees
clearly further (which tickets to keep or draw, the race and the last claims at the end).
At equal CPU time, 10 ms per searched decision, it wins 62-64% of 2-player games against
``mcts_classic``; its edge is in its ticket choices (it keeps fewer and fails fewer) and its
turn searches (55% without them). Other bars, rewards, candidates and play-out plans measured
no better (docs/notes/2026-12-mcts-compiled-playouts.md, "Toward 65% at 2 players and 10 ms"), and at 2 players more time
does not make it stronger (its few candidates are told apart within 10 ms): at 10 ms it is level
with ``mcts_classic`` at 50 and 200 ms.

Budget: ``steps`` simulated decisions per searched decision, summed over its play-outs, each
visit counting 30 more (reproducible: same seed, same game). The default, 4000, is about 60
compiled play-outs per searched decision at 4 players, in half the CPU time ``mcts_classic``
spends on its 10 at 500 steps. Or ``time_ms`` per decision on the wall clock, or ``cpu_ms`` on
the CPU clock of the searching thread (equal-time comparisons: ``python benchmarks/equal_time.py``); neither is reproducible. Forced moves and the second
card of a draw take no search.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Callable, Literal, Sequence

from pydantic import NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt, StringConstraints

from ttr_lab.core.errors import ConfigError
from ttr_lab.strategies.ticket_to_ride.search.mcts.candidate_playouts import NATIVE, ROUNDS
from ttr_lab.strategies.ticket_to_ride.planner_decisions import choose_id
from ttr_lab.strategies.ticket_to_ride.planner_knobs import PLAYOUT_ORDERS
from ttr_lab.strategies.ticket_to_ride.planning import claims_by_track
from ttr_lab.strategies.ticket_to_ride.search.mcts.playout import Playout
from ttr_lab.strategies.limit import Limit
from ttr_lab.strategies.search import Search
from ttr_lab.strategies.ticket_to_ride.search.leaf import Leaf
from ttr_lab.strategies.ticket_to_ride.search.result import SearchResult
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner
from ttr_lab.games.ticket_to_ride import (
    DRAW_TICKETS, Action, Claim, DrawMarket, GameState, Observation, Phase, determinize, determinizer,
)

# A visit's fixed costs (the sample, the tree, final scoring) weigh like this many steps.
_VISIT_COST = 30
# Below the root, a move whose UCB value (in points of lead) is not above this does not displace
# the fast policy's favourite (listed first): when every move looks lost, follow the policy.
_FLOOR = -1.0


# Comma-separated words from {tickets, points} (possibly none): a misspelt one is refused, not ignored.
TurnAlternatives = Annotated[str, StringConstraints(pattern=r"^\s*((tickets|points)\s*(,\s*(tickets|points)\s*)*)?$")]

class MCTS:
    name = "mcts"
    # Ranges worth searching (``ttr-lab tune``); the defaults lie inside them. The budget
    # (``steps``) is left out: more is stronger and slower, so fix it in the config's ``params``.
    # ``exploration`` and ``widening`` act only on a tree (``tree=True``): mcts_classic tunes them.
    TUNABLE = {
        "confidence": {"low": 0.0, "high": 2.5},
        "turn_confidence": {"low": 0.0, "high": 4.0},
        "endgame_trains": {"low": 0, "high": 25},
        "tickets_when_tracks_left": {"low": 0, "high": 5},
    }

    def __init__(
        self,
        *,
        iterations: PositiveInt = 400,
        steps: PositiveInt = 4000,
        time_ms: PositiveFloat | None = None,
        cpu_ms: PositiveFloat | None = None,
        playout: Literal["python", "planner", "random"] = "planner",
        leaf_playouts: PositiveInt = 1,
        tree: bool = False,
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
        """
        iterations: at most this many play-outs per searched decision.
        steps: the reproducible budget: simulated decisions per searched decision, summed over
            its play-outs, each play-out also counting 30 for its fixed costs (near the end of
            the game play-outs are short, so there are more of them).
        time_ms: if set, search until this many milliseconds have passed instead (not
            reproducible: the number of play-outs depends on the machine).
        cpu_ms: if set, search until this many milliseconds of CPU time (of the searching
            thread) have passed instead: the budget of equal-time comparisons on a shared machine.
        playout: who plays below the tree: ``python``, the ticket planner at every seat on
            observations; ``planner``, the same planner compiled (``planner_decisions``), one native
            call per leaf; ``random``, uniformly random moves, one native call per leaf.
        leaf_playouts: native play-outs per leaf (their mean reward is backed up).
        tree: grow a tree below each candidate (else each visit plays out straight from it).
        exploration: the UCT constant below the root, in points of lead.
        widening: a node may have about visits**widening children (progressive widening).
        rollout_depth: 0 plays out to the end of the game; else this many decisions, then the
            projected-score evaluation.
        confidence: standard errors by which a ticket choice must beat the planner's choice.
        turn_confidence: the same for the other moves of a turn (alternatives there are
            usually worse, so the bar is higher).
        search_turns: search ordinary turns too (else only ticket choices).
        turn_alternatives: which alternatives to the planner's move a turn considers, comma
            separated: ``tickets`` (draw tickets), ``points`` (the best claim for points, once
            a player is down to ``endgame_trains``).
        endgame_trains: trains at which the end is near enough to try claims for points.
        tickets_when_tracks_left: consider drawing tickets once the plan has this few tracks left.
        """
        self.limit = Limit.of(self.name, playouts=iterations, steps=steps, time_ms=time_ms, cpu_ms=cpu_ms)
        self.playout = playout
        self.leaf_playouts = leaf_playouts
        self.tree = tree
        if playout != "python" and rollout_depth:
            raise ConfigError(f"strategy {self.name!r}: a {playout} play-out plays to the end of the game, "
                              f"so rollout_depth must be 0 with it, not {rollout_depth}")
        if playout == "planner" and leaf_playouts != 1:
            raise ConfigError(f"strategy {self.name!r}: a planner play-out draws no random numbers (every seed "
                              f"of a leaf plays the same game), so leaf_playouts must be 1, not {leaf_playouts}")
        self.exploration = exploration
        self.widening = widening
        # A play-out to the end, or (Python play-outs) to rollout_depth decisions and the
        # projected-score evaluation there (``playout``): no value network.
        self.leaf = Leaf(rollout_depth=rollout_depth).check(self.name)
        self.confidence = confidence
        self.turn_confidence = turn_confidence
        self.endgame_trains = endgame_trains
        self.tickets_when_tracks_left = tickets_when_tracks_left
        self.search_turns = search_turns
        self.turn_alternatives = {a.strip() for a in turn_alternatives.split(",") if a.strip()}
        self.planner = TicketPlanner()

    def warm_up(self, state: GameState) -> None:
        """Compile (or load) the planner's and the play-outs' kernels on ``state``, outside any timed move."""
        native, round_ = NATIVE[self.playout], ROUNDS[self.playout]
        if round_ is not None:
            sample = determinizer(state.observation(state.current_player)).sample(1)
            if not sample.is_terminal():
                round_(sample, sample.legal_actions()[:1], [1])
        # Only a tree plays out from its leaves and opens the compiled planner's move first: the
        # flat search compiles neither (each is a copy of the whole planner, seconds to compile).
        if self.tree:
            if native is not None:
                native(state.clone(), [1])
            if self.playout == "planner":
                choose_id(state.clone())
        self.planner.warm_up(state)

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return self.search(observation, legal_actions, rng).action

    def search(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> SearchResult:
        """The decision and what was spent on it (no play-outs: left to the planner)."""
        obs = observation
        if len(legal_actions) == 1:
            return SearchResult(legal_actions[0])
        anchor = self.planner.act(obs, legal_actions, rng)
        if obs.phase == Phase.TUNNEL:
            # Pay or decline, by play-outs from sampled deals: the planner's answer and the other
            # one (the cheapest payment, listed first, or decline, listed last).
            other = legal_actions[-1] if anchor != legal_actions[-1] else legal_actions[0]
            return self._search(obs, [anchor, other], rng)
        if obs.phase == Phase.SECOND_DRAW or (obs.phase == Phase.TURN and not self.search_turns):
            return SearchResult(anchor)
        candidates = self._candidates(obs, legal_actions, anchor)
        if len(candidates) == 1:
            return SearchResult(anchor)
        return self._search(obs, candidates, rng)

    # -- candidates ------------------------------------------------------------------------------

    def _candidates(self, obs: Observation, legal: Sequence[Action], anchor: Action) -> list[Action]:
        """The anchor first, then the alternatives worth a look."""
        if obs.phase in (Phase.INITIAL_TICKETS, Phase.KEEP_TICKETS):
            return [anchor] + [a for a in legal if a != anchor]
        out = [anchor]
        if "tickets" in self.turn_alternatives and DRAW_TICKETS in legal and anchor != DRAW_TICKETS:
            # Drawing tickets is a real question once the current plan is (nearly) built.
            # The anchor brought the planner's plan up to date for this observation.
            if self.planner.planned(obs.player) <= self.tickets_when_tracks_left and obs.trains[obs.player] > obs.ruleset.end_trains + 4:
                out.append(DRAW_TICKETS)
        endgame = min(obs.trains) <= self.endgame_trains
        by_track = claims_by_track(legal) if "points" in self.turn_alternatives and endgame else {}
        if by_track:
            points = obs.track_points
            best = max(by_track, key=lambda t: (points[t], -t))
            hand = obs.hand
            out.append(min(by_track[best], key=lambda a: (a.locomotives, -(hand[a.colour] if a.cards else 0))))
        unique = []
        for a in out:
            if a not in unique:
                unique.append(a)
        return unique

    # -- the search: the one engine, configured -------------------------------------------------

    def _search(self, obs: Observation, moves: list[Action], rng: random.Random) -> SearchResult:
        playout = Playout(obs)
        root = self.planner
        # The move the tree opens first: the play-outs' own policy's where it is compiled.
        prefer = _compiled_choice if self.playout == "planner" else playout.choose

        def planner() -> TicketPlanner:
            # The searching player's plan is known: its play-out planner starts from it.
            mine = TicketPlanner(**PLAYOUT_ORDERS)
            mine.adopt(root)
            return mine

        search = Search(
            determinize, playout.values, planner,
            opponent_model=lambda seat: TicketPlanner(**PLAYOUT_ORDERS),
            moves=lambda state: _moves(state, prefer),
            exploration=self.exploration, widening=self.widening, floor=_FLOOR,
            rollout_depth=self.leaf.rollout_depth, limit=self.limit, visit_cost=_VISIT_COST,
            native_playout=NATIVE[self.playout],
            leaf_playouts=self.leaf_playouts, grow=self.tree,
            # Compiled play-outs sample compiled too; the Python ones keep determinize's stream.
            sampler=None if self.playout == "python" else _prepared,
            native_round=ROUNDS[self.playout],
        )
        bar = self.confidence if obs.phase != Phase.TURN else self.turn_confidence
        choice = search.paired(obs, moves, rng, confidence=bar)
        return SearchResult.of_rows(choice, search.root_rows, playouts=search.playouts, simulations=search.simulations,
                                    rounds=search.rounds, switched=search.switched)


def _prepared(obs: Observation) -> Callable[[random.Random], GameState]:
    """``obs``'s determinizations, prepared once per search, each one native call."""
    return determinizer(obs).sample


def _compiled_choice(state: GameState, legal: Sequence[Action]) -> Action:
    """The compiled planner's move (``planner_choose``): it plays the planner play-outs too."""
    return state.face.actions[choose_id(state)]


def _moves(state: GameState, prefer: Callable[[GameState, Sequence[Action]], Any]) -> list[object]:
    """The moves the tree opens at a state, grouped (one payment per track, one face-up draw per
    colour), ``prefer``'s choice (a fast policy's) first."""
    legal: list[Any] = state.legal_actions()  # read by kind (``type(a) is``), as fast as it goes
    phase = state.phase_name
    if phase is not Phase.TURN and phase is not Phase.SECOND_DRAW:
        return legal
    hand = state.hand(state.current_player)
    cheapest: dict[int, Claim] = {}
    seen: set[int] = set()
    moves: list[object] = []
    for a in legal:
        kind = type(a)
        if kind is Claim:
            held = cheapest.get(a.track)
            if held is None or (a.locomotives, -hand[a.colour] if a.cards else 0) < (
                held.locomotives, -hand[held.colour] if held.cards else 0
            ):
                cheapest[a.track] = a
        elif kind is DrawMarket:
            card = state.market_card(a.slot)
            if card not in seen:
                seen.add(card)
                moves.append(a)
        else:
            moves.append(a)
    moves += cheapest.values()
    preferred = prefer(state, legal)
    if type(preferred) is Claim:
        preferred = cheapest[preferred.track]
    elif type(preferred) is DrawMarket:
        card = state.market_card(preferred.slot)
        preferred = next(m for m in moves if type(m) is DrawMarket and state.market_card(m.slot) == card)
    moves.remove(preferred)
    moves.insert(0, preferred)
    return moves
