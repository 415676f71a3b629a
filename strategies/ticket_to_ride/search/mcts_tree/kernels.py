"""The compiled tree of ``mcts_tree``: determinized UCT over the searching player's own moves.

One call of ``grow`` runs a batch of iterations on a tree kept in arrays between calls (so a
clock in Python can stop the search between batches). An iteration:

1. samples one state the searching player ``me`` cannot rule out (``kernels.determinize.sample``:
   opponents' hands and tickets and both decks);
2. walks down the tree. Nodes are ``me``'s decisions, keyed by ``me``'s moves since the root
   (an open-loop tree: the opponents' moves between them are the planner's on that sample and
   differ between samples, so a node is an information set of ``me``'s own line of play). At a
   node the moves are every claim and draw the sampled state offers, grouped (one payment per
   track, one face-up draw per card kind) and ordered by a prior (``ordered_moves``); a node
   with ``v`` visits may have ``max(1, widening_base * (v + 1) ** widening)`` children
   (progressive widening), opened in prior order; among the children legal in this sample it
   picks by UCB1 with *availability* (the samples in which a child was legal) in place of the
   parent's visits;
3. evaluates the leaf: the compiled ticket planner plays every seat to the end (or for
   ``rollout_depth`` decisions, then the score as if the game ended there), and/or a value
   network (``value_of``); the reward is ``me``'s lead in points over the best other seat;
4. credits the reward to every node on the path. With ``paired`` = ``k`` > 0, each sample
   serves ``k`` iterations and is first played out along the planner's own line (the root's first
   move, the planner's, then the planner everywhere): the reward is the lead *less that
   baseline*, so moves are compared on equal luck (common random numbers) and the differences
   between them are not drowned by the differences between samples.

``settings`` (``Settings``) holds the settings, ``tree`` (``Tree``) the nodes, ``totals``
(``Totals``) the tree's size, the SplitMix64 stream and the decisions simulated: named tuples of
values and arrays, read by name. The value network is one
flat float64 array of weights and its layer sizes (``value_of``); an empty size array means none.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.determinize import sample
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.games.ticket_to_ride.kernels.rng import mix64, next_u64
from ttr_lab.strategies.ticket_to_ride.search.pile_streams import steered_move
from ttr_lab.strategies.ticket_to_ride.planner_playouts import cached_plan, choose_kept, planner_playout
from ttr_lab.strategies.ticket_to_ride.search.leaf_kernels import lead, playout_buffers, value_of
from ttr_lab.strategies.ticket_to_ride.search.root_kernels import ordered_moves
from ttr_lab.strategies.ticket_to_ride.planner_decisions import W_IDS



class Settings(NamedTuple):
    """The tree's settings as its kernels read them, declared once: ``TreeSearch`` fills them by
    name from its parameters (whose docstring says what each does), numba reads them by name."""

    exploration: float  # the UCB1 constant, in points of lead
    widening: float  # a node with v visits may have widening_base * (v + 1) ** widening children
    widening_base: float
    tree_depth: int  # the searching player's own decisions below the root
    rollout_depth: int  # decisions a leaf plays on (0: to the end, or none before a value)
    value_mix: float  # the value network's weight in a leaf's reward
    value_scale: float  # the network's output times this is points of lead
    max_children: int
    paired: int  # iterations per sample, each against the planner's line (0: no baseline)
    epsilon: float  # the chance an opponent's turn is a uniformly drawn move
    mover_view: bool  # at 2 players, value a leaf from the mover's view, negated
    follow_planner: bool  # each sample's planner move is always open below the root
    streams: bool  # each seat draws from its own stream of the sample


class Tree(NamedTuple):
    """The tree, one array per field and a node an index (the root is node 0), kept between
    calls of ``grow``; ``new_tree`` makes one."""

    action: np.ndarray  # int64: the move into the node
    first: np.ndarray  # int64: its first child (-1: none)
    sibling: np.ndarray  # int64: its next sibling (-1: none)
    visits: np.ndarray  # float64
    reward: np.ndarray  # float64: the sum of the rewards backed up through it
    available: np.ndarray  # float64: the samples in which its move was legal
    squares: np.ndarray  # float64: the sum of the squared rewards


class Totals(NamedTuple):
    """A search's running totals, each a one-element int64 array the kernels add to in place."""

    nodes: np.ndarray  # the tree's size
    rng: np.ndarray  # the SplitMix64 stream's state
    decisions: np.ndarray  # decisions simulated
    iterations: np.ndarray  # iterations run


