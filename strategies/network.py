"""A small policy and value network evaluated in numpy: what the ``learned`` strategy plays and
what a search may use as its prior and leaf evaluator.

    net = Network.load("learned-usa-2p.npz", game)     # refuses weights made for another layout
    priors, values = net.evaluate(obs_batch, mask_batch)

The shape (AlphaZero's, made small enough for numpy on one core): a shared trunk of two ReLU
layers ``obs_dim -> hidden -> hidden``, a policy head of one logit per action id and a value head
of one number, the viewer's expected win share (a sigmoid, so it reads as a probability: 1 a sure
win, 0 a sure loss). One decision is three matrix-vector products, tens of microseconds.

**Slot actions.** Some action ids name a place, not a thing: Ticket to Ride's "draw market 2"
takes whatever card lies in slot 2, and the observation tensor counts the market's cards per
kind, not per slot. A network cannot learn which slot to take from numbers that do not say what
is in it, so a network may declare ``slots`` (the slot actions' ids and the number of kinds): its
policy head then has one logit per kind after the action ids' own, and a slot action's logit is
the logit of the kind lying in that slot, given with each evaluation (``markets``: per row, the
kind in each slot, -1 for none; a Ticket to Ride ``GameState`` or ``Observation``'s ``market``).

**Extra inputs.** A network may read more than the tensor: ``meta["features"]`` names the values
appended to each observation tensor (for Ticket to Ride, ``plan_features``' planning features:
the market by slot, the planner's plan, tickets' progress), and whoever evaluates it appends them.

A network is saved in ttr-lab's one weights format (``weights.py``: an ``.npz`` of its arrays and
a JSON ``meta`` with the game and its **layout digest**), so weights trained on another map,
ruleset or tensor layout are a one-line ``ConfigError`` when loaded against a game, never a
network silently reading the wrong numbers. Nothing here is one game's: the ``learned`` strategy
(``strategies/ticket_to_ride/learned.py``) is what plays a network in Ticket to Ride.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game
from ttr_lab.strategies import weights
from ttr_lab.strategies.weights import FORMAT, digest, unreadable

__all__ = ["FORMAT", "PARAMS", "Network", "digest", "masked_softmax", "unreadable"]

PARAMS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")
WHAT = weights.KINDS["network"]


def masked_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Softmax over the legal entries of each row (the others 0)."""
    z = np.where(masks, logits, -np.inf)
    z = np.exp(z - z.max(axis=-1, keepdims=True))
    return z / z.sum(axis=-1, keepdims=True)


