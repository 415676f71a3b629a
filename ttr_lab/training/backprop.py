"""The gradient step of the policy and value network, written out in numpy, and Adam.

Two ReLU layers and two linear heads need no autograd: the backward pass is six matrix products,
so training runs wherever playing does, with no framework to install (the test suite runs a few
steps of it). The loss of a minibatch: the cross-entropy of the masked policy against the target
distribution over action ids (a teacher's one-hot, or a search's visit counts), plus
``value_weight`` times the value head's binary cross-entropy against the outcome (the viewer's
win share), counted only where ``value_known``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from ttr_lab.strategies.network import PARAMS, Network, masked_softmax


@dataclass
class Adam:
    """Adam's moments per parameter, and its step count (all saved in a checkpoint)."""

    lr: float = 1e-3
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    t: int = 0
    m: dict[str, np.ndarray] = field(default_factory=dict)
    v: dict[str, np.ndarray] = field(default_factory=dict)

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        c1, c2 = 1 - self.beta1 ** self.t, 1 - self.beta2 ** self.t
        for name in PARAMS:
            g = grads[name]
            m = self.m.setdefault(name, np.zeros_like(g))
            v = self.v.setdefault(name, np.zeros_like(g))
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            params[name] -= (self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)).astype(np.float32)


@dataclass
class Losses:
    policy: float  # mean cross-entropy against the targets
    value: float  # mean binary cross-entropy where the outcome is known
    agreement: float  # share of rows whose highest legal logit is the target's most likely id


def head_gradient(net: Network, dz: np.ndarray, markets: ArrayLike | None) -> np.ndarray:
    """The gradient at the policy head's outputs from the gradient at the action ids' logits: a
    slot action's goes to the kind lying in its slot (``Network.logits``)."""
    if not net.kinds:
        return dz
    rows = np.arange(len(dz))
    out = np.zeros((len(dz), net.n_actions + net.kinds), dtype=np.float32)
    out[:, :net.n_actions] = dz
    out[:, net.slot_ids] = 0.0
    kinds = np.asarray(markets, dtype=np.int64)
    for s, action in enumerate(net.slot_ids):
        there = kinds[:, s] >= 0
        np.add.at(out, (rows[there], net.n_actions + kinds[there, s]), dz[there, action])
    return out


def gradients(net: Network, obs: np.ndarray, masks: np.ndarray, markets: ArrayLike | None, targets: np.ndarray,
              outcomes: np.ndarray, value_known: np.ndarray,
              value_weight: float) -> tuple[dict[str, np.ndarray], Losses]:
    """The loss's gradient for every parameter over one minibatch (rows of ``obs`` float32,
    ``masks`` bool, ``markets`` the kind in each slot for a network with slots, ``targets`` float
    rows summing to 1 over legal ids, ``outcomes`` in [0, 1], ``value_known`` bool), and the
    minibatch's losses."""
    p = net.params
    b = len(obs)
    head, values, h1, h2 = net.forward(obs)
    logits = net.logits(head, markets)
    probs = masked_softmax(logits, masks)
    dz = head_gradient(net, ((probs - targets) / b).astype(np.float32), markets)
    known = value_known.astype(np.float32)
    du = (value_weight * known * (values - outcomes) / b).astype(np.float32)[:, None]
    dh2 = dz @ p["wp"].T + du @ p["wv"].T
    dh2 *= h2 > 0
    dh1 = dh2 @ p["w2"].T
    dh1 *= h1 > 0
    grads = {"wp": h2.T @ dz, "bp": dz.sum(axis=0), "wv": h2.T @ du, "bv": du.sum(axis=0),
             "w2": h1.T @ dh2, "b2": dh2.sum(axis=0), "w1": obs.T @ dh1, "b1": dh1.sum(axis=0)}
    with np.errstate(divide="ignore"):
        ce = -(targets * np.where(targets > 0, np.log(np.maximum(probs, 1e-30)), 0.0)).sum(axis=1)
    v = np.clip(values, 1e-7, 1 - 1e-7)
    bce = -(outcomes * np.log(v) + (1 - outcomes) * np.log(1 - v))
    agree = np.where(masks, logits, -np.inf).argmax(axis=1) == targets.argmax(axis=1)
    losses = Losses(float(ce.mean()), float(bce[value_known].mean()) if value_known.any() else float("nan"),
                    float(agree.mean()))
    return {k: g.astype(np.float32, copy=False) for k, g in grads.items()}, losses