def new_tree(capacity: int) -> Tree:
    """A tree of ``capacity`` nodes (each iteration opens at most one)."""
    return Tree(*(np.zeros(capacity, dtype=np.int64) for _ in range(3)),
                *(np.zeros(capacity, dtype=np.float64) for _ in range(4)))


def new_totals(seed: int) -> Totals:
    """Totals for a fresh tree of one node (the root), its stream seeded with ``seed``."""
    return Totals(np.ones(1, dtype=np.int64), np.full(1, seed, dtype=np.int64), np.zeros(1, dtype=np.int64),
                  np.zeros(1, dtype=np.int64))


_TURN_SALT = np.uint64(0x9E3779B97F4A7C15)  # spreads turn numbers over a sample's slip stream


@njit(cache=True)
def viewed_value(g: np.ndarray, s: np.ndarray, me: int, cfg: Settings, tplan: np.ndarray, scales: np.ndarray,
                 weights: np.ndarray, sizes: np.ndarray, x: np.ndarray, h: np.ndarray) -> float:
    """``me``'s value of ``s`` in points as a leaf reads it: the network's output times
    ``settings.value_scale``. A network learns from the view of the player to move, so at two players (with
    ``settings.mover_view``) a position where the other seat moves is valued from its view, negated (the
    logit of one seat's win share is minus the other's)."""
    viewer = s[L.PLAYER] if g[L.N_PLAYERS] == 2 and s[L.PHASE] != L.OVER and cfg.mover_view else me
    v = cfg.value_scale * value_of(g, s, viewer, tplan, scales, weights, sizes, x, h)
    return v if viewer == me else -v


@njit(cache=True)
def _other_move(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, cfg: Settings,
                plans: np.ndarray, plan_sizes: np.ndarray, before: np.ndarray, keys: np.ndarray, me: int,
                stream: np.uint64) -> int:
    """The move of the seat to move at ``s`` in the tree's walk and in play-outs: the planner's,
    keeping its plan; but with chance ``settings.epsilon`` an opponent's turn is a uniformly drawn legal
    move instead, drawn from ``stream`` and the turn's number, so every leaf of one sample (and
    its baseline) meets the same slips at the same turns."""
    n = legal_ids(g, s, w[W_IDS])
    if n == 1:
        return w[W_IDS][0]
    if cfg.epsilon > 0.0 and s[L.PLAYER] != me and s[L.PHASE] == L.TURN:
        r = mix64(stream + np.uint64(s[L.TURNS] + 1) * _TURN_SALT)
        if (r >> np.uint64(11)) * (1.0 / 9007199254740992.0) < cfg.epsilon:
            return w[W_IDS][int(mix64(r) % np.uint64(n))]
    return choose_kept(g, pt, s, params, w, n, plans, plan_sizes, before, keys)


@njit(cache=True)
def _move(g: np.ndarray, s: np.ndarray, action: int, scratch: np.ndarray, cfg: Settings, pile: np.uint64,
          drawn: np.ndarray) -> None:
    """``action`` applied; with ``settings.streams`` the pile steered for the seat to move first, from
    the sample's ``pile`` stream (``pile_streams``; ``drawn`` counts each seat's cards taken)."""
    if cfg.streams:
        steered_move(g, s, action, scratch, pile, drawn)
    else:
        apply_action(g, s, action, scratch)


@njit(cache=True)
def _play(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, cfg: Settings,
          plans: np.ndarray, plan_sizes: np.ndarray, before: np.ndarray, keys: np.ndarray, scratch: np.ndarray,
          steps: int, me: int, stream: np.uint64, pile: np.uint64, drawn: np.ndarray) -> int:
    """Play ``s`` on in place for ``steps`` decisions (-1: to the end) by ``_other_move``; the
    decisions made."""
    if cfg.epsilon == 0.0 and steps < 0 and not cfg.streams:
        return planner_playout(g, pt, s, params, w, plans, plan_sizes, before, keys)
    done = 0
    while s[L.PHASE] != L.OVER and done != steps:
        _move(g, s, _other_move(g, pt, s, params, w, cfg, plans, plan_sizes, before, keys, me, stream), scratch,
              cfg, pile, drawn)
        done += 1
    return done


