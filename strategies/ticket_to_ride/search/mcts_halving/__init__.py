"""``HalvingSearch`` (``mcts_halving``): sequential halving at the root on common samples, so that
more time buys more candidates and less noise.

``mcts_tree`` grows a UCT tree whose statistics mix samples: a move that met lucky samples early
keeps its lead, and the most visited move is the one the noise favoured (a winner's curse its
``confidence`` bar only holds back). Here every candidate still in the race is played out on the
**same** samples (``kernels.play_candidates``: one determinization, then each candidate
and the compiled planner at every seat to the end), so their differences are measured on equal
luck, and the race is sequential halving (Karnin, Koren and Somekh 2013; the root of Gumbel
MuZero, Danihelka et al. 2022):

- the root's moves are ``mcts_tree``'s (``root.root_moves``: every claim and draw, grouped,
  the planner's move first, then by the prior); the search considers the first ``n`` of them,
  ``n`` growing with the budget (the most for which each of the first round's candidates gets
  ``min_samples`` samples), every move at a ticket choice and in the final round;
- the planner's move (the anchor) races throughout; the other candidates are halved each round
  (the better half by mean lead over all samples so far, which every survivor shares), each
  round getting an equal share of the budget, until one rival is left;
- the answer is that rival if its mean lead beats the anchor's, sample by sample, by
  ``confidence`` standard errors of the paired difference (in a turn; at a ticket choice the
  best mean), else the planner's move. The play-outs are the planner's own play, so a rival
  that only ties it is noise.

Budget: ``iterations`` play-outs (reproducible from the seed), or ``cpu_ms`` (the searching
thread's CPU clock) or ``time_ms`` (wall clock) per searched decision: each round then runs
batches of samples until its share of the clock is spent, and the number of candidates comes from
the cost of a play-out measured on the first samples. Forced moves take no search; a second card
takes the planner's.
"""

from __future__ import annotations

import math
import random
from typing import Callable, Literal, Sequence

import numpy as np
from pydantic import NonNegativeFloat, PositiveFloat, PositiveInt

from ttr_lab.games.ticket_to_ride import Action, GameState, Observation, Phase
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.strategies.limit import Deadline, Limit, spend
from ttr_lab.strategies.ticket_to_ride.search.mcts_halving.kernels import play_candidates, play_candidates_streamed
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, tables_of
from ttr_lab.strategies.ticket_to_ride.learned import Learned, shares_plan
from ttr_lab.strategies.ticket_to_ride.search.leaf import Leaf
from ttr_lab.strategies.ticket_to_ride.search.result import SearchResult
from ttr_lab.strategies.ticket_to_ride.search.root import by_policy, policy_prior, root_moves
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner, seat_view

# Samples of the anchor and its first rival that time one play-out before a clocked search plans.
_PROBE = 2


