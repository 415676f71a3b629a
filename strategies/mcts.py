"""``MCTS``: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

The searching player never sees hidden information. Each iteration samples one full state
consistent with its observation (``ttr_lab.determinize``: opponents' hands and tickets and
both decks drawn from what it cannot see), then walks one shared tree with that sample:

1. **Select** by UCT, counting for each child how often it was *available* (an opponent's
   claims depend on the sampled hand, so a move exists in some samples and not others).
2. **Expand** one new move, in the order of a cheap prior (planned claims first).
3. **Play out** ``rollout_depth`` more decisions with the fast policy of ``strategies.playout``.
4. **Evaluate** with a projected final score per player (ticket progress against trains and
   turns left) and back the per-player rewards up the path.

To keep the tree narrow, moves are grouped: one payment per track (the cheapest), and one
face-up draw per colour. The decision is the most visited move at the root. Easy decisions
(one legal move; the second card of a draw) go to the ticket planner without search.

Budget: ``iterations`` per decision (reproducible: the same seed gives the same game), or
``time_ms`` per decision (stops on the clock, so results depend on machine speed; use it for
strength-against-time studies, not for reproducible records).
"""

from __future__ import annotations

import math
import random
import time
from typing import Sequence

from strategies.playout import Playout
from strategies.ticket_planner import TicketPlanner
from ttr_lab.colours import LOCOMOTIVE
from ttr_lab.rules.actions import Action, Claim, DrawMarket
from ttr_lab.rules.determinize import determinize
from ttr_lab.rules.game import Phase
from ttr_lab.rules.observation import Observation
from ttr_lab.rules.state import GameState


class _Node:
    __slots__ = ("player", "visits", "reward", "available", "children")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the move into this node (whose reward it keeps)
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[object, _Node] = {}