@njit(cache=True)
def _evaluate(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, me: int, cfg: Settings,
              plans: np.ndarray, plan_sizes: np.ndarray, before: np.ndarray, keys: np.ndarray, scratch: np.ndarray,
              result: np.ndarray, completed: np.ndarray, totals: Totals, tplan: np.ndarray, scales: np.ndarray,
              weights: np.ndarray, sizes: np.ndarray, x: np.ndarray, h: np.ndarray, stream: np.uint64,
              pile: np.uint64, drawn: np.ndarray) -> float:
    """A leaf's reward, ``me``'s lead in points (``s`` is played on in place, every seat going on
    with the plan it holds: ``plans`` ...). Without a value network: the play-out to the end, or
    for ``settings.rollout_depth`` decisions and then the score as if the game ended there. With one: the
    play-out for ``settings.rollout_depth`` decisions (0: none), the value there, and unless
    ``settings.value_mix`` is 1 the play-out on to the end, mixed: ``(1 - mix) * lead + mix * value``.
    ``stream``: the sample's slips (``settings.epsilon``, ``_other_move``); ``pile``, ``drawn``: its card
    streams (``_move``)."""
    has_value, mix = sizes.shape[0] > 1, cfg.value_mix
    rollout_depth = cfg.rollout_depth
    if not has_value:
        totals.decisions[0] += _play(g, pt, s, params, w, cfg, plans, plan_sizes, before, keys, scratch,
                                   rollout_depth if rollout_depth > 0 else -1, me, stream, pile, drawn)
        return lead(g, s, me, result, completed)
    if rollout_depth > 0:
        totals.decisions[0] += _play(g, pt, s, params, w, cfg, plans, plan_sizes, before, keys, scratch,
                                   rollout_depth, me, stream, pile, drawn)
    v = viewed_value(g, s, me, cfg, tplan, scales, weights, sizes, x, h)
    if mix >= 1.0:
        return v
    totals.decisions[0] += _play(g, pt, s, params, w, cfg, plans, plan_sizes, before, keys, scratch, -1, me, stream,
                               pile, drawn)
    return (1.0 - mix) * lead(g, s, me, result, completed) + mix * v


@njit(cache=True)
def _child(first: np.ndarray, sibling: np.ndarray, action: np.ndarray, node: int, a: int) -> int:
    c = first[node]
    while c >= 0:
        if action[c] == a:
            return c
        c = sibling[c]
    return -1


