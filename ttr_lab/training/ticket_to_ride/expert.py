"""Expert iteration (``method: expert_iteration``): the samples of self-play games searched by
``mcts_tree`` or ``mcts_halving``, for ``loop.py`` to fit, judge and checkpoint as it does
imitation's.

Each iteration plays ``games`` games (seeds ``derive_seed(seed, COLLECT_KEY, iteration, k)``),
every seat a search of ``search_iterations`` iterations (``search: halving``: play-outs) per
searched decision (reproducible: no clock), one search per seat (its planner keeps that seat's
plan). With ``search: halving`` the seats are ``mcts_learned``'s search with the network being
trained as its prior (the loop of expert iteration: a better network orders the race better), and
a sample's inputs are what that prior read, the seat's kept plan included, so the kept-plan
features can be trained here. ``workers`` processes share the games; the samples are the same.
Every decision is a sample:

- policy target: ``answer_weight`` on the move the search played, the rest spread over the
  root's moves by visits (the ``SearchResult``'s rows; the race's: samples per candidate); a
  decision the search does not search (a forced move, a second card) is the played move alone;
- value target: the mover's win share at the end of that game, or (``value_target: lead``)
  ``sigmoid(lead / lead_scale)`` of the mover's final lead over the best other seat, so that the
  value head's logit times ``lead_scale`` reads as points of lead (``mcts_tree``'s ``value_scale``).

``prior`` (search: halving) fixes the racing seats' prior (a weights file, or ``learned``: the
shipped one) in place of the network being trained: the games are then ``mcts_learned``'s own,
whatever the network being trained reads, and a sample's inputs are that network's own (the
mover's observation tensor, with plan features if it has them). So a network over the tensor
alone, whose value ``mcts_tree`` can read at its leaves, learns the outcomes of the strongest
search's games: a leaf valued by the search's own continuation, not the planner's.

With ``search_value_mix`` above 0 the search's leaves mix in the network's value head (its
trunk and value layer as the kernel's MLP; the logit times ``search_value_scale`` read as
points of lead), so a better value makes a better teacher: the loop of expert iteration. The
search takes no prior from the network (``mcts_tree`` orders its root by the planner's prior).
"""

from __future__ import annotations

import math
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from ttr_lab.core.rng import derive_seed
from ttr_lab.strategies.ticket_to_ride.search.mcts_halving import HalvingSearch
from ttr_lab.strategies.ticket_to_ride.learned import Learned, shipped_weights, state_inputs
from ttr_lab.strategies.ticket_to_ride.network import Network
from ttr_lab.strategies.ticket_to_ride.search.leaf import final_lead
from ttr_lab.strategies.ticket_to_ride.search.mcts_tree import TreeSearch
from ttr_lab.training.config import TrainConfig
from ttr_lab.training.samples import Samples, joined

COLLECT_KEY = 0xE1C0  # the salt of a self-play iteration's game seeds


def fixed_prior(game: Any, cfg: TrainConfig) -> Network | None:
    """The racing seats' fixed prior (``prior``), None: the network being trained."""
    if cfg.prior is None:
        return None
    path = shipped_weights(game.new_game(cfg.players, 0).board.name) if cfg.prior == "learned" else cfg.prior
    return Network.load(path, game)


def searches(net: Network, game: Any, cfg: TrainConfig,
             prior: Network | None = None) -> list[TreeSearch] | list[HalvingSearch]:
    """One search per seat: each keeps its seat's plans (the planner's, and the prior's features)."""
    if cfg.search == "halving":
        return [HalvingSearch(iterations=cfg.search_iterations, policy=Learned.of(prior if prior is not None else net, game))
                for _ in range(cfg.players)]
    value = net if cfg.search_value_mix > 0 else None  # the search reads its value path
    return [TreeSearch(iterations=cfg.search_iterations, value=value, value_mix=cfg.search_value_mix,
                       value_scale=cfg.search_value_scale) for _ in range(cfg.players)]


