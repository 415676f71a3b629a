"""The root's moves and their prior, for every search: the position's determinizer and its moves
grouped and ordered (``root_kernels``: the planner's move first, then the hand prior), or
reordered by a policy network (``by_policy``)."""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

import numpy as np

from ttr_lab.games.ticket_to_ride import Action, GameState, Observation, determinizer
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.determinize import sample
from ttr_lab.strategies.ticket_to_ride.learned import Learned
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, tables_of
from ttr_lab.strategies.ticket_to_ride.search.root_kernels import group_of, root_order

def root_moves(obs: Observation, anchor: Action, rng: random.Random,
               view: GameState | None = None) -> tuple[Any, np.ndarray]:
    """The position's determinizer and the root's moves (``root_kernels.root_order``: grouped,
    ``anchor`` first, then by the prior). The root's moves are the player's own (its hand and the
    board fix them) and the planner's kernels read only what the seat sees, so the seat's
    ``view`` (``seat_view``, shared with the planner and the prior) orders them; without one, a
    sample does. A 64-bit draw of ``rng`` is spent either way, so the search's stream is one."""
    sampler = determinizer(obs)
    g = sampler.template.face.g
    pt, w = tables_of(g)
    seed = np.uint64(rng.getrandbits(64))
    if view is None:
        view = sampler.template.clone()
        sample(g, view.s, sampler.plan, sampler.work, sampler.longs_held, seed)
    na = int(g[L.N_ACTIONS])
    out, score, ids = np.empty(na, dtype=np.int64), np.empty(na, dtype=np.float64), np.empty(na, dtype=np.int64)
    m = root_order(g, pt, view.s, DEFAULT_PARAMS, w, sampler.template.face.id_of(anchor), out, score, ids)
    return sampler, out[:m].copy()


def policy_prior(policy: "str | Learned | None") -> Learned | None:
    """A search's ``policy`` option as the network that orders its root: ``"learned"`` (the
    weights the ``learned`` strategy ships for the map), a weights file, a ``Learned`` (as it is),
    or None (the hand prior). Built when the search is made, so a bad weights file is refused
    then, not mid-game."""
    if policy is None or isinstance(policy, Learned):
        return policy
    return Learned(weights=None if policy == "learned" else policy)


def by_policy(template: GameState, root: np.ndarray, legal: Sequence[Action], logits: np.ndarray) -> np.ndarray:
    """``root`` (action ids, the anchor first) with the rest ordered by ``logits`` (one per
    ``legal`` action): a root move stands for its group (``root_kernels.group_of``), whose score
    is the best logit of the legal moves in it. Ties keep the hand prior's order."""
    face, g, s = template.face, template.face.g, template.s
    best: dict[int, float] = {}
    for action, z in zip(legal, logits):
        group = int(group_of(g, s, face.id_of(action)))
        best[group] = max(best.get(group, -math.inf), float(z))
    score = [best.get(int(group_of(g, s, int(a))), -math.inf) for a in root[1:]]
    order = sorted(range(len(score)), key=lambda j: -score[j])
    return np.concatenate([root[:1], root[1:][order]])
