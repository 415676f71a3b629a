"""The training loop of ``ttr-lab train``, the same for every game: collect samples, fit the
network to them, checkpoint, judge; resumption and the learning curve. What is one game's (how
samples are collected, the network a run starts from, how a checkpoint is judged) is its
``GameTraining`` (``games.py``; Ticket to Ride's in ``training/ticket_to_ride/``).

Each iteration ``i``:

1. **Collect.** The game's samples for iteration ``i``: with ``method: imitation``
   ``GameTraining.collect`` (the batched env's sub-games with a teacher, DAgger: Ticket to Ride's
   ``imitation.py``), with ``method: expert_iteration`` ``GameTraining.searched`` (self-play games
   played by a search, the root's visits the policy targets: ``expert.py``).
2. **Fit.** ``epochs`` shuffled passes in minibatches of ``batch``: cross-entropy towards the
   policy targets, plus ``value_weight`` times the value head's cross-entropy against the
   outcome (``backprop.gradients``), Adam; ``replay`` fits the last iterations' samples
   together (kept in the checkpoint).
3. **Checkpoint.** ``checkpoint.npz`` (network, Adam's moments and step, the iteration, the curve
   so far) is written beside the output, atomically; every ``judge_every`` iterations and the last
   the network is judged (``GameTraining.judge``, rows by ``curve.py``) and saved as
   ``network-NNNN.npz`` (playable: ``learned`` with ``weights: PATH``), and ``curve.csv`` /
   ``curve.png`` rewritten. ``holdout_games`` judges the value head on games it never trains on
   (``holdout.py``: ``value_curve.csv``, at iteration 0 and every ``judge_every``).

Everything random is drawn from generators seeded by ``(seed, iteration)``, so a run killed and
rerun goes on from its last checkpoint to the very state an uninterrupted run reaches.
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ttr_lab.core.errors import ConfigError, TTRLabError
from ttr_lab.core.game import load_game
from ttr_lab.core.rng import derive_seed
from ttr_lab.strategies.network import PARAMS, Network, unreadable
from ttr_lab.tournament.lock import FolderLock
from ttr_lab.training import folder, holdout
from ttr_lab.training.backprop import Adam, Losses, gradients
from ttr_lab.training.config import TrainConfig
from ttr_lab.training.curve import judge_all, write_curve
from ttr_lab.training.games import training_for
from ttr_lab.training.samples import SAMPLE_ARRAYS, Samples, joined

FIT_KEY, JUDGE_KEY = 0xF17, 0x1D6E  # salts of the per-iteration seeds (collecting's are the game's)
# Keys added since runs were first checkpointed, at the value those runs had.
BEFORE: dict[str, Any] = {"teacher": "planner", "teacher_knobs": {}, "search": "tree", "prior": None,
                          "value_target": "win", "lead_scale": 10.0, "holdout_games": 0}
IDENTITY = ("game", "options", "players", "seed", "hidden", "envs", "steps", "opponents", "teacher_mix",
            "teacher_decay", "teacher_floor", "epochs", "batch", "lr", "value_weight", "features", "teacher",
            "teacher_knobs", "init",
            "method", "games", "search_iterations", "search_value_mix", "search_value_scale", "answer_weight", "replay",
            "search", "prior", "value_target", "lead_scale", "holdout_games")


@dataclass
class Run:
    """A training run's end: the network, its iterations done and its curve rows."""

    net: Network
    iterations: int
    curve: list[dict[str, Any]]
    seconds: float


def fit(net: Network, adam: Adam, samples: Samples, cfg: TrainConfig, iteration: int) -> Losses:
    """``epochs`` shuffled passes over ``samples``; the mean losses of the last pass."""
    rng = np.random.default_rng(derive_seed(cfg.seed, FIT_KEY, iteration))
    n = len(samples.teacher)
    known = np.ones(cfg.batch, dtype=bool)
    seen: list[Losses] = []
    for _ in range(cfg.epochs):
        order = rng.permutation(n)
        seen = []
        for start in range(0, n, cfg.batch):
            idx = order[start:start + cfg.batch]
            targets = samples.dense_targets(idx, net.n_actions)
            grads, losses = gradients(net, samples.obs[idx], samples.masks[idx], samples.markets[idx], targets,
                                      samples.outcomes[idx], known[:len(idx)], cfg.value_weight)
            adam.step(net.params, grads)
            seen.append(losses)
    return Losses(*(float(np.mean([getattr(s, f) for s in seen])) for f in ("policy", "value", "agreement")))


def _identity(cfg: TrainConfig) -> dict[str, Any]:
    data = cfg.model_dump()
    return {k: data[k] for k in IDENTITY}


