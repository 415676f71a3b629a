"""Judging a Ticket to Ride network against the batched env's compiled opponents (the curve's
rows and files are ``training/curve.py``'s).

A judged checkpoint plays its highest legal logit (as the ``learned`` strategy plays) on the
batched env: ``games`` games per opponent, split evenly over sub-games so every sub-game plays the
same number (no bias towards short games), seats rotated (game ``k`` of sub-game ``i`` puts the
network at seat ``(i + k) % players``), on deals of their own seed that training never sees. Its
win share (ties shared) comes with a 95% Wilson interval.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ttr_lab.envs.vector import vector_env
from ttr_lab.games.ticket_to_ride.kernels.layout import MARKET_SIZE, S_MARKET
from ttr_lab.strategies.network import Network
from ttr_lab.strategies.ticket_to_ride.learned import featurizer
from ttr_lab.strategies.ticket_to_ride.plan_features import KEPT_NAMES, OFFERS, KeptRows

# Names in the curve for the batched env's compiled opponents (the planner is the ticket planner's choice).
OPPONENT_NAMES = {"greedy": "greedy", "planner": "ticket_planner", "random": "random"}


def markets_of(envs: Any) -> np.ndarray:
    """The card kind in each market slot of every sub-game now, (num_envs, market size), -1 for
    none: read off the batch's state rows (the network's slot actions need it, ``network.py``)."""
    g = envs.batch.g
    start = int(g[S_MARKET])
    return envs.states[:, start:start + int(g[MARKET_SIZE])]


def inputs(net: Network, obs: np.ndarray, envs: Any, kept: KeptRows | None = None) -> np.ndarray:
    """What ``net`` reads in each sub-game now: the observation tensors ``obs``, then the extras
    its ``features`` name, computed on the batch's state rows for the player to move (kept-plan
    features with ``kept``, a row per sub-game, updated here)."""
    if not net.meta.get("features"):
        return obs
    if net.meta["features"] in KEPT_NAMES:
        assert kept is not None, "kept-plan features need the sub-games' kept plans"
        extras, _ = featurizer(envs.batch.g).kept_rows(envs.states, kept, offers=net.meta["features"] == OFFERS)
        return np.concatenate([obs, extras], axis=1)
    return np.concatenate([obs, featurizer(envs.batch.g).rows(envs.states)], axis=1)


def judge(net: Network, game: Any, players: int, opponent: str, games: int, seed: int) -> tuple[float, int]:
    """The network's summed win share against ``opponent`` over ``games`` games (rounded up to a
    multiple of the sub-games), and the games played."""
    per = max(1, -(-games // 100))  # games per sub-game: at most 100 sub-games
    n = -(-games // per)
    envs = vector_env(game, num_envs=n, players=players, opponents=opponent, seed=seed)
    obs, info = envs.reset()
    played = np.zeros(n, dtype=np.int64)
    total = 0.0
    kept = KeptRows(envs.batch.g, n)
    while (played < per).any():
        head, _, _, _ = net.forward(inputs(net, obs, envs, kept))
        logits = net.logits(head, markets_of(envs))
        obs, rewards, ended, _, info = envs.step(np.where(info["action_mask"], logits, -np.inf).argmax(axis=1))
        kept.forget(ended)
        counted = ended & (played < per)
        total += float(rewards[counted].sum())
        played += ended
    return total, n * per
