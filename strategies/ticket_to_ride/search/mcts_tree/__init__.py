"""``TreeSearch`` (``mcts_tree``): determinized UCT over every move the game offers, grown in
compiled code, so that more time keeps buying a better move.

``mcts`` (and its frozen ``mcts_flat``) compares two to four candidates (the planner's move and a
few alternatives) by compiled planner play-outs: once those few are told apart, more time buys
nothing. Here the root holds **every** claim and draw the position offers, grouped (one payment
per track, one face-up draw per card kind) and ordered by a prior: the ticket planner's own move
first, then the claims its plan wants, the blind draw, a ticket draw, the other claims by their
points, the face-up cards (``root_kernels.ordered_moves``). Progressive widening opens them in
that order as visits accrue (about ``widening_base * visits ** widening`` children at a node), so
a short search is the planner's move checked against its nearest rivals and a long one weighs
many. Below the root the tree continues over the searching player's own later moves (an
open-loop tree: the opponents' moves between them are the planner's in each sample), to
``tree_depth`` of them. Each iteration samples one state the player cannot rule out (the game's
compiled determinizer), walks down by UCB1 with availability, and evaluates the leaf; statistics
are shared across samples (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012, in the
shape of OpenSpiel's ``ismcts.py``). The whole iteration (sample, descent, the opponents' planner
moves, play-out, back-up) is one kernel (``kernels.grow``); Python only sets it up and
stops it on the clock between batches.

Leaf evaluation (the reward is the lead in points over the best other seat), declared as one
value, ``leaf.Leaf``, built from the parameters below:

- the default: the compiled ticket planner plays every seat to the end (``planner_playout``);
- ``rollout_depth``: it plays that many decisions, then the game is scored as if it ended there;
- ``value``: a learned value network, evaluated in the kernel on an observation tensor
  (``ttr_lab.games.ticket_to_ride.tensor``'s layout, as the batched env gives it): a multi-layer
  perceptron, ReLU between layers, given as its weight arrays ``[W1, b1, W2, b2, ...]`` (``W`` of
  shape (inputs, outputs), applied as ``x @ W + b``; the last layer has one output), or as a
  callable with no arguments returning that list (a checkpoint loader), or ``"learned"`` (the
  value half of the shipped network that reads the tensor alone, ``weights/tensor-usa-2p.npz``;
  the ``learned`` strategy's own network also reads planning features the kernel does not
  compute) or a path to such weights. Its output
  times ``value_scale`` is in points of lead. With a network the leaf is played on for
  ``rollout_depth`` decisions (0: none) and valued there; unless ``value_mix`` is 1 the play-out
  goes on to the end and the reward is ``(1 - value_mix) * lead + value_mix * value``. At 2
  players a leaf where the other seat moves is valued from its view, negated (``mover_view``).

Opponents in the walk and the play-outs are the planner, or with ``epsilon`` sometimes a random
move, the same for every leaf of a sample.

The answer is the root's most visited child, in a turn only if its mean reward beats the
planner's move by ``confidence`` standard errors (else the planner's move). Budget: ``iterations`` (reproducible from the
seed), or ``time_ms`` (wall clock) or ``cpu_ms`` (the searching thread's CPU clock) per searched
decision. Forced moves take no search; a second card takes the planner's unless
``search_second_draw``.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import numpy as np
from pydantic import NonNegativeFloat, NonNegativeInt, PositiveFloat, PositiveInt

from ttr_lab.core.errors import ConfigError
from ttr_lab.games.ticket_to_ride import Action, GameState, Observation, Phase
from ttr_lab.games.ticket_to_ride.batch import tensor_plan
from ttr_lab.strategies.limit import Limit, spend
from ttr_lab.strategies.ticket_to_ride.search.mcts_tree import kernels as K
from ttr_lab.strategies.ticket_to_ride.search.result import SearchResult
from ttr_lab.strategies.ticket_to_ride.search.root import by_policy, policy_prior, root_moves
from ttr_lab.strategies.ticket_to_ride.learned import Learned, shares_plan
from ttr_lab.strategies.ticket_to_ride.search.leaf import Leaf
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, tables_of
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner, seat_view

# Nodes a tree may hold (each iteration opens at most one): 1 s at 2 players is ~10k iterations.
_CAPACITY = 1 << 16
# The first batch of a timed search, in iterations; later batches aim at a quarter of the time left.
_FIRST_BATCH = 4


class TreeSearch:
    name = "mcts_tree"
    TUNABLE = {
        "exploration": {"low": 2.0, "high": 40.0},
        "widening": {"low": 0.2, "high": 0.8},
        "widening_base": {"low": 0.5, "high": 3.0},
        "tree_depth": {"low": 1, "high": 6},
    }

    def __init__(
        self,
        *,
        iterations: PositiveInt = 300,
        time_ms: PositiveFloat | None = None,
        cpu_ms: PositiveFloat | None = None,
        exploration: NonNegativeFloat = 5.0,
        widening: NonNegativeFloat = 0.5,
        widening_base: PositiveFloat = 1.0,
        max_children: PositiveInt = 64,
        tree_depth: PositiveInt = 3,
        rollout_depth: NonNegativeInt = 0,
        value: Any = None,
        value_mix: NonNegativeFloat = 0.5,
        value_scale: float = 1.0,
        paired: NonNegativeInt = 3,
        epsilon: NonNegativeFloat = 0.0,
        follow_planner: bool = False,
        mover_view: bool = True,
        confidence: NonNegativeFloat = 2.0,
        search_second_draw: bool = False,
        policy: str | Learned | None = None,
        streams: bool = False,
    ) -> None:
        """
        iterations: iterations per searched decision when no clock is given (reproducible).
        time_ms: if set, search this many milliseconds of wall clock per decision instead.
        cpu_ms: if set, search this many milliseconds of the searching thread's CPU time instead.
        exploration: the UCB1 constant, in points of lead.
        widening: a node with ``v`` visits may have ``widening_base * (v + 1) ** widening``
            children (at least one), opened in the prior's order.
        widening_base: see ``widening``.
        max_children: at most this many children at a node (the prior's pruning).
        tree_depth: the searching player's own decisions the tree spans below the root.
        rollout_depth: 0 plays each leaf out to the end; else this many decisions, then the
            score as if the game ended there.
        value: a value network: a ``Network`` (its value path), or its weight arrays
            ``[W1, b1, ...]`` or a callable returning them (module docstring); ``"learned"``: the value head of the tensor-only network
            shipped for the map (``network.py``), or a path to such weights (its logit
            of the win share is the value); None: play-outs alone.
        value_mix: the value's weight in a leaf's reward (1: the value alone, no play-out).
        value_scale: the value network's output times this is points of lead.
        paired: iterations per sample, each scored against the planner's own line played out on
            that sample (common random numbers); 0: each iteration its own sample, no baseline.
        epsilon: the chance that an opponent's turn, in the tree's walk and in play-outs, is a
            uniformly drawn legal move instead of the planner's (the same slips for every leaf of
            one sample); 0: the planner's line alone.
        follow_planner: below the root, each sample's planner move is always among a node's
            children (opened even past the widening), so the walk can follow the planner's line on
            every sample; else a node's children are those opened on earlier samples.
        mover_view: at 2 players, value a leaf where the other seat moves from its view, negated
            (what a network trained on the player to move's view knows); else always from the
            searching player's view.
        confidence: in a turn, the most visited move replaces the planner's only when its mean
            reward beats the planner's line by this many standard errors (the play-outs model the
            planner's own play, so near-ties are its to break); 0 at a ticket choice.
        search_second_draw: search the second card of a draw too (else the planner's).
        policy: a policy network orders the root's moves (the planner's move still first), so the
            widening opens the moves it scores highest first: ``"learned"`` (the weights the
            ``learned`` strategy ships for the map), a weights file, or a ``Learned`` strategy
            (a network in memory: ``Learned.of``); None: the hand prior.
            Below the root the hand prior orders the tree (the kernel computes no features).
        streams: each seat draws its cards, in the walk and the play-outs, from a stream of its
            own within a sample (``pile_streams``, as ``mcts_halving``'s ``streams``), so a move's
            own draws do not change the cards every later draw meets.
        """
        self.limit = Limit.of(self.name, playouts=iterations, time_ms=time_ms, cpu_ms=cpu_ms)
        self.leaf = Leaf(rollout_depth=rollout_depth, value=value, value_mix=value_mix, value_scale=value_scale,
                         mover_view=mover_view).check(self.name)
        # Typed as the kernels read them (one compiled signature whatever a config spells).
        self.settings = K.Settings(
            exploration=float(exploration), widening=float(widening), widening_base=float(widening_base),
            tree_depth=int(tree_depth), max_children=int(max_children), paired=int(paired),
            epsilon=float(epsilon), follow_planner=bool(follow_planner), streams=bool(streams),
            **self.leaf.settings())
        if epsilon > 1.0:
            raise ConfigError(f"strategy {self.name!r}: epsilon is a chance in [0, 1], not {epsilon}")
        # A network file is read at the first search, when the map is known.
        self._network_pending = self.leaf.reads_file
        self.value_weights, self.value_sizes = self.leaf.network()
        self.search_second_draw = search_second_draw
        self.confidence = confidence
        self.planner = TicketPlanner()
        self.prior = policy_prior(policy)
        # The prior reads the planner's kept plan, not a copy, when it is the same plan (``shares_plan``).
        self.share_plan = shares_plan(self.planner)
        self.tree = K.new_tree(_CAPACITY)
        self._tensor: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def warm_up(self, state: GameState) -> None:
        """Compile (or load) the kernels on ``state``, outside any timed move."""
        obs = state.observation(state.current_player)
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            self._search(obs, state.legal_actions()[0], random.Random(0), iterations=2)

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return self.search(observation, legal_actions, rng).action

    def search(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> SearchResult:
        """The decision, the root's children (move, visits, mean reward) and what was spent."""
        view = seat_view(observation)  # the one view of this decision: planner, prior and root read it
        anchor = self.planner.act_on(view)  # keeps the planner's plan current
        # At every decision, as the planner: the network's features read the plan it keeps.
        logits, inputs = (None, None) if self.prior is None else self.prior.read(
            observation, legal_actions, view, self.planner.kept if self.share_plan else None)
        # A tunnel's extra payment is searched like a turn: pay or decline by play-outs.
        if len(legal_actions) == 1 or (observation.phase == Phase.SECOND_DRAW and not self.search_second_draw):
            return SearchResult(anchor, inputs=inputs)
        return self._search(observation, anchor, rng, prior=None if logits is None else (legal_actions, logits),
                            inputs=inputs, view=view)

    def _search(self, obs: Observation, anchor: Action, rng: random.Random, iterations: int | None = None,
                prior: tuple[Sequence[Action], np.ndarray] | None = None,
                inputs: np.ndarray | None = None, view: GameState | None = None) -> SearchResult:
        sampler, root = root_moves(obs, anchor, rng, view)
        template = sampler.template
        if prior is not None:
            root = by_policy(template, root, *prior)
        face, g = template.face, template.face.g
        pt, w = tables_of(g)
        if root.shape[0] == 1:
            return SearchResult(anchor, inputs=inputs)
        tree = self.tree
        for array in tree:
            array[0] = 0
        tree.first[0] = tree.sibling[0] = -1  # the root: no child, no sibling
        totals = K.new_totals(rng.getrandbits(63))
        tplan, scales = self._tensor_plan(obs)

        def run(count: int) -> None:
            K.grow(g, pt, w, DEFAULT_PARAMS, template.s, sampler.plan, sampler.work, sampler.longs_held, obs.player,
                   root, self.settings, totals, tree, count, tplan, scales, self.value_weights, self.value_sizes)

        deadline = None if iterations is not None else self.limit.deadline()
        if deadline is None:
            run(iterations or self.limit.playouts or 0)
        else:
            spend(run, lambda: int(totals.iterations[0]), deadline.clock, deadline.seconds, _FIRST_BATCH, 0.25)
        bar = self.confidence if obs.phase in (Phase.TURN, Phase.SECOND_DRAW) else 0.0
        action = face.actions[_answer(self.tree, bar)]
        done = int(totals.iterations[0])
        return SearchResult.of_rows(action, _root_children(self.tree, face), playouts=done, simulations=done,
                                    nodes=int(totals.nodes[0]), switched=action != anchor, inputs=inputs)

    def leaf_value(self, state: GameState, me: int) -> float:
        """``me``'s value of ``state`` in points, exactly as this search's leaves read it with its
        ``value`` network (``kernels.viewed_value``: the kernel's own tensor and view)."""
        tplan, scales = self._tensor_plan(state.observation(me))
        if self.value_sizes.shape[0] < 2:
            raise ConfigError(f"strategy {self.name!r}: leaf_value needs a value network (value: ...)")
        widest = int(self.value_sizes.max())
        x, h = np.empty(widest, dtype=np.float32), np.empty(widest, dtype=np.float32)
        return float(K.viewed_value(state.face.g, state.s, me, self.settings, tplan, scales, self.value_weights,
                                    self.value_sizes, x, h))

    def _tensor_plan(self, obs: Observation) -> tuple[np.ndarray, np.ndarray]:
        """The observation tensor's layout for the value network (a placeholder without one)."""
        if self._network_pending:
            self.value_weights, self.value_sizes = self.leaf.network(obs.board.name)
            self._network_pending = False
        if self.value_sizes.shape[0] < 2:
            return _NO_TENSOR
        key = obs.num_players
        if key not in self._tensor:
            plan, scales = tensor_plan(obs.board, obs.ruleset, obs.num_players)
            # Writeable copies: numba compiles read-only arrays as another type (a second kernel).
            self._tensor[key] = np.array(plan, dtype=np.int64), np.array(scales, dtype=np.float32)
            size = int(self._tensor[key][0][0])
            if size != self.value_sizes[0]:
                raise ConfigError(f"strategy {self.name!r}: the value network takes {self.value_sizes[0]} inputs, "
                                  f"the observation tensor here has {size}")
        return self._tensor[key]


_NO_TENSOR = (np.zeros(1, dtype=np.int64), np.ones(1, dtype=np.float32))


def _answer(tree: K.Tree, confidence: float) -> int:
    """The root's most visited child's move (ties: the first opened) if its mean reward is above
    0 by ``confidence`` standard errors; else the first child's (the planner's move, opened
    first). 0 is the planner's own line: the reward is the lead less that line's on each sample
    (the planner's child itself averages below it, as its subtree's explorations count in it)."""
    action, first, sibling, visits, reward, squares = tree.action, tree.first, tree.sibling, tree.visits, tree.reward, tree.squares
    anchor = k = int(first[0])
    best = anchor
    while k >= 0:
        if visits[k] > visits[best]:
            best = k
        k = int(sibling[k])
    if best == anchor or confidence == 0.0:
        return int(action[best])
    mean = reward[best] / visits[best]
    error = float(np.sqrt(max(0.0, squares[best] / visits[best] - mean * mean) / visits[best]))
    return int(action[best]) if mean > confidence * error else int(action[anchor])


def _root_children(tree: K.Tree, face: Any) -> list[tuple[Any, int, float]]:
    action, first, sibling, visits, reward = tree.action, tree.first, tree.sibling, tree.visits, tree.reward
    out = []
    k = int(first[0])
    while k >= 0:
        out.append((face.actions[int(action[k])], int(visits[k]), float(reward[k] / max(visits[k], 1.0))))
        k = int(sibling[k])
    return out