def save_checkpoint(path: Path, net: Network, adam: Adam, iteration: int, curve: list[dict[str, Any]],
                    cfg: TrainConfig, seconds: float, samples: int, recent: Sequence[Samples] = (),
                    value_curve: Sequence[dict[str, Any]] = ()) -> None:
    """Everything a rerun needs to go on (``recent``: the samples a replay of several iterations
    fits again), written to a temporary file then renamed over the last checkpoint, so a kill
    mid-write leaves the previous one whole."""
    state = {"iteration": iteration, "adam_t": adam.t, "curve": curve, "config": _identity(cfg),
             "seconds": seconds, "samples": samples, "network_meta": net.meta, "recent": len(recent),
             "value_curve": list(value_curve)}
    arrays: dict[str, Any] = {f"net_{k}": v for k, v in net.params.items()}
    arrays.update({f"m_{k}": v for k, v in adam.m.items()})
    arrays.update({f"v_{k}": v for k, v in adam.v.items()})
    for r, part in enumerate(recent):
        arrays.update({f"r{r}_{k}": v for k, v in part.arrays().items()})
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **{"state": np.array(json.dumps(state)), **arrays})
    os.replace(tmp, path)


@dataclass
class Resumed:
    net: Network
    adam: Adam
    done: int
    curve: list[dict[str, Any]]
    seconds: float
    samples: int
    recent: list[Samples]
    value_curve: list[dict[str, Any]]