class HalvingSearch:
    name = "mcts_halving"
    # Its kernels play every candidate out to the end and read the lead: the one leaf it plays.
    leaf = Leaf()
    TUNABLE = {
        "min_samples": {"low": 2, "high": 32},
        "confidence": {"low": 0.0, "high": 3.0},
    }

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
        policy: str | Learned | None = None,
        verdict: Literal["all", "final"] = "all",
    ) -> None:
        """
        iterations: play-outs per searched decision when no clock is given (reproducible).
        time_ms: if set, search this many milliseconds of wall clock per decision instead.
        cpu_ms: if set, search this many milliseconds of the searching thread's CPU time instead.
        min_samples: the first round gives each candidate at least this many samples; the
            budget then says how many candidates the search can afford.
        max_candidates: at most this many candidates (the prior's order), final round included.
        confidence: in a turn, the last rival replaces the planner's move only when its mean lead
            beats the planner's by this many standard errors of their paired difference.
        streams: in the play-outs, each seat draws its cards from its own stream of the sample
            (``pile_streams.steer_pile``), so a candidate's own draws do not change the cards
            the others meet later. On by default: with it more time buys more strength
            (docs/notes/2026-12-mcts-halving.md, "The streams, measured"); False is the search as it was before.
        policy: a policy network orders the rivals (the planner's move still first) by its
            highest logit in each group of moves: ``"learned"`` (the weights the ``learned``
            strategy ships for the map), a weights file or a ``Learned`` strategy (a network in
            memory: ``Learned.of``); None (the default) keeps the hand
            prior's order (``root_kernels.ordered_moves``).
        verdict: the samples the answer's test reads: ``"all"`` (the default) every sample the
            last rival met, those of the rounds that chose it among the others included (so its
            lead is biased up by the choice: a winner's curse); ``"final"`` only the last round's,
            which chose nothing (an unbiased test on fewer samples).
        """
        self.limit = Limit.of(self.name, playouts=iterations, time_ms=time_ms, cpu_ms=cpu_ms)
        self.min_samples, self.max_candidates, self.confidence = min_samples, max_candidates, confidence
        self.streams = streams
        self.verdict = verdict
        self.planner = TicketPlanner()
        self.prior = policy_prior(policy)
        # The prior reads the planner's kept plan, not a copy, when it is the same plan (``shares_plan``).
        self.share_plan = shares_plan(self.planner)

    def warm_up(self, state: GameState) -> None:
        """Compile (or load) the kernel, outside any timed move."""
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            self._search(state.observation(state.current_player), state.legal_actions()[0], random.Random(0), playouts=4)

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return self.search(observation, legal_actions, rng).action

    def search(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> SearchResult:
        """The decision, the race's candidates (move, samples, mean lead less the anchor's) and
        the play-outs spent (none: left to the planner)."""
        view = seat_view(observation)  # the one view of this decision: planner, prior and root read it
        anchor = self.planner.act_on(view)  # keeps the planner's plan current
        # At every decision, as the planner: the network's features read the plan it keeps.
        logits, inputs = (None, None) if self.prior is None else self.prior.read(
            observation, legal_actions, view, self.planner.kept if self.share_plan else None)
        # A tunnel's extra payment is searched like a turn: pay or decline by play-outs.
        if len(legal_actions) == 1 or observation.phase == Phase.SECOND_DRAW:
            return SearchResult(anchor, inputs=inputs)
        return self._search(observation, anchor, rng, prior=None if logits is None else (legal_actions, logits),
                            inputs=inputs, view=view)

    def _search(self, obs: Observation, anchor: Action, rng: random.Random, playouts: int | None = None,
                prior: tuple[Sequence[Action], np.ndarray] | None = None,
                inputs: np.ndarray | None = None, view: GameState | None = None) -> SearchResult:
        sampler, root = root_moves(obs, anchor, rng, view)
        if root.shape[0] == 1:
            return SearchResult(anchor, inputs=inputs)
        template = sampler.template
        face, g = template.face, template.face.g
        if prior is not None:
            root = by_policy(template, root, *prior)
        pt, w = tables_of(g)
        me = obs.player
        spent = [0]  # play-outs so far

        def play(moves: np.ndarray, samples: int, seeds: np.ndarray | None = None) -> np.ndarray:
            if seeds is None:
                seeds = np.array([rng.getrandbits(64) for _ in range(samples)], dtype=np.uint64)
            out = np.empty((seeds.shape[0], moves.shape[0]), dtype=np.float64)
            spent[0] += seeds.shape[0] * moves.shape[0]
            kernel = play_candidates_streamed if self.streams else play_candidates
            kernel(g, pt, w, DEFAULT_PARAMS, template.s, sampler.plan, sampler.work, sampler.longs_held, me, moves,
                   seeds, out)
            return out

        deadline = None if playouts is not None else self.limit.deadline()
        probe = np.zeros((0, 2), dtype=np.float64)
        if deadline is None:
            budget = float(playouts or self.limit.playouts or 0)
        else:
            # The first samples of the anchor and its first rival time a play-out; the other
            # candidates then meet the same samples, so they count in the race.
            probe_seeds = np.array([rng.getrandbits(64) for _ in range(_PROBE)], dtype=np.uint64)
            probe = play(root[:2], 0, probe_seeds)
            per = max(deadline.spent(), 1e-6) / (2 * _PROBE)
            budget = spent[0] + max(0.0, deadline.left() / per)
        everything = obs.phase in (Phase.INITIAL_TICKETS, Phase.KEEP_TICKETS) or int(template.s[L.FINAL_TURNS]) >= 0
        n = root.shape[0] if everything else affordable(budget, self.min_samples, root.shape[0])
        n = max(2, min(n, root.shape[0], self.max_candidates))
        rounds = halving_rounds(n - 1)
        alive = list(range(n))  # indices into root; 0 is the anchor, always alive
        leads = np.zeros((probe.shape[0], n), dtype=np.float64)
        if probe.shape[0]:
            leads[:, :2] = probe
            if n > 2:
                leads[:, 2:] = play(root[2:n], 0, probe_seeds)
        for r in range(rounds):
            moves = root[alive]
            if deadline is None:
                share = (budget - spent[0]) / (rounds - r)
                block = play(moves, max(1, int(share // len(alive))))
            else:
                block = _timed_round(play, moves, deadline, rounds - r)
            grown = np.full((leads.shape[0] + block.shape[0], n), np.nan)
            grown[:leads.shape[0]] = leads
            grown[leads.shape[0]:, alive] = block
            leads = grown
            if r < rounds - 1:
                rivals = sorted(alive[1:], key=lambda i: -float(np.mean(leads[:, i])))
                alive = [0] + sorted(rivals[:math.ceil(len(rivals) / 2)])
        bar = self.confidence if obs.phase == Phase.TURN else 0.0
        # With one rival nothing was chosen, so every sample is fair to the test.
        tested = slice(leads.shape[0] - block.shape[0], None) if self.verdict == "final" and n > 2 else slice(None)
        best = answer(leads[tested, 0], leads[tested, alive[1]], bar)
        diffs = leads - leads[:, :1]
        rows = [(face.actions[int(root[i])], int(np.sum(~np.isnan(leads[:, i]))), float(np.nanmean(diffs[:, i])))
                for i in range(n)]
        return SearchResult.of_rows(face.actions[int(root[alive[1]])] if best else anchor, rows, playouts=spent[0],
                                    simulations=spent[0], switched=best, inputs=inputs)

    def edge(self, observation: Observation, anchor: Action, move: Action, samples: int,
             rng: random.Random) -> tuple[float, float]:
        """``move``'s mean lead over ``anchor`` on ``samples`` fresh samples (played out as in the
        race), and the standard error of that mean: a verdict free of the race's selection, for
        measuring how much a race's winner owes to the samples that chose it."""
        sampler, root = root_moves(observation, anchor, rng)
        template = sampler.template
        g = template.face.g
        pt, w = tables_of(g)
        moves = np.array([template.face.id_of(anchor), template.face.id_of(move)], dtype=root.dtype)
        seeds = np.array([rng.getrandbits(64) for _ in range(samples)], dtype=np.uint64)
        out = np.empty((samples, 2), dtype=np.float64)
        kernel = play_candidates_streamed if self.streams else play_candidates
        kernel(g, pt, w, DEFAULT_PARAMS, template.s, sampler.plan, sampler.work, sampler.longs_held,
               observation.player, moves, seeds, out)
        d = out[:, 1] - out[:, 0]
        return float(np.mean(d)), float(np.std(d, ddof=1) / math.sqrt(samples)) if samples > 1 else math.inf


def _timed_round(play: Callable[[np.ndarray, int], np.ndarray], moves: np.ndarray, deadline: Deadline,
                 rounds_left: int) -> np.ndarray:
    """Samples of ``moves`` until this round's share of the time left is spent (at least one)."""
    blocks: list[np.ndarray] = []

    def run(samples: int) -> None:
        blocks.append(play(moves, samples))

    spend(run, lambda: sum(b.shape[0] for b in blocks), deadline.clock, deadline.left() / rounds_left, 1, 0.5)
    return np.concatenate(blocks)


def affordable(playouts: float, min_samples: int, available: int) -> int:
    """The most candidates (the anchor among them, at least 2) whose first round gives each
    ``min_samples`` samples: the rounds share ``playouts`` equally."""
    n = 2
    while n < available and (n + 1) * min_samples * halving_rounds(n) <= playouts:
        n += 1
    return n


def halving_rounds(rivals: int) -> int:
    """Rounds to halve ``rivals`` down to one, and the round that compares it with the anchor."""
    return max(0, math.ceil(math.log2(rivals))) + 1 if rivals > 0 else 1


def answer(anchor: np.ndarray, rival: np.ndarray, confidence: float) -> bool:
    """Whether ``rival`` (its lead per sample) replaces ``anchor`` (the planner's, on the same
    samples): its mean paired difference above 0 by ``confidence`` standard errors (a bar of 0:
    above 0 at all)."""
    both = ~(np.isnan(anchor) | np.isnan(rival))
    d = rival[both] - anchor[both]
    if d.shape[0] == 0:
        return False
    mean = float(np.mean(d))
    error = float(np.std(d, ddof=1) / math.sqrt(d.shape[0])) if d.shape[0] > 1 else math.inf
    return mean > 0.0 if confidence == 0.0 else mean > confidence * error
