"""``ISMCTS``: single-observer information-set Monte Carlo tree search, for any game.

Cowling, Powley and Whitehouse (2012), in its single-observer form. Each iteration samples one
full state the searching player cannot rule out (the game's ``determinize(observation, rng)``),
walks down one tree shared by all the samples, and plays out below it:

- selection by UCB1 where a child's *availability* counts the iterations in which its action
  was legal (an opponent's options depend on its sampled hidden cards), so rarely available
  moves are not starved;
- expansion of one untried legal action per iteration, in the order of the game's legal actions;
- a play-out by ``policy`` (any strategy object: it is handed each seat's observation), to the
  end of the game or for ``rollout_depth`` actions, then ``evaluate`` gives a value per seat;
- back-up: each node keeps the reward of the player who chose the move into it, that player's
  value less the best other player's, scaled by ``scale``.

Nothing here knows a game: a game's strategy supplies ``determinize``, the play-out policy and
the evaluation (see ``strategies/trans_orient/mcts.py``). The budget is ``iterations`` per
searched decision, so a search is reproducible from the ``rng`` it is given.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Sequence


class Node:
    """A search tree node, shared by every game's information-set search (``mcts`` too)."""

    __slots__ = ("player", "visits", "reward", "available", "children")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the move into this node (its reward is theirs)
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[Any, Node] = {}


class ISMCTS:
    """The search; build one per game's strategy and call ``search`` for a decision."""

    def __init__(
        self,
        determinize: Callable[[Any, random.Random], Any],
        policy: Any,
        evaluate: Callable[[Any], Sequence[float]],
        *,
        iterations: int = 200,
        exploration: float = 0.7,
        rollout_depth: int = 0,
        scale: float = 20.0,
    ) -> None:
        self.determinize = determinize
        self.policy = policy
        self.evaluate = evaluate  # state -> one value per seat (the final scores once it is over)
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_depth = rollout_depth  # 0: play to the end
        self.scale = scale  # rewards are value leads divided by this (UCB works near [-1, 1])

    def search(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The most visited of ``legal_actions`` after the iterations (ties: the first listed)."""
        root = Node(-1)
        for _ in range(self.iterations):
            state = self.determinize(observation, rng)
            self._iterate(root, state, rng)
        best, best_visits = legal_actions[0], -1
        for a in legal_actions:
            child = root.children.get(a)
            visits = child.visits if child is not None else 0
            if visits > best_visits:
                best, best_visits = a, visits
        return best

    def _iterate(self, root: Node, state: Any, rng: random.Random) -> None:
        path = [root]
        node = root
        while not state.is_terminal():
            legal = state.legal_actions()
            player = state.current_player
            untried = None
            for a in legal:
                child = node.children.get(a)
                if child is None:
                    if untried is None:
                        untried = a
                else:
                    child.available += 1
            if untried is not None:
                child = node.children[untried] = Node(player)
                child.available = 1
                state.apply(untried)
                path.append(child)
                break
            action, node = self._select(node, legal)
            state.apply(action)
            path.append(node)
        values = self._play_out(state, rng)
        n = len(values)
        for node in path[1:]:
            p = node.player
            best_other = max(values[q] for q in range(n) if q != p)
            node.visits += 1
            node.reward += (values[p] - best_other) / self.scale
        root.visits += 1

    def _select(self, node: Node, legal: Sequence[Any]) -> tuple[Any, Node]:
        """UCB1 over the legal children, exploring by availability rather than parent visits."""
        c = self.exploration
        best, best_value = None, -math.inf
        for a in legal:
            child = node.children[a]
            value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = a, value
        return best, node.children[best]

    def _play_out(self, state: Any, rng: random.Random) -> Sequence[float]:
        policy, depth = self.policy, self.rollout_depth
        steps = 0
        while not state.is_terminal() and (not depth or steps < depth):
            legal = state.legal_actions()
            action = legal[0] if len(legal) == 1 else policy.act(state.observation(state.current_player), legal, rng)
            state.apply(action)
            steps += 1
        return self.evaluate(state)
