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
4. credits the reward to every node on the path. With ``C_PAIRED`` = ``k`` > 0, each sample
   serves ``k`` iterations and is first played out along the planner's own line (the root's first
   move, the planner's, then the planner everywhere): the reward is the lead *less that
   baseline*, so moves are compared on equal luck (common random numbers) and the differences
   between them are not drowned by the differences between samples.

``cfg`` (float64) holds the settings at the ``C_*`` slots; ``meta`` (int64) the tree's size, the
SplitMix64 stream and the decisions simulated, at the ``M_*`` slots. The value network is one
flat float64 array of weights and its layer sizes (``value_of``); an empty size array means none.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.apply import apply_action
from ttr_lab.games.ticket_to_ride.kernels.determinize import sample
from ttr_lab.games.ticket_to_ride.kernels.legal import legal_ids
from ttr_lab.games.ticket_to_ride.kernels.rng import mix64, next_u64
from ttr_lab.games.ticket_to_ride.kernels.scoring import score_game
from ttr_lab.games.ticket_to_ride.kernels.tensor import write_tensor
from ttr_lab.strategies.ticket_to_ride.pile_streams import steered_move
from ttr_lab.strategies.ticket_to_ride.planner_decisions import decide, fresh_plan, keep
from ttr_lab.strategies.ticket_to_ride.planner_playouts import cached_plan, choose_kept, planner_playout
from ttr_lab.strategies.ticket_to_ride.planner_toolkit import cheapest_claim

# Settings, slots of ``cfg``.
C_EXPLORATION, C_WIDENING, C_WIDENING_BASE, C_TREE_DEPTH, C_ROLLOUT_DEPTH = 0, 1, 2, 3, 4
C_VALUE_MIX, C_VALUE_SCALE, C_MAX_CHILDREN, C_PAIRED, C_EPSILON = 5, 6, 7, 8, 9
C_MOVER_VIEW, C_FOLLOW_PLANNER, C_STREAMS = 10, 11, 12
CFG_SIZE = 13
# Running totals, slots of ``meta``.
M_NODES, M_RNG, M_DECISIONS, M_ITERATIONS = 0, 1, 2, 3
META_SIZE = 4
ROOT = 0
_TURN_SALT = np.uint64(0x9E3779B97F4A7C15)  # spreads turn numbers over a sample's slip stream

# Prior scores of ``ordered_moves`` (higher opens first). The planner's move leads; then the
# claims it plans, the blind draw and a ticket draw (what a player does most turns); then the
# other claims by their points, then the face-up cards.
_FIRST, _PLANNED, _DECK, _TICKETS, _CLAIM, _MARKET = 1e9, 500.0, 400.0, 300.0, 100.0, 10.0


@njit(cache=True)
def group_count(g: np.ndarray) -> int:
    """How many groups ``group_of`` can name."""
    return g[L.N_ACTIONS] + L.KINDS


@njit(cache=True)
def group_of(g: np.ndarray, s: np.ndarray, a: int) -> int:
    """The group of action id ``a`` at ``s``, the unit in which a node opens moves: every claim of
    one track (and of its twin in the same colour: the same move) is one group, every face-up draw
    of one card kind is one, any other action is its own."""
    id_claim = g[L.ID_CLAIM]
    if a >= id_claim:
        t = g[g[L.CLAIM_TRACK] + a - id_claim]
        twin = g[g[L.T_TWIN] + t]
        if twin >= 0 and twin < t and g[g[L.T_COLOUR] + twin] == g[g[L.T_COLOUR] + t]:
            t = twin
        return id_claim + t  # claim ids outnumber tracks, so claim groups stay among claim ids
    if g[L.ID_MARKET] <= a < g[L.ID_TICKETS]:
        return g[L.N_ACTIONS] + s[g[L.S_MARKET] + a - g[L.ID_MARKET]]
    return a