@njit(cache=True)
def grow(g: np.ndarray, pt: np.ndarray, w: tuple, params: np.ndarray, template: np.ndarray, dplan: np.ndarray,
         dwork: np.ndarray, dlongs: np.ndarray, me: int, root_moves: np.ndarray, cfg: Settings, totals: Totals,
         tree: Tree, iterations: int, tplan: np.ndarray, scales: np.ndarray, weights: np.ndarray,
         sizes: np.ndarray) -> None:
    """``iterations`` more iterations on the tree (module docstring); the root's moves are
    ``root_moves`` (the same in every sample: ``me``'s own hand and the board fix them)."""
    na = g[L.N_ACTIONS]
    action, first, sibling, visits = tree.action, tree.first, tree.sibling, tree.visits
    reward, available, squares = tree.reward, tree.available, tree.squares
    capacity = action.shape[0]
    c, widening, spread = cfg.exploration, cfg.widening, cfg.widening_base
    tree_depth, max_children = cfg.tree_depth, cfg.max_children
    b = playout_buffers(g)
    scratch, plans, plan_sizes, before, keys = b.scratch, b.plans, b.plan_sizes, b.before, b.keys
    result, completed = b.result, b.completed
    moves, score, ids = np.empty(na, dtype=np.int64), np.empty(na, dtype=np.float64), np.empty(na, dtype=np.int64)
    legal_here = np.empty(na, dtype=np.int64)
    path = np.empty(tree_depth + 2, dtype=np.int64)
    widest = 1
    for i in range(sizes.shape[0]):
        widest = max(widest, sizes[i])
    widest = max(widest, tplan[0])  # the tensor's size
    x, h = np.empty(widest, dtype=np.float32), np.empty(widest, dtype=np.float32)
    rng = np.uint64(totals.rng[0])
    s = template.copy()
    sampled = template.copy()
    paired = cfg.paired
    follow = cfg.follow_planner
    base = 0.0
    stream = np.uint64(0)
    pile = np.uint64(0)
    drawn = np.zeros(g[L.N_PLAYERS], dtype=np.int64)
    for it in range(iterations):
        if paired == 0 or it % paired == 0:
            rng, seed = next_u64(rng)
            sampled[:] = template
            sample(g, sampled, dplan, dwork, dlongs, seed)
            pile = mix64(seed)  # (no draw from ``rng``: the searches without streams keep their numbers)
            if cfg.epsilon > 0.0:  # (only then: the searches without slips keep their random numbers)
                rng, stream = next_u64(rng)
            if paired > 0:
                # The baseline of this sample: the planner's own line from the root (the first move).
                s[:] = sampled
                plan_sizes[:] = 0
                keys[:, :] = 0
                drawn[:] = 0
                _move(g, s, root_moves[0], scratch, cfg, pile, drawn)
                base = _evaluate(g, pt, s, params, w, me, cfg, plans, plan_sizes, before, keys, scratch, result,
                                 completed, totals, tplan, scales, weights, sizes, x, h, stream, pile, drawn)
        s[:] = sampled
        # Every seat starts with no plan and keeps it as the play-outs do, so the tree's walk
        # along the planner's moves is the baseline's line exactly.
        plan_sizes[:] = 0
        keys[:, :] = 0
        drawn[:] = 0
        node, length, depth = 0, 1, 0  # node 0: the root (``Tree``)
        path[0] = node
        while s[L.PHASE] != L.OVER and depth < tree_depth:
            if s[L.PLAYER] != me:
                _move(g, s, _other_move(g, pt, s, params, w, cfg, plans, plan_sizes, before, keys, me, stream),
                      scratch, cfg, pile, drawn)
                totals.decisions[0] += 1
                continue
            if node == 0:
                m = root_moves.shape[0]
                moves[:m] = root_moves
            else:
                n = legal_ids(g, s, w[W_IDS])
                if n == 1:  # a forced move opens no node
                    _move(g, s, w[W_IDS][0], scratch, cfg, pile, drawn)
                    continue
                k = 0
                if s[L.PHASE] == L.TURN or s[L.PHASE] == L.SECOND:
                    k = cached_plan(g, pt, s, me, params, w, plans, plan_sizes, before, keys)
                m = ordered_moves(g, pt, s, params, w, -1, plans[me], k, moves, score, ids)
            # Mark the open children legal here; find the first move (by prior) not yet open.
            fresh, children, legal_n = -1, 0, 0
            k = first[node]
            while k >= 0:
                children += 1
                k = sibling[k]
            # The open-loop node's children were opened on other samples, where the planner may
            # have wanted another move: this sample's planner move (first in prior order) is
            # always open, so the walk can follow the planner's line of every sample.
            force = follow and node != 0 and _child(first, sibling, action, node, moves[0]) < 0
            for i in range(m):
                child = _child(first, sibling, action, node, moves[i])
                if child < 0:
                    if fresh < 0:
                        fresh = moves[i]
                else:
                    available[child] += 1
                    legal_here[legal_n] = child
                    legal_n += 1
            phase = s[L.PHASE]
            # A ticket choice has few moves, and in the final round every claim may decide the
            # game (one that completes a ticket scores far more than its points): open them all.
            room = m if phase == L.SETUP or phase == L.KEEP or s[L.FINAL_TURNS] >= 0 else min(
                max_children, max(1, int(spread * (visits[node] + 1.0) ** widening)))
            if force:
                fresh = moves[0]
            if fresh >= 0 and (children < room or force) and totals.nodes[0] < capacity:
                child = totals.nodes[0]
                totals.nodes[0] += 1
                action[child], first[child], visits[child], reward[child], available[child] = fresh, -1, 0, 0.0, 1
                squares[child] = 0.0
                # Append, so siblings stay in the order they were opened (prior order).
                if first[node] < 0:
                    first[node] = child
                else:
                    k = first[node]
                    while sibling[k] >= 0:
                        k = sibling[k]
                    sibling[k] = child
                sibling[child] = -1
                _move(g, s, fresh, scratch, cfg, pile, drawn)
                path[length] = child
                length += 1
                break
            if legal_n == 0:
                break
            best, best_value = legal_here[0], -1e18
            for i in range(legal_n):
                child = legal_here[i]
                value = reward[child] / visits[child] + c * np.sqrt(np.log(available[child]) / visits[child])
                if value > best_value:
                    best, best_value = child, value
            _move(g, s, action[best], scratch, cfg, pile, drawn)
            path[length] = best
            length += 1
            node = best
            depth += 1
        total = _evaluate(g, pt, s, params, w, me, cfg, plans, plan_sizes, before, keys, scratch, result, completed,
                          totals, tplan, scales, weights, sizes, x, h, stream, pile, drawn) - base
        for i in range(length):
            visits[path[i]] += 1.0
            reward[path[i]] += total
            squares[path[i]] += total * total
        totals.iterations[0] += 1
    totals.rng[0] = np.int64(rng)

