"""Masked PPO on the batched env, numpy only, in one file (CleanRL's layout: the knobs at the top,
one loop, logged curves). A ``LinearPolicy`` (masked softmax of ``W @ x + b``) and a linear value
are trained with PPO's clipped objective against compiled opponents; every ``checkpoint`` updates
the policy is saved (ttr-lab's one weights format, with the layout digest; playable as ``PolicyPlayer``) and judged against the compiled
greedy on fresh deals, greedily (the highest legal logit), as a tournament would play it.

    python -m ttr_lab.training.ticket_to_ride.masked_ppo --updates 200 --out results/ppo   # or train(Knobs(...))

Logs: ``progress.csv`` in ``out`` (update, steps, games ended, mean return, win share against
greedy at checkpoints, seconds) and, where TensorBoard's writer is installed (``torch`` or
``tensorboardX``), the same scalars as TensorBoard events in ``out/tb``. The gradients are
written out by hand (a linear softmax needs no autograd), so nothing beyond numpy is needed.
"""

from __future__ import annotations

import argparse
import csv
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from ttr_lab.envs.vector import vector_env
from ttr_lab.strategies.policy import LinearPolicy


@dataclass
class Knobs:
    map: str = "usa"
    players: int = 2
    opponents: str = "random"  # whom it trains against ("random", "greedy", "planner")
    num_envs: int = 64
    rollout: int = 64  # steps per env between updates
    updates: int = 200
    epochs: int = 2
    minibatches: int = 4
    lr: float = 0.01
    gamma: float = 1.0  # one reward, at the end of the game
    gae_lambda: float = 0.95
    clip: float = 0.2
    value_lr: float = 0.01
    checkpoint: int = 50  # updates between saved and judged checkpoints
    eval_games: int = 128  # games against the compiled greedy per checkpoint (0: not judged)
    tensorboard: int = 1  # 0: the CSV only (importing a TensorBoard writer can take seconds)
    seed: int = 0
    out: str = "results/ppo"


def _masked_softmax(z: np.ndarray, masks: np.ndarray) -> np.ndarray:
    z = np.where(masks, z, -np.inf)
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)


def _writer(folder: Path) -> Any:
    """TensorBoard's SummaryWriter if one is installed, else None (the CSV is always written)."""
    for module in ("torch.utils.tensorboard", "tensorboardX"):
        try:
            return __import__(module, fromlist=["SummaryWriter"]).SummaryWriter(str(folder / "tb"))
        except Exception:  # noqa: BLE001 - not installed, or installed without tensorboard
            continue
    return None


def judge(policy: LinearPolicy, knobs: Knobs, games: int, seed: int) -> float:
    """The greedy policy's mean win share against the compiled greedy over ``games`` fresh deals."""
    envs = vector_env("ticket_to_ride", num_envs=min(games, 64), players=knobs.players, opponents="greedy",
                      seed=seed, map=knobs.map)
    obs, info = envs.reset()
    shares: list[float] = []
    while len(shares) < games:
        z = obs @ policy.weights.T + policy.bias
        obs, rewards, ended, _, info = envs.step(np.where(info["action_mask"], z, -np.inf).argmax(axis=1))
        shares.extend(rewards[ended].tolist())
    return float(np.mean(shares[:games]))