@njit(cache=True)
def ordered_moves(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, first: int,
                  planned: np.ndarray, k: int, out: np.ndarray, score: np.ndarray, ids: np.ndarray) -> int:
    """The moves a node opens at ``s`` (the player to move's), grouped, best prior first, into
    ``out``; their count. ``planned[:k]``: the player's plan; ``first``: the move to put first,
    or -1 for the compiled planner's with that plan."""
    n = legal_ids(g, s, w[3])
    for i in range(n):
        ids[i] = w[3][i]
    phase = s[L.PHASE]
    p = s[L.PLAYER]
    if phase == L.SETUP or phase == L.KEEP:
        top = first if first >= 0 else keep(g, pt, s, params, w, n)
        out[0] = top
        m = 1
        for i in range(n):
            if ids[i] != top:
                out[m] = ids[i]
                m += 1
        return m
    on_plan = np.zeros(g[L.N_TRACKS], dtype=np.bool_)
    for i in range(k):
        on_plan[planned[i]] = True
    if first < 0:
        for i in range(n):
            w[3][i] = ids[i]
        first = decide(g, pt, s, params, w, n, planned, k)
    id_claim, claim_track = g[L.ID_CLAIM], g[L.CLAIM_TRACK]
    first_group = group_of(g, s, first)
    seen = np.zeros(group_count(g), dtype=np.bool_)
    scratch = w[4]
    m = 0
    for i in range(n):
        a = ids[i]
        if a == first:
            value = _FIRST
        else:
            group = group_of(g, s, a)
            if seen[group] or group == first_group:
                continue
            seen[group] = True
            if a >= id_claim:
                t = g[claim_track + a - id_claim]
                a = cheapest_claim(g, s, p, ids, n, t, scratch)
                length = g[g[L.T_LENGTH] + t]
                value = _PLANNED + length if on_plan[t] else _CLAIM + g[g[L.T_POINTS] + t]
            elif a == g[L.ID_TICKETS]:
                value = _TICKETS
            elif a >= g[L.ID_MARKET]:
                value = _MARKET + (1.0 if s[g[L.S_MARKET] + a - g[L.ID_MARKET]] == L.LOCOMOTIVE else 0.0)
            elif a == g[L.ID_PASS]:
                value = 0.0
            else:
                value = _DECK
        # Insertion in order of value (ties: the legal order).
        j = m
        while j > 0 and score[j - 1] < value:
            out[j], score[j] = out[j - 1], score[j - 1]
            j -= 1
        out[j], score[j] = a, value
        m += 1
    return m


@njit(cache=True)
def root_order(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, first: int,
               out: np.ndarray, score: np.ndarray, ids: np.ndarray) -> int:
    """``ordered_moves`` at the root, ``first`` leading, the player's plan made afresh (as the
    play-outs start: every seat with no plan)."""
    planned = np.empty(g[L.N_TRACKS], dtype=np.int64)
    k = fresh_plan(g, pt, s, s[L.PLAYER], params, w, planned)
    return ordered_moves(g, pt, s, params, w, first, planned, k, out, score, ids)


@njit(cache=True)
def value_of(g: np.ndarray, s: np.ndarray, me: int, tplan: np.ndarray, scales: np.ndarray, weights: np.ndarray,
             sizes: np.ndarray, x: np.ndarray, h: np.ndarray) -> float:
    """The value network on ``me``'s observation tensor of ``s``: a multi-layer perceptron with
    layer widths ``sizes`` (the tensor's size first, 1 last), ReLU between layers, read from
    ``weights`` layer by layer as ``W`` (``sizes[i]`` rows of ``sizes[i + 1]``, row-major:
    ``x @ W``) then ``b``. ``x``, ``h``: scratch as wide as the widest layer."""
    write_tensor(g, s, me, tplan, scales, h)
    width = sizes[0]
    for i in range(width):
        x[i] = h[i]
    at = 0
    last = sizes.shape[0] - 2
    for layer in range(last + 1):
        out = sizes[layer + 1]
        bias = at + width * out
        for j in range(out):
            h[j] = weights[bias + j]
        # Row by row (the weights' own order, not strided), and a zero input (most of the
        # observation tensor) costs nothing: a tenth of the time of the column-wise sum.
        for i in range(width):
            xi = x[i]
            if xi != 0.0:
                row = at + i * out
                for j in range(out):
                    h[j] += xi * weights[row + j]
        at = bias + out
        width = out
        for j in range(width):
            x[j] = h[j] if layer == last or h[j] > 0.0 else 0.0
    return x[0]