def outcomes(state: Any, cfg: TrainConfig) -> list[float]:
    """Per seat, the value target at the end of a finished game (``value_target``)."""
    if cfg.value_target == "win":
        return list(state.returns())
    return [1.0 / (1.0 + math.exp(-final_lead(state, p) / cfg.lead_scale)) for p in range(state.num_players)]


def play(game: Any, net: Network, cfg: TrainConfig, seed: int, ids: dict[str, int],
         prior: Network | None = None) -> Samples:
    """One searched self-play game's samples (see the module docstring)."""
    state = game.new_game(cfg.players, seed)
    seats = searches(net, game, cfg, prior)
    rng = random.Random(seed)
    space = game.action_space
    slots = len(net.slot_ids)
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, int]] = []
    while not state.is_terminal():
        p = state.current_player
        search = seats[p]
        # The race's prior reads the seat's kept plan as the search goes: its row is the input.
        x = state_inputs(net, state) if cfg.search == "tree" or prior is not None else None
        legal = state.legal_actions()
        mask = np.zeros(space.size, dtype=bool)
        mask[space.ids(legal)] = True
        market = np.full(slots, -1, dtype=np.int64)
        shown = list(state.market)[:slots]
        market[:len(shown)] = shown
        found = search.search(state.observation(p), legal, rng)
        action = found.action
        played = space.id_of(action)
        if x is None:
            x = found.inputs
        target = np.zeros(space.size, dtype=np.float32)
        visits = np.array([row.samples for row in found.root], dtype=np.float64)
        if visits.sum() > 0:
            children = [ids[row.move] for row in found.root]
            np.add.at(target, children, (1.0 - cfg.answer_weight) * visits / visits.sum())
            target[played] += cfg.answer_weight
        else:
            target[played] = 1.0
        rows.append((x, mask, market, target, played, p))
        state.apply(action)
    returns = outcomes(state, cfg)
    return Samples(np.stack([r[0] for r in rows]).astype(np.float32), np.stack([r[1] for r in rows]),
                   np.stack([r[2] for r in rows]), np.array([int(np.argmax(r[3])) for r in rows], dtype=np.int64),
                   np.array([returns[r[5]] for r in rows], dtype=np.float32),
                   targets=np.stack([r[3] for r in rows]))


def collect(net: Network, game: Any, cfg: TrainConfig, iteration: int) -> Samples:
    """One iteration's samples: ``games`` searched self-play games, in game order whatever
    ``workers`` plays them."""
    return joined(played_games(net, game, cfg, [derive_seed(cfg.seed, COLLECT_KEY, iteration, k)
                                               for k in range(cfg.games)]))


def played_games(net: Network, game: Any, cfg: TrainConfig, seeds: list[int]) -> list[Samples]:
    """The samples of one searched self-play game per seed, in seed order, ``workers`` at a time."""
    prior = fixed_prior(game, cfg)
    if cfg.workers == 1 or len(seeds) == 1:
        ids = {str(a): i for i, a in enumerate(game.action_space)}
        return [play(game, net, cfg, seed, ids, prior) for seed in seeds]
    # Forked workers inherit the compiled kernels and the networks; each game is its seed's alone.
    with ProcessPoolExecutor(min(cfg.workers, len(seeds)), mp_context=multiprocessing.get_context("fork"),
                             initializer=_adopt, initargs=(game, net, cfg, prior)) as pool:
        return list(pool.map(_played, seeds))


_WORKER: dict[str, Any] = {}


def _adopt(game: Any, net: Network, cfg: TrainConfig, prior: Network | None) -> None:
    _WORKER.update(game=game, net=net, cfg=cfg, prior=prior, ids={str(a): i for i, a in enumerate(game.action_space)})


def _played(seed: int) -> Samples:
    return play(_WORKER["game"], _WORKER["net"], _WORKER["cfg"], seed, _WORKER["ids"], _WORKER["prior"])