def train(knobs: Knobs) -> tuple[LinearPolicy, list[dict[str, float]]]:
    """Run PPO with ``knobs``; the final policy and the logged rows."""
    rng = np.random.default_rng(knobs.seed)
    out = Path(knobs.out)
    out.mkdir(parents=True, exist_ok=True)
    envs = vector_env("ticket_to_ride", num_envs=knobs.num_envs, players=knobs.players, opponents=knobs.opponents,
                      seed=knobs.seed, map=knobs.map)
    policy = LinearPolicy.zeros(envs.game)
    W, b = policy.weights, policy.bias  # updated in place: the policy object sees them
    dim = W.shape[1]
    value_w, value_b = np.zeros(dim, np.float32), 0.0
    n, T = knobs.num_envs, knobs.rollout
    obs, info = envs.reset()
    writer, rows, started = _writer(out) if knobs.tensorboard else None, [], time.monotonic()
    returns_seen: list[float] = []
    for update in range(1, knobs.updates + 1):
        xs = np.empty((T, n, dim), np.float32)
        ms = np.empty((T, n, W.shape[0]), np.bool_)
        acts, logps = np.empty((T, n), np.int64), np.empty((T, n))
        rews, dones, values = np.empty((T, n)), np.empty((T, n)), np.empty((T + 1, n))
        for t in range(T):
            probs = _masked_softmax(obs @ W.T + b, info["action_mask"])
            a = (probs.cumsum(axis=1) > rng.random((n, 1))).argmax(axis=1)
            xs[t], ms[t], acts[t] = obs, info["action_mask"], a
            logps[t] = np.log(probs[np.arange(n), a])
            values[t] = obs @ value_w + value_b
            obs, rewards, ended, _, info = envs.step(a)
            rews[t], dones[t] = rewards, ended
            returns_seen.extend(rewards[ended].tolist())
        values[T] = obs @ value_w + value_b
        # GAE; a game's end cuts the bootstrap (same-step autoreset: obs is already the next game's)
        adv, last = np.zeros((T, n)), np.zeros(n)
        for t in reversed(range(T)):
            live = 1.0 - dones[t]
            delta = rews[t] + knobs.gamma * values[t + 1] * live - values[t]
            last = delta + knobs.gamma * knobs.gae_lambda * live * last
            adv[t] = last
        targets = adv + values[:T]
        X, M, A = xs.reshape(T * n, dim), ms.reshape(T * n, -1), acts.reshape(-1)
        old, ADV, R = logps.reshape(-1), adv.reshape(-1), targets.reshape(-1)
        ADV = (ADV - ADV.mean()) / (ADV.std() + 1e-8)
        for _ in range(knobs.epochs):
            order = rng.permutation(T * n)
            for batch in np.array_split(order, knobs.minibatches):
                x, m, a = X[batch], M[batch], A[batch]
                probs = _masked_softmax(x @ W.T + b, m)
                ratio = np.exp(np.log(probs[np.arange(len(a)), a] + 1e-12) - old[batch])
                adv_b = ADV[batch]
                # d(-min(r A, clip(r) A))/d logp: -r A where the unclipped term is the smaller
                active = ~(((adv_b > 0) & (ratio > 1 + knobs.clip)) | ((adv_b < 0) & (ratio < 1 - knobs.clip)))
                coeff = np.where(active, -ratio * adv_b, 0.0) / len(a)
                dz = -probs * coeff[:, None]  # d logp_a / dz_j = [j == a] - p_j on the legal ids
                dz[np.arange(len(a)), a] += coeff
                W -= knobs.lr * (dz.T @ x).astype(np.float32)
                b -= knobs.lr * dz.sum(axis=0).astype(np.float32)
                err = x @ value_w + value_b - R[batch]
                value_w -= knobs.value_lr * (err @ x / len(a)).astype(np.float32)
                value_b -= knobs.value_lr * float(err.mean())
        row = {"update": update, "steps": update * T * n, "games": len(returns_seen),
               "mean_return": float(np.mean(returns_seen[-200:])) if returns_seen else 0.0,
               "vs_greedy": float("nan"), "seconds": round(time.monotonic() - started, 1)}
        if update % knobs.checkpoint == 0 or update == knobs.updates:
            if knobs.eval_games:
                row["vs_greedy"] = judge(policy, knobs, knobs.eval_games, seed=10_000 + update)
            policy.save(out / f"policy-{update:05d}.npz")
        rows.append(row)
        if writer is not None:
            for key in ("mean_return", "vs_greedy"):
                if row[key] == row[key]:  # not NaN
                    writer.add_scalar(key, row[key], row["steps"])
    with open(out / "progress.csv", "w", newline="") as f:
        csv.DictWriter(f, fieldnames=list(rows[0])).writeheader()
        csv.DictWriter(f, fieldnames=list(rows[0])).writerows(rows)
    if writer is not None:
        writer.close()
    return policy, rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in fields(Knobs):
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default), default=f.default)
    knobs = Knobs(**vars(parser.parse_args(argv)))
    _, rows = train(knobs)
    for row in rows:
        if row["vs_greedy"] == row["vs_greedy"]:
            print(f"update {row['update']}: {row['steps']} steps, win share vs greedy {row['vs_greedy']:.3f}")
    print(f"{rows[-1]['update']} updates, {rows[-1]['steps']} steps, {rows[-1]['games']} games in "
          f"{rows[-1]['seconds']} s; log: {Path(knobs.out) / 'progress.csv'}")


if __name__ == "__main__":
    main()