class MCTS:
    name = "mcts"

    def __init__(
        self,
        *,
        iterations: int = 250,
        time_ms: float | None = None,
        exploration: float = 0.2,
        rollout_depth: int = 8,
        eval_scale: float = 12.0,
        points_per_train: float = 1.6,
        max_claims: int = 6,
        search_second_draw: bool = False,
        prior_weight: float = 0.1,
        full_rollout_trains: int = 14,
    ) -> None:
        """
        iterations: search iterations per decision (the reproducible budget).
        time_ms: if set, search until this many milliseconds pass instead (capped by iterations
            only if iterations is also given explicitly > 0; not reproducible).
        exploration: the UCT constant.
        rollout_depth: decisions played by the fast policy after the tree, before evaluating.
        eval_scale: points of projected lead worth about 73% of a win (the logistic's scale).
        points_per_train: what a train still in supply may bring, at most, in the evaluation.
        max_claims: claims considered per decision, best by the prior (planned, long, cheap).
        search_second_draw: also search the second card of a draw (else the planner picks it).
        """
        self.iterations = iterations
        self.time_ms = time_ms
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.eval_scale = eval_scale
        self.points_per_train = points_per_train
        self.max_claims = max_claims
        self.search_second_draw = search_second_draw
        self.prior_weight = prior_weight
        self.full_rollout_trains = full_rollout_trains
        self.planner = TicketPlanner()
        self.last_iterations = 0

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        obs = observation
        if len(legal_actions) == 1:
            return legal_actions[0]
        if obs.phase == Phase.SECOND_DRAW and not self.search_second_draw:
            return self.planner.act(obs, legal_actions, rng)
        return self._search(obs, legal_actions, rng)

    # -- search ----------------------------------------------------------------------------------

    def _search(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        playout = Playout(obs, eval_scale=self.eval_scale, points_per_train=self.points_per_train)
        root = _Node(-1)
        self._prior = self.planner.act(obs, legal, rng) if self.prior_weight else None
        if type(self._prior) is Claim:  # the grouped move of that track
            self._prior = self._group_claim(obs, self._prior, legal)
        elif type(self._prior) is DrawMarket:
            self._prior = next(a for a in legal if type(a) is DrawMarket and obs.market[a.slot] == obs.market[self._prior.slot])
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000.0
        limit = self.iterations if (deadline is None or self.iterations > 0) else 1 << 30
        done = 0
        while done < limit:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, determinize(obs, rng), playout, rng)
            done += 1
        self.last_iterations = done
        if not root.children:
            return self.planner.act(obs, legal, rng)
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward))[0]
        # The tree's moves are the legal actions' own objects (grouped), so this is legal.
        return best

    def _iterate(self, root: _Node, state: GameState, playout: Playout, rng: random.Random) -> None:
        baseline = playout.leads(state)
        path = [root]
        node = root
        c = self.exploration
        while not state.is_terminal():
            moves = self._moves(state, playout)
            player = state.player
            for m in moves:
                child = node.children.get(m)
                if child is not None:
                    child.available += 1
            fresh = [m for m in moves if m not in node.children]
            if fresh:
                move = self._prior if node is root and self._prior in fresh else fresh[0]
                child = node.children[move] = _Node(player)
                child.available = 1
                state.apply(move)
                path.append(child)
                break
            best, best_value = None, -1.0
            at_root = node is root
            for m in moves:
                child = node.children[m]
                value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                if at_root and m == self._prior:
                    value += self.prior_weight * 10.0 / (child.visits + 10.0)
                if value > best_value:
                    best, best_value = m, value
            node = node.children[best]
            state.apply(best)
            path.append(node)
        depth = self.rollout_depth
        if min(state.trains) <= self.full_rollout_trains:
            depth = 1 << 20  # near the end, play the game out: the real scores decide
        for _ in range(depth):
            if state.is_terminal():
                break
            playout.step(state)
        rewards = playout.rewards(state, baseline)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                n.reward += rewards[n.player]

    @staticmethod
    def _group_claim(obs: Observation, claim: Claim, legal: Sequence[Action]) -> Claim:
        """The payment the search uses for a track: fewest locomotives, then the largest pile."""
        hand = obs.hand
        options = [a for a in legal if type(a) is Claim and a.track == claim.track]
        return min(options, key=lambda a: (a.locomotives, -(hand[a.colour] if a.colour != LOCOMOTIVE else 0)))

    def _moves(self, state: GameState, playout: Playout) -> list[object]:
        """The grouped moves at a state, best prior first."""
        legal = state.legal_actions()
        phase = state.phase
        if phase not in (int(Phase.TURN), int(Phase.SECOND_DRAW)):
            return legal
        p = state.player
        hand = state.hands[p * 9:p * 9 + 9]
        targets = set(playout.targets(state, p)) if phase == int(Phase.TURN) else set()
        net = playout.net
        cheapest: dict[int, Claim] = {}
        draws: list[object] = []
        colours_seen: set[int] = set()
        others: list[object] = []
        for a in legal:
            kind = type(a)
            if kind is Claim:
                held = cheapest.get(a.track)
                key = (a.locomotives, -(hand[a.colour] if a.colour != LOCOMOTIVE else 0))
                if held is None or key < (held.locomotives, -(hand[held.colour] if held.colour != LOCOMOTIVE else 0)):
                    cheapest[a.track] = a
            elif kind is DrawMarket:
                card = state.market[a.slot]
                if card not in colours_seen:
                    colours_seen.add(card)
                    draws.append(a)
            else:
                others.append(a)
        claims = sorted(
            cheapest.values(),
            key=lambda a: (
                -(a.track in targets or (net.twin[a.track] >= 0 and net.twin[a.track] in targets)),
                -net.length[a.track], a.locomotives, a.track,
            ),
        )[: self.max_claims]
        # The policy's own choice first, so the first expansion follows it.
        moves = claims + others + draws
        preferred = playout.choose(state, legal)
        if type(preferred) is Claim:
            preferred = cheapest.get(preferred.track, preferred)
        elif type(preferred) is DrawMarket:
            card = state.market[preferred.slot]
            preferred = next(d for d in draws if state.market[d.slot] == card)
        if preferred in moves:
            moves.remove(preferred)
        moves.insert(0, preferred)
        return moves
