"""Ticket to Ride's imitation (``method: imitation``): the samples of the batched env's sub-games
with the compiled planner (or the ticket_planner strategy) as the teacher, and the network a run
starts from (its slot actions, its planning features: ``features`` appends the planner's planning
features to the tensor, ``plan_features``; ``init`` starts from a weights file).

An imitation iteration ``i`` (step 1 of ``training/loop.py``'s): ``envs`` sub-games of the batched
env against one compiled opponent (the config's ``opponents`` in turn), seeded
``derive_seed(seed, COLLECT_KEY, i)``. At every learner decision the env's compiled planner names
its move (``planner_actions()``, the teacher); the move played is the teacher's with probability
``teacher_share(i)``, else the network's own highest legal logit (DAgger: the network then meets
the positions its own mistakes lead to, labelled with what the planner would do there;
``teacher: ticket_planner``: the ticket_planner strategy's own move instead, with the plan it
keeps for the learner's seat, ``plan_features.KeptRows``). ``steps`` decisions are recorded per
sub-game, and each sub-game's game at that point is played on to its end so every sample's game
has an outcome: the learner's win share there, the value target.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.rng import derive_seed
from ttr_lab.envs.vector import vector_env
from ttr_lab.strategies.network import Network
from ttr_lab.strategies.ticket_to_ride.learned import featurizer, market_slots
from ttr_lab.strategies.ticket_to_ride.plan_features import KEPT_NAMES, OFFERS, KeptRows, size_of
from ttr_lab.strategies.ticket_to_ride.planner_knobs import knobs
from ttr_lab.training.config import TrainConfig
from ttr_lab.training.samples import Samples
from ttr_lab.training.ticket_to_ride.judge import inputs, markets_of

COLLECT_KEY = 0xC011  # the salt of an imitation iteration's seeds


def collect(net: Network, game: Any, cfg: TrainConfig, iteration: int) -> Samples:
    """One iteration's samples (see the module docstring)."""
    opponent = cfg.opponents[iteration % len(cfg.opponents)]
    seed = derive_seed(cfg.seed, COLLECT_KEY, iteration)
    envs = vector_env(game, num_envs=cfg.envs, players=cfg.players, opponents=opponent, seed=seed)
    rng = np.random.default_rng(seed)
    share = cfg.teacher_share(iteration)
    obs, info = envs.reset()
    n = cfg.envs
    rows: list[tuple[np.ndarray, ...]] = []  # obs, masks, teacher, recording, markets
    game_of = np.zeros(n, dtype=np.int64)  # per sub-game: how many of its games ended so far
    recording = np.ones(n, dtype=bool)
    games_of_rows: list[np.ndarray] = []
    outcome_of: dict[tuple[int, int], float] = {}
    reads_kept = cfg.features in KEPT_NAMES
    kept = KeptRows(envs.batch.g, n) if reads_kept or cfg.teacher == "ticket_planner" else None
    teach = knobs(**cfg.teacher_knobs).params() if cfg.teacher == "ticket_planner" else None
    step = 0
    while recording.any():
        if kept is not None:  # the plans the ticket_planner strategy would hold for the learner
            extras, moves = featurizer(envs.batch.g).kept_rows(envs.states, kept, teach, cfg.features == OFFERS)
        teacher = moves if cfg.teacher == "ticket_planner" else envs.planner_actions()
        masks = info["action_mask"]
        markets = markets_of(envs)
        obs = np.concatenate([obs, extras], axis=1) if reads_kept else inputs(net, obs, envs)
        head, _, _, _ = net.forward(obs)
        own = np.where(masks, net.logits(head, markets), -np.inf).argmax(axis=1)
        played = np.where(rng.random(n) < share, teacher, own)
        rows.append((obs[recording], masks[recording], teacher[recording], np.flatnonzero(recording),
                     markets[recording]))
        games_of_rows.append(game_of[recording].copy())
        obs, rewards, ended, _, info = envs.step(played)
        if kept is not None:
            kept.forget(ended)
        for i in np.flatnonzero(ended):
            outcome_of[(int(i), int(game_of[i]))] = float(rewards[i])
        game_of += ended
        step += 1
        if step >= cfg.steps:
            recording &= ~ended  # past the budget: a sub-game stops once its game has ended
    envs_of = np.concatenate([r[3] for r in rows])
    games = np.concatenate(games_of_rows)
    outcomes = np.array([outcome_of[(int(e), int(g))] for e, g in zip(envs_of, games)], dtype=np.float32)
    return Samples(np.concatenate([r[0] for r in rows]), np.concatenate([r[1] for r in rows]),
                   np.concatenate([r[4] for r in rows]), np.concatenate([r[2] for r in rows]), outcomes)


def initial_network(game: Any, cfg: TrainConfig) -> Network:
    """The network a run starts from: ``init``'s weights (checked to fit), else a fresh one."""
    features = None
    if cfg.features != "none":
        features = (cfg.features, size_of(game.new_game(cfg.players, 0).face.g, cfg.features))
    if cfg.init is not None:
        net = Network.load(cfg.init, game)
        if net.hidden != cfg.hidden or (net.meta.get("features") or "none") != cfg.features:
            raise ConfigError(f"init: {cfg.init} has hidden {net.hidden} and features "
                              f"{net.meta.get('features') or 'none'}, not {cfg.hidden} and {cfg.features}")
        net.meta["trained_by"] = f"ttr-lab train ({cfg.name}), from {Path(cfg.init).name}"
        return net
    net = Network.initial(game, cfg.hidden, derive_seed(cfg.seed, 0), market_slots(game), features)
    net.meta["trained_by"] = f"ttr-lab train ({cfg.name})"
    return net