@njit(cache=True)
def viewed_value(g: np.ndarray, s: np.ndarray, me: int, cfg: np.ndarray, tplan: np.ndarray, scales: np.ndarray,
                 weights: np.ndarray, sizes: np.ndarray, x: np.ndarray, h: np.ndarray) -> float:
    """``me``'s value of ``s`` in points as a leaf reads it: the network's output times
    ``C_VALUE_SCALE``. A network learns from the view of the player to move, so at two players (with
    ``C_MOVER_VIEW``) a position where the other seat moves is valued from its view, negated (the
    logit of one seat's win share is minus the other's)."""
    viewer = s[L.PLAYER] if g[L.N_PLAYERS] == 2 and s[L.PHASE] != L.OVER and cfg[C_MOVER_VIEW] > 0.0 else me
    v = cfg[C_VALUE_SCALE] * value_of(g, s, viewer, tplan, scales, weights, sizes, x, h)
    return v if viewer == me else -v


@njit(cache=True)
def playout_buffers(g: np.ndarray) -> tuple:
    """The working arrays of ``planner_playout`` and ``lead``, made once per kernel call: an action
    scratch, every seat's plan, its size, the tracks held before, the plan keys, the result tables."""
    n_players, nt = g[L.N_PLAYERS], g[L.N_TRACKS]
    return (np.empty(g[L.N_ACTIONS], dtype=np.int64),
            np.zeros((n_players, nt), dtype=np.int64), np.zeros(n_players, dtype=np.int64),
            np.zeros((n_players, nt), dtype=np.bool_), np.zeros((n_players, 3), dtype=np.int64),
            np.zeros((n_players, L.RESULT_COLUMNS), dtype=np.int64),
            np.zeros((n_players, g[L.N_TICKETS]), dtype=np.bool_))


@njit(cache=True)
def lead(g: np.ndarray, s: np.ndarray, me: int, result: np.ndarray, completed: np.ndarray) -> float:
    """``me``'s score less the best other seat's, the game scored as if it ended at ``s``."""
    score_game(g, s, result, completed)
    best = -1e18
    for q in range(g[L.N_PLAYERS]):
        if q != me and result[q, L.R_TOTAL] > best:
            best = result[q, L.R_TOTAL]
    return result[me, L.R_TOTAL] - best


def final_lead(state: Any, me: int) -> float:
    """``me``'s lead in points at ``state`` (a finished game: its final lead), as a leaf reads it."""
    buffers = playout_buffers(state.face.g)
    return float(lead(state.face.g, state.s, me, buffers[5], buffers[6]))


@njit(cache=True)
def _other_move(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, cfg: np.ndarray,
                plans: np.ndarray, plan_sizes: np.ndarray, before: np.ndarray, keys: np.ndarray, me: int,
                stream: np.uint64) -> int:
    """The move of the seat to move at ``s`` in the tree's walk and in play-outs: the planner's,
    keeping its plan; but with chance ``C_EPSILON`` an opponent's turn is a uniformly drawn legal
    move instead, drawn from ``stream`` and the turn's number, so every leaf of one sample (and
    its baseline) meets the same slips at the same turns."""
    n = legal_ids(g, s, w[3])
    if n == 1:
        return w[3][0]
    if cfg[C_EPSILON] > 0.0 and s[L.PLAYER] != me and s[L.PHASE] == L.TURN:
        r = mix64(stream + np.uint64(s[L.TURNS] + 1) * _TURN_SALT)
        if (r >> np.uint64(11)) * (1.0 / 9007199254740992.0) < cfg[C_EPSILON]:
            return w[3][int(mix64(r) % np.uint64(n))]
    return choose_kept(g, pt, s, params, w, n, plans, plan_sizes, before, keys)


