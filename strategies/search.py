"""``Search``: the one Monte Carlo tree search, for any game; each game's ``mcts`` configures it.

Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012). Each iteration
samples one full state the searching player cannot rule out (``determinize(observation, rng)``,
the game's own function), walks down one tree shared by all the samples, and plays out below it.
Its parts are values, in the shape of OpenSpiel's ``MCTSBot``:

- ``determinize``: observation, rng -> a full state consistent with the observation;
- ``sampler``: observation -> a sampler of it, rng -> such a state (a game's
  ``determinizer(observation).sample``): a search samples one observation many times, so what
  the observation fixes is worked out once per search; None samples with ``determinize``;
- ``evaluate``: state -> one value per seat (the final scores once the game is over); a seat's
  reward is its value less the best other seat's, divided by ``scale``;
- ``playout_policy``: called at the start of each play-out, the strategy that plays the
  searching player's seat; ``opponent_model(seat)`` the one for each other seat (default: the
  play-out policy everywhere). A strategy here is anything with ``act(observation, legal, rng)``;
- ``moves``: state -> the moves the tree considers there, in the order it opens them (default:
  the state's legal actions); a game may group equivalent moves or list its policy's favourite
  first;
- ``widening``: a node may have ``max(1, int(visits ** widening))`` children (progressive
  widening); None opens every move the first time it is met;
- ``native_playout``: state, seeds -> (values, decisions): a batch of play-outs from one state
  to the end of the game, one per seed, in one call (a game's compiled kernels): ``values[i]``
  the final value of each seat in play-out ``i``, ``decisions`` the decisions made in all. When
  set it replaces ``playout_policy`` and ``opponent_model`` below the tree (the tree stays
  here); each leaf plays ``leaf_playouts`` of them and is credited with their mean reward.
- ``native_round``: state, moves, seeds -> (values, decisions): ``native_playout`` from each of
  ``moves`` played at ``state``, in one call (``values[j][i]`` per seat, move ``j``, seed
  ``i``). A ``paired`` search without a tree (``grow`` False) plays each round with it, the
  same play-outs as one ``native_playout`` per candidate, with less paid around each.

Below the root, selection is UCB1 where a child's *availability* (the iterations in which its
move was among ``moves``) stands for the parent's visits, so moves legal only in some samples
(an opponent's, depending on its sampled hand) are not starved; one new child opens per
iteration; every node on the path is credited with the reward of the player who chose the move
into it. A move must score above ``floor`` to displace the first listed one.

Two ways to spend the budget at the root (both over the same descent, ``visit``):

- ``tree``: the root is a node like any other; the answer is its most visited legal action.
- ``paired``: every candidate is tried on every sample, with the same play-out seed (common
  random numbers), the weakest dropped by successive elimination; the answer is the first
  candidate (the anchor) unless another beats it, paired sample by sample, by ``confidence``
  standard errors. With ``grow`` False no tree grows below the candidates: every visit plays
  out straight from the candidate's move (flat Monte Carlo over the candidates).

Budget: ``limit`` (``ttr_lab.strategies.limit.Limit``): ``playouts`` visits; ``paired`` also
stops at ``steps`` simulated decisions (each visit counting ``visit_cost`` more for its fixed
costs), or on the limit's clock (``time_ms`` or ``cpu_ms``). Without a clock a search is
reproducible from the ``rng`` it is given.
"""

from __future__ import annotations

import functools
import math
import random
from typing import Any, Callable, Sequence

from ttr_lab.strategies.limit import Limit


class Node:
    """A search tree node: statistics of the move into it, and its children by move."""

    __slots__ = ("player", "visits", "reward", "available", "children")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the move into this node (its reward is theirs); -1 at a root
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[Any, Node] = {}