class Network:
    """The trunk, the heads and what they were trained for (``meta``)."""

    def __init__(self, params: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.params = {k: np.ascontiguousarray(params[k], dtype=np.float32) for k in PARAMS}
        self.meta = dict(meta)
        slots = self.meta.get("slots") or {"ids": [], "kinds": 0}
        self.slot_ids = np.asarray(slots["ids"], dtype=np.int64)
        self.kinds = int(slots["kinds"])
        p = self.params
        obs_dim, hidden = p["w1"].shape
        head = p["wp"].shape[1]
        shapes = {"b1": (hidden,), "w2": (hidden, hidden), "b2": (hidden,), "wp": (hidden, head),
                  "bp": (head,), "wv": (hidden, 1), "bv": (1,)}
        for name, shape in shapes.items():
            if p[name].shape != shape:
                raise ConfigError(f"network parameter {name} has shape {p[name].shape}, not {shape}")
        self.obs_dim, self.hidden, self.n_actions = obs_dim, hidden, head - self.kinds

    def value_layers(self) -> list[np.ndarray]:
        """The value path as a plain MLP, ``[W1, b1, W2, b2, Wv, bv]``: the trunk, then the value
        head's logit (of the viewer's win share). What a search's compiled leaf evaluates."""
        p = self.params
        return [p["w1"], p["b1"], p["w2"], p["b2"], p["wv"], p["bv"]]

    @classmethod
    def initial(cls, game: Game, hidden: int = 256, seed: int = 0,
                slots: dict[str, Any] | None = None, features: tuple[str, int] | None = None) -> "Network":
        """A fresh network for ``game`` (He-initialised trunk, zero heads: a uniform policy and a
        value of one half); ``slots``: ``{"ids": [...], "kinds": k}``, see the module docstring;
        ``features``: (name, size) of extra inputs appended to the observation tensor ("Extra
        inputs" in the module docstring)."""
        (obs_dim,) = tuple(getattr(game, "observation_shape"))
        obs_dim += features[1] if features else 0
        n = game.action_space.size + (int(slots["kinds"]) if slots else 0)
        rng = np.random.default_rng(seed)
        params = {"w1": rng.normal(0, np.sqrt(2 / obs_dim), (obs_dim, hidden)), "b1": np.zeros(hidden),
                  "w2": rng.normal(0, np.sqrt(2 / hidden), (hidden, hidden)), "b2": np.zeros(hidden),
                  "wp": np.zeros((hidden, n)), "bp": np.zeros(n), "wv": np.zeros((hidden, 1)), "bv": np.zeros(1)}
        meta = {**weights.stamp(game), "slots": dict(slots) if slots else None,
                "features": features[0] if features else None}
        return cls({k: np.asarray(v, np.float32) for k, v in params.items()}, meta)

    # -- evaluation ---------------------------------------------------------------------------

    def forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``obs`` (batch, obs_dim) -> (head, values, h1, h2): the policy head's raw outputs (the
        action ids', then the kinds' when the network has slots: ``logits`` maps them), the values
        and the trunk's activations (what a gradient step needs)."""
        p = self.params
        h1 = np.maximum(obs @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        head = h2 @ p["wp"] + p["bp"]
        values = 1.0 / (1.0 + np.exp(-(h2 @ p["wv"] + p["bv"])[:, 0]))
        return head, values, h1, h2

    def logits(self, head: np.ndarray, markets: ArrayLike | None) -> np.ndarray:
        """One logit per action id from the policy head's outputs (batch, head): a slot action's is
        its slot's kind's (``markets``: batch rows of the kind in each slot, -1 for none)."""
        if not self.kinds:
            return head
        if markets is None:
            raise ValueError("this network reads slot actions by the kind in each slot: pass markets")
        kinds = np.asarray(markets, dtype=np.int64).reshape(len(head), -1)
        short = len(self.slot_ids) - kinds.shape[1]
        if short > 0:  # a market the deck could not refill: its empty slots hold no kind
            kinds = np.pad(kinds, ((0, 0), (0, short)), constant_values=-1)
        out = head[:, :self.n_actions].copy()
        picked = np.take_along_axis(head, self.n_actions + np.maximum(kinds, 0), axis=1)
        out[:, self.slot_ids] = np.where(kinds >= 0, picked, -np.inf)
        return out

    def evaluate(self, obs_batch: np.ndarray, mask_batch: np.ndarray,
                 markets: ArrayLike | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The search's evaluator: ``obs_batch`` (batch, obs_dim) float32 observation tensors (each
        from its player to move's view), ``mask_batch`` (batch, n_actions) bool legal ids and, for a
        network with slots, ``markets`` (batch, slots) the kind in each slot -> ``priors`` (batch,
        n_actions), a distribution over each row's legal ids (0 elsewhere), and ``values``
        (batch,), each viewer's expected win share in [0, 1]."""
        obs = np.asarray(obs_batch, dtype=np.float32).reshape(-1, self.obs_dim)
        head, values, _, _ = self.forward(obs)
        logits = self.logits(head, markets)
        return masked_softmax(logits, np.asarray(mask_batch, dtype=bool).reshape(len(obs), -1)), values

    def best(self, obs: np.ndarray, mask: np.ndarray, market: ArrayLike | None = None) -> int:
        """The highest legal logit for one observation (ties to the lowest id)."""
        p = self.params
        h = np.maximum(obs @ p["w1"] + p["b1"], 0.0)
        h = np.maximum(h @ p["w2"] + p["b2"], 0.0)
        head = (h @ p["wp"] + p["bp"])[None]
        return int(np.argmax(np.where(mask, self.logits(head, None if market is None else np.asarray([market]))[0], -np.inf)))

    # -- files ----------------------------------------------------------------------------------

    def save(self, path: str | Path) -> Path:
        return weights.save(path, self.params, self.meta)

    @classmethod
    def load(cls, path: str | Path, game: Game | None = None) -> "Network":
        """The network saved at ``path``; with ``game``, checked to read its tensor and write its
        action ids (the digest). Every failure is one ``ConfigError`` line naming the file."""
        params, meta = weights.read(path, PARAMS, "network")
        weights.checked_format(meta, path, WHAT)
        try:
            net = cls(params, meta)
        except ConfigError as exc:
            raise ConfigError(f"{path}: {exc}") from None
        wrong = net.defect()
        if wrong is not None:
            raise ConfigError(f"{path}: {wrong}; these weights cannot play")
        if game is not None:
            net.check(game, str(path))
        return net

    def defect(self) -> str | None:
        """What makes these weights unplayable, or None: a NaN or infinite parameter (a run that
        diverged: every logit NaN), or every parameter zero (a blanked file: every move a tie)."""
        for name in PARAMS:
            bad = ~np.isfinite(self.params[name])
            if bad.any():
                kind = "NaN" if np.isnan(self.params[name]).any() else "infinite"
                return f"parameter {name} holds {int(bad.sum())} {kind} value(s)"
        if not any(self.params[name].any() for name in PARAMS):
            return "every parameter is zero"
        return None

    def check(self, game: Game, source: str = "network") -> None:
        """Refuse ``game`` unless this network was trained on its very tensor and action ids."""
        weights.check(self.meta, game, source)