def load_checkpoint(path: Path, cfg: TrainConfig) -> Resumed:
    try:
        with np.load(path, allow_pickle=False) as data:
            state = json.loads(str(data["state"]))
            params = {k: data[f"net_{k}"] for k in PARAMS}
            m = {k: data[f"m_{k}"].copy() for k in PARAMS if f"m_{k}" in data}
            v = {k: data[f"v_{k}"].copy() for k in PARAMS if f"v_{k}" in data}
            recent = [Samples(**{k: data[f"r{r}_{k}"] for k in SAMPLE_ARRAYS},
                              targets=data[f"r{r}_targets"] if f"r{r}_targets" in data else None)
                      for r in range(int(state.get("recent", 0)))]
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ConfigError(f"cannot resume from {path}: {unreadable(exc)} (delete it to start over)") from None
    stored = {**BEFORE, **state["config"]}
    if stored != _identity(cfg):
        changed = sorted(k for k in IDENTITY if stored.get(k) != _identity(cfg)[k])
        raise ConfigError(f"{path}: a run with other settings ({', '.join(changed)}) is stored here; "
                          "use another output folder, or delete it to start over")
    net = Network(params, state["network_meta"])
    wrong = net.defect() or next((f"Adam's moment {k} is not finite" for k, a in (*m.items(), *v.items())
                                  if not np.isfinite(a).all()), None)
    if wrong is not None:  # a checkpoint of a run that diverged: going on would train NaNs
        raise ConfigError(f"cannot resume from {path}: {wrong} (delete it to start over)")
    adam = Adam(lr=cfg.lr, t=int(state["adam_t"]), m=m, v=v)
    return Resumed(net, adam, int(state["iteration"]), list(state["curve"]),
                   float(state["seconds"]), int(state["samples"]), recent, list(state.get("value_curve", [])))


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (``workers``' game processes)."""
    used = os.times()
    return used.user + used.system + used.children_user + used.children_system


def _value_fit(net: Network, held: holdout.Holdout, number: int, total: int, seconds: float,
               say: Callable[[str], None]) -> dict[str, Any]:
    fit = holdout.value_fit(net, held, number, total, seconds)
    say(f"  value on {fit.games} held-out games at iteration {number}: excess loss {fit.excess_loss:.4f} "
        f"[{fit.low:.4f}, {fit.high:.4f}], correlation with the target {fit.corr:.3f}")
    return asdict(fit)


def train(cfg: TrainConfig, say: Callable[[str], None] = print, stop_after: int | None = None) -> Run:
    """Run (or resume) the training ``cfg`` describes, to its last iteration (or to
    ``stop_after`` iterations, as a kill would: the tests' interrupted run)."""
    out = Path(cfg.output)
    folder.check_output_folder(out)
    folder.make(out)
    with FolderLock(out, f"ttr-lab train {cfg.name}"):  # a second run into the folder is refused, named
        try:
            folder.claim(out, cfg.name)
        except OSError as exc:
            raise ConfigError(f"cannot write into the output folder {out}: {exc.strerror or exc}") from None
        return _train(cfg, out, say, stop_after)


class Diverged(TTRLabError):
    """A training step left the network or its loss not finite."""


def _train(cfg: TrainConfig, out: Path, say: Callable[[str], None], stop_after: int | None) -> Run:
    game = load_game(cfg.game, **cfg.options)
    training = training_for(cfg.game)
    ckpt = out / "checkpoint.npz"
    if ckpt.exists():
        back = load_checkpoint(ckpt, cfg)
        net, adam, done, curve, seconds, total, recent = (back.net, back.adam, back.done, back.curve, back.seconds,
                                                          back.samples, back.recent)
        value_curve = back.value_curve
        if done >= cfg.iterations:
            # Nothing to train; network.npz is written again (a kill may have come before it).
            say(f"{cfg.name} has done {done} iterations in {out}, " + ("all" if done == cfg.iterations else
                f"past the {cfg.iterations}") + " asked for: nothing to train (give more iterations to go on)")
            net.save(out / "network.npz")
            return Run(net, done, curve, seconds)
        say(f"resuming {cfg.name} after iteration {done} of {cfg.iterations} ({ckpt})")
    else:
        net = training.initial_network(game, cfg)
        adam, done, curve, seconds, total, recent = Adam(lr=cfg.lr), 0, [], 0.0, 0, []
        value_curve = []
    held = None
    if cfg.holdout_games:
        say(f"held-out games for the value: {cfg.holdout_games} (played once, kept in {out / holdout.FILE})")
        held = holdout.held_out(training, net, game, cfg, out)
        if not value_curve:
            value_curve.append(_value_fit(net, held, 0, 0, 0.0, say))
            holdout.write_value_curve(value_curve, out)
    gather = training.collect if cfg.method == "imitation" else training.searched
    (out / "config.json").write_text(json.dumps(cfg.model_dump(), indent=2))
    for iteration in range(done, cfg.iterations):
        if stop_after is not None and iteration >= stop_after:
            break
        if iteration == done:  # the first iteration of a process can be minutes of silence otherwise
            say(f"starting iteration {iteration + 1}/{cfg.iterations}, into {out} (the first one compiles the "
                "game's kernels if this checkout has not yet)")
        started = cpu_seconds()
        samples = gather(net, game, cfg, iteration)
        recent = (recent + [samples])[-cfg.replay:]
        losses = fit(net, adam, joined(recent), cfg, iteration)
        wrong = net.defect() if np.isfinite([losses.policy, losses.value]).all() else "the loss is not finite"
        if wrong is not None:  # the last checkpoint stays that of the last good iteration
            raise Diverged(f"iteration {iteration + 1} diverged ({wrong}; lr {cfg.lr}, value_weight "
                           f"{cfg.value_weight}): stopped; " + (f"{ckpt.name} in {out} keeps iteration {iteration}"
                                                                if iteration else "no checkpoint was written"))
        seconds += cpu_seconds() - started
        total += len(samples.teacher)
        number = iteration + 1
        source = (f"teacher {cfg.teacher_share(iteration):.0%}" if cfg.method == "imitation"
                  else f"{cfg.games} searched games")
        teacher = "the planner" if cfg.method == "imitation" else "the search"
        say(f"iteration {number}/{cfg.iterations}: {len(samples.teacher)} samples ({source}), policy loss "
            f"{losses.policy:.3f}, value loss {losses.value:.3f}, agrees with {teacher} {losses.agreement:.1%}, "
            f"{seconds / 60:.1f} CPU-min")
        judged = number % cfg.judge_every == 0 or number == cfg.iterations
        if cfg.judge_games and judged:
            say(f"  judging iteration {number}: {cfg.judge_games} games against each of "
                f"{', '.join(cfg.judge_opponents)}")
            rows = judge_all(training, net, game, cfg.players, cfg.judge_opponents, cfg.judge_games,
                             derive_seed(cfg.seed, JUDGE_KEY, number), number,
                             total, seconds)
            for r in rows:
                say(f"  judged at iteration {number}: vs {r.opponent} {r.win_share:.1%} "
                    f"[{r.low:.1%}, {r.high:.1%}] over {r.games} games")
            curve.extend(asdict(r) for r in rows)
            write_curve(curve, out)
        if held is not None and judged:
            value_curve.append(_value_fit(net, held, number, total, seconds, say))
            holdout.write_value_curve(value_curve, out)
        if judged and (cfg.judge_games or held is not None):
            net.save(out / f"network-{number:04d}.npz")
        save_checkpoint(ckpt, net, adam, number, curve, cfg, seconds, total, recent if cfg.replay > 1 else [],
                        value_curve)
    final = out / "network.npz"
    net.save(final)
    return Run(net, min(cfg.iterations, stop_after if stop_after is not None else cfg.iterations), curve, seconds)