class Search:
    """The search's parts and settings; call ``tree`` or ``paired`` for a decision."""

    def __init__(
        self,
        determinize: Callable[[Any, random.Random], Any],
        evaluate: Callable[[Any], Sequence[float]],
        playout_policy: Callable[[], Any],
        *,
        opponent_model: Callable[[int], Any] | None = None,
        moves: Callable[[Any], Sequence[Any]] | None = None,
        exploration: float = 0.7,
        widening: float | None = None,
        floor: float = -math.inf,
        rollout_depth: int = 0,
        scale: float = 1.0,
        limit: Limit = Limit(playouts=200),
        visit_cost: int = 0,
        native_playout: Callable[[Any, list[int]], tuple[Sequence[Sequence[float]], int]] | None = None,
        leaf_playouts: int = 1,
        grow: bool = True,
        sampler: Callable[[Any], Callable[[random.Random], Any]] | None = None,
        native_round: Callable[[Any, Sequence[Any], list[int]], tuple[Sequence[Any], int]] | None = None,
    ) -> None:
        if native_playout is not None and rollout_depth:
            raise ValueError("a native play-out plays to the end of the game: rollout_depth must be 0 with it")
        if leaf_playouts < 1:
            raise ValueError(f"leaf_playouts must be at least 1, not {leaf_playouts}")
        self.determinize = determinize
        self.sampler = sampler
        self.evaluate = evaluate
        self.playout_policy = playout_policy
        self.opponent_model = opponent_model
        self.moves = moves
        self.exploration = exploration
        self.widening = widening
        self.floor = floor
        self.rollout_depth = rollout_depth  # 0: play to the end
        self.scale = scale
        self.limit = limit
        self.visit_cost = visit_cost
        self.native_playout = native_playout
        self.native_round = native_round
        self.leaf_playouts = leaf_playouts
        self.grow = grow
        self.player = -1  # the searching player, set by each search
        # What the last search spent (read by benchmarks and tests).
        self.rounds = 0
        self.playouts = 0  # visits (each one play-out, or ``leaf_playouts`` native ones)
        self.simulations = 0  # play-outs played
        self.steps_used = 0
        self.switched = False
        self.root_rows: list[tuple[Any, int, float]] = []  # the last paired search's: move, rounds, mean reward

    @property
    def iterations(self) -> int:
        return self.limit.playouts or 0

    # -- the roots -------------------------------------------------------------------------------

    def tree(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The most visited of ``legal_actions`` after ``iterations`` (ties: the first listed)."""
        self.player = observation.player
        self.steps_used = self.simulations = 0
        root = Node(-1)
        draw = self._sampler(observation)
        for _ in range(self.iterations):
            self.visit(root, draw(rng), rng)
        self.rounds = self.playouts = self.iterations
        best, best_visits = legal_actions[0], -1
        for a in legal_actions:
            child = root.children.get(a)
            visits = child.visits if child is not None else 0
            if visits > best_visits:
                best, best_visits = a, visits
        return best

    def paired(self, observation: Any, candidates: Sequence[Any], rng: random.Random, confidence: float = 0.0) -> Any:
        """The anchor (``candidates[0]``) unless another candidate beats it by ``confidence``
        standard errors of the paired difference of their rewards."""
        me = self.player = observation.player
        anchor = candidates[0]
        children = {m: Node(me) for m in candidates}
        # Per move, its reward in each round it was tried; every move still alive was tried in
        # every round so far, so any two alive moves can be compared sample by sample.
        results: dict[Any, list[float]] = {m: [] for m in candidates}
        alive = list(candidates)
        budget = max(len(candidates), self.iterations)
        steps = self.limit.steps
        deadline = self.limit.deadline()
        rounds = playouts = 0
        self.steps_used = self.simulations = 0
        draw = self._sampler(observation)
        while True:
            sample = draw(rng)
            seed = rng.getrandbits(32)
            if not self.grow:
                self._flat_round(sample, alive, children, results, seed)
            else:
                for m in alive:
                    state = sample.clone()
                    state.apply(m)
                    child = children[m]
                    # A candidate's first visit plays out from it: it was just opened.
                    results[m].append(self.visit(child, state, random.Random(seed), descend=child.visits > 0)[me])
            rounds += 1
            playouts += len(alive)
            if rounds >= 3 and len(alive) > 2:
                alive = _survivors(alive, results, anchor)
            if deadline is not None:
                if deadline.passed():
                    break
            elif playouts + len(alive) > budget or (steps is not None and self.steps_used >= steps and rounds >= 2):
                break
        self.rounds, self.playouts = rounds, playouts
        base = results[anchor]
        self.root_rows = [(m, len(r), sum(r) / len(r) if r else 0.0) for m, r in results.items()]
        best = max(alive, key=lambda m: (_mean_gain(results[m], base), m is anchor))
        self.switched = False
        if best is anchor or rounds < 2 or _t_statistic(results[best], base) < confidence:
            return anchor
        self.switched = True
        return best

    def _sampler(self, observation: Any) -> Callable[[random.Random], Any]:
        """``observation``'s determinizations: the prepared ``sampler``'s, else ``determinize``'s."""
        if self.sampler is not None:
            return self.sampler(observation)
        return functools.partial(self.determinize, observation)

    # -- below the root --------------------------------------------------------------------------

    def visit(self, node: Node, state: Any, rng: random.Random, *, descend: bool = True) -> list[float]:
        """One iteration from ``node`` (its move already applied to ``state``): descend, open one
        child, play out, back up. Returns the rewards per seat."""
        path = [node]
        if descend:
            moves_at, widening = self.moves, self.widening
            while not state.is_terminal():
                moves = moves_at(state) if moves_at is not None else state.legal_actions()
                children = node.children
                fresh = None
                for m in moves:
                    child = children.get(m)
                    if child is None:
                        if fresh is None:
                            fresh = m
                    else:
                        child.available += 1
                if fresh is None:
                    options = moves
                else:
                    if widening is None or len(children) < max(1, int(node.visits ** widening)):
                        child = children[fresh] = Node(state.current_player)
                        child.available = 1
                        state.apply(fresh)
                        path.append(child)
                        break
                    # No room for another child: choose among those open (this sample may lack some).
                    options = [m for m in moves if m in children]
                    if not options:
                        break
                best = self.select(node, options)
                node = children[best]
                state.apply(best)
                path.append(node)
        rewards = self.play_out(state, rng)
        for n in path:
            n.visits += 1
            if n.player >= 0:
                n.reward += rewards[n.player]
        return rewards

    def select(self, node: Node, options: Sequence[Any]) -> Any:
        """UCB1 over ``options`` (children of ``node``), exploring by availability."""
        c = self.exploration
        children = node.children
        best, best_value = options[0], self.floor
        for m in options:
            child = children[m]
            value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = m, value
        return best

    def play_out(self, state: Any, rng: random.Random) -> list[float]:
        """Play ``state`` on (to the end, or for ``rollout_depth`` decisions); rewards per seat."""
        self.steps_used += self.visit_cost
        n = state.num_players
        if self.native_playout is not None:
            return self._native(state, rng, n)
        self.simulations += 1
        me, opponent = self.player, self.opponent_model
        mine = self.playout_policy()
        policies = (mine,) * n if opponent is None else [mine if p == me else opponent(p) for p in range(n)]
        depth = self.rollout_depth or (1 << 30)
        steps = 0
        while steps < depth and not state.is_terminal():
            legal = state.legal_actions()
            p = state.current_player
            state.apply(legal[0] if len(legal) == 1 else policies[p].act(state.observation(p), legal, rng))
            steps += 1
        self.steps_used += steps
        return self._mean_rewards([self.evaluate(state)], n)

    def _native(self, state: Any, rng: random.Random, n: int) -> list[float]:
        """``leaf_playouts`` native play-outs of ``state``: each seat's mean reward over them."""
        assert self.native_playout is not None
        batch, decisions = self.native_playout(state, self._leaf_seeds(rng))
        self.steps_used += decisions
        self.simulations += self.leaf_playouts
        return self._mean_rewards(batch, n)

    def _mean_rewards(self, batch: Sequence[Sequence[float]], n: int) -> list[float]:
        """Each seat's mean reward over the final values of a batch of play-outs."""
        return [self._mean_reward(batch, p, n) for p in range(n)]

    def _mean_reward(self, batch: Sequence[Sequence[float]], seat: int, n: int) -> float:
        """``seat``'s mean reward over a batch of play-outs: its lead over the best other seat,
        over ``scale``. A flat round reads the searching seat's alone, so it computes that one."""
        others = [q for q in range(n) if q != seat]
        total = 0.0
        for values in batch:
            total += values[seat] - max([values[q] for q in others])
        return total / (self.scale * len(batch))

    def _leaf_seeds(self, rng: random.Random) -> list[int]:
        """The seeds of one leaf's ``leaf_playouts`` native play-outs, drawn from ``rng``."""
        return [rng.getrandbits(63) for _ in range(self.leaf_playouts)]

    def _flat_round(self, sample: Any, alive: list[Any], children: dict[Any, Node], results: dict[Any, list[float]],
                    seed: int) -> None:
        """One round without a tree: each candidate applied to ``sample`` and played out straight
        from there, every candidate's play-out seeded from ``seed``, its reward appended to
        ``results``. One ``native_round`` call plays the whole round when there is one, with the
        seeds and credit a visit per candidate (``visit(..., descend=False)``) would give."""
        me = self.player
        if self.native_round is None:
            for m in alive:
                state = sample.clone()
                state.apply(m)
                results[m].append(self.visit(children[m], state, random.Random(seed), descend=False)[me])
            return
        seeds = self._leaf_seeds(random.Random(seed))
        batches, decisions = self.native_round(sample, alive, seeds)
        self.steps_used += decisions + self.visit_cost * len(alive)
        self.simulations += len(seeds) * len(alive)
        n = sample.num_players
        for m, batch in zip(alive, batches):
            reward = self._mean_reward(batch, me, n)
            child = children[m]
            child.visits += 1
            child.reward += reward
            results[m].append(reward)


def _survivors(alive: list[Any], results: dict[Any, list[float]], anchor: Any) -> list[Any]:
    """Successive elimination: drop a move (never the anchor) that trails the leader by more
    than two standard errors, so the rest of the budget goes to the close contenders."""
    leader = max(alive, key=lambda m: sum(results[m]))
    return [m for m in alive if m is anchor or m is leader or _t_statistic(results[leader], results[m]) < 2.0]


def _mean_gain(rewards: Sequence[float], base: Sequence[float]) -> float:
    """Mean paired difference over the rounds both were tried (the last ``len(rewards)``)."""
    pairs = list(zip(rewards, base[-len(rewards):])) if rewards else []
    return sum(a - b for a, b in pairs) / len(pairs) if pairs else float("-inf")


def _t_statistic(rewards: Sequence[float], base: Sequence[float]) -> float:
    """Paired t statistic of ``rewards`` over ``base`` (their common, most recent rounds)."""
    n = min(len(rewards), len(base))
    if n < 2:
        return 0.0
    diffs = [a - b for a, b in zip(rewards[-n:], base[-n:])]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean / math.sqrt(max(variance, 1e-12) / n)