@njit(cache=True)
def _move(g: np.ndarray, s: np.ndarray, action: int, scratch: np.ndarray, cfg: np.ndarray, pile: np.uint64,
          drawn: np.ndarray) -> None:
    """``action`` applied; with ``C_STREAMS`` the pile steered for the seat to move first, from
    the sample's ``pile`` stream (``pile_streams``; ``drawn`` counts each seat's cards taken)."""
    if cfg[C_STREAMS] > 0.0:
        steered_move(g, s, action, scratch, pile, drawn)
    else:
        apply_action(g, s, action, scratch)


@njit(cache=True)
def _play(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, cfg: np.ndarray,
          plans: np.ndarray, plan_sizes: np.ndarray, before: np.ndarray, keys: np.ndarray, scratch: np.ndarray,
          steps: int, me: int, stream: np.uint64, pile: np.uint64, drawn: np.ndarray) -> int:
    """Play ``s`` on in place for ``steps`` decisions (-1: to the end) by ``_other_move``; the
    decisions made."""
    if cfg[C_EPSILON] == 0.0 and steps < 0 and cfg[C_STREAMS] == 0.0:
        return planner_playout(g, pt, s, params, w, plans, plan_sizes, before, keys)
    done = 0
    while s[L.PHASE] != L.OVER and done != steps:
        _move(g, s, _other_move(g, pt, s, params, w, cfg, plans, plan_sizes, before, keys, me, stream), scratch,
              cfg, pile, drawn)
        done += 1
    return done


@njit(cache=True)
def _evaluate(g: np.ndarray, pt: np.ndarray, s: np.ndarray, params: np.ndarray, w: tuple, me: int, cfg: np.ndarray,
              plans: np.ndarray, plan_sizes: np.ndarray, before: np.ndarray, keys: np.ndarray, scratch: np.ndarray,
              result: np.ndarray, completed: np.ndarray, meta: np.ndarray, tplan: np.ndarray, scales: np.ndarray,
              weights: np.ndarray, sizes: np.ndarray, x: np.ndarray, h: np.ndarray, stream: np.uint64,
              pile: np.uint64, drawn: np.ndarray) -> float:
    """A leaf's reward, ``me``'s lead in points (``s`` is played on in place, every seat going on
    with the plan it holds: ``plans`` ...). Without a value network: the play-out to the end, or
    for ``C_ROLLOUT_DEPTH`` decisions and then the score as if the game ended there. With one: the
    play-out for ``C_ROLLOUT_DEPTH`` decisions (0: none), the value there, and unless
    ``C_VALUE_MIX`` is 1 the play-out on to the end, mixed: ``(1 - mix) * lead + mix * value``.
    ``stream``: the sample's slips (``C_EPSILON``, ``_other_move``); ``pile``, ``drawn``: its card
    streams (``_move``)."""
    has_value, mix = sizes.shape[0] > 1, cfg[C_VALUE_MIX]
    rollout_depth = int(cfg[C_ROLLOUT_DEPTH])
    if not has_value:
        meta[M_DECISIONS] += _play(g, pt, s, params, w, cfg, plans, plan_sizes, before, keys, scratch,
                                   rollout_depth if rollout_depth > 0 else -1, me, stream, pile, drawn)
        return lead(g, s, me, result, completed)
    if rollout_depth > 0:
        meta[M_DECISIONS] += _play(g, pt, s, params, w, cfg, plans, plan_sizes, before, keys, scratch,
                                   rollout_depth, me, stream, pile, drawn)
    v = viewed_value(g, s, me, cfg, tplan, scales, weights, sizes, x, h)
    if mix >= 1.0:
        return v
    meta[M_DECISIONS] += _play(g, pt, s, params, w, cfg, plans, plan_sizes, before, keys, scratch, -1, me, stream,
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
         dwork: np.ndarray, dlongs: np.ndarray, me: int, root_moves: np.ndarray, cfg: np.ndarray, meta: np.ndarray,
         action: np.ndarray, first: np.ndarray, sibling: np.ndarray, visits: np.ndarray, reward: np.ndarray,
         available: np.ndarray, squares: np.ndarray, iterations: int, tplan: np.ndarray, scales: np.ndarray, weights: np.ndarray,
         sizes: np.ndarray) -> None:
    """``iterations`` more iterations on the tree (module docstring); the root's moves are
    ``root_moves`` (the same in every sample: ``me``'s own hand and the board fix them)."""
    na = g[L.N_ACTIONS]
    capacity = action.shape[0]
    c, widening, spread = cfg[C_EXPLORATION], cfg[C_WIDENING], cfg[C_WIDENING_BASE]
    tree_depth, max_children = int(cfg[C_TREE_DEPTH]), int(cfg[C_MAX_CHILDREN])
    scratch, plans, plan_sizes, before, keys, result, completed = playout_buffers(g)
    moves, score, ids = np.empty(na, dtype=np.int64), np.empty(na, dtype=np.float64), np.empty(na, dtype=np.int64)
    legal_here = np.empty(na, dtype=np.int64)
    path = np.empty(tree_depth + 2, dtype=np.int64)
    widest = 1
    for i in range(sizes.shape[0]):
        widest = max(widest, sizes[i])
    widest = max(widest, tplan[0])  # the tensor's size
    x, h = np.empty(widest, dtype=np.float32), np.empty(widest, dtype=np.float32)
    rng = np.uint64(meta[M_RNG])
    s = template.copy()
    sampled = template.copy()
    paired = int(cfg[C_PAIRED])
    follow = cfg[C_FOLLOW_PLANNER] > 0.0
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
            if cfg[C_EPSILON] > 0.0:  # (only then: the searches without slips keep their random numbers)
                rng, stream = next_u64(rng)
            if paired > 0:
                # The baseline of this sample: the planner's own line from the root (the first move).
                s[:] = sampled
                plan_sizes[:] = 0
                keys[:, :] = 0
                drawn[:] = 0
                _move(g, s, root_moves[0], scratch, cfg, pile, drawn)
                base = _evaluate(g, pt, s, params, w, me, cfg, plans, plan_sizes, before, keys, scratch, result,
                                 completed, meta, tplan, scales, weights, sizes, x, h, stream, pile, drawn)
        s[:] = sampled
        # Every seat starts with no plan and keeps it as the play-outs do, so the tree's walk
        # along the planner's moves is the baseline's line exactly.
        plan_sizes[:] = 0
        keys[:, :] = 0
        drawn[:] = 0
        node, length, depth = ROOT, 1, 0
        path[0] = ROOT
        while s[L.PHASE] != L.OVER and depth < tree_depth:
            if s[L.PLAYER] != me:
                _move(g, s, _other_move(g, pt, s, params, w, cfg, plans, plan_sizes, before, keys, me, stream),
                      scratch, cfg, pile, drawn)
                meta[M_DECISIONS] += 1
                continue
            if node == ROOT:
                m = root_moves.shape[0]
                moves[:m] = root_moves
            else:
                n = legal_ids(g, s, w[3])
                if n == 1:  # a forced move opens no node
                    _move(g, s, w[3][0], scratch, cfg, pile, drawn)
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
            force = follow and node != ROOT and _child(first, sibling, action, node, moves[0]) < 0
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
            if fresh >= 0 and (children < room or force) and meta[M_NODES] < capacity:
                child = meta[M_NODES]
                meta[M_NODES] += 1
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
                          meta, tplan, scales, weights, sizes, x, h, stream, pile, drawn) - base
        for i in range(length):
            visits[path[i]] += 1.0
            reward[path[i]] += total
            squares[path[i]] += total * total
        meta[M_ITERATIONS] += 1
    meta[M_RNG] = np.int64(rng)

