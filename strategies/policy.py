"""A trained policy as a strategy: ``PolicyPlayer`` plays any function ``(observation_tensor,
action_mask) -> action_id`` in tournaments, and ``LinearPolicy`` is the numpy-only policy the RL
example (notebooks/rl.ipynb) trains and saves.

    player = PolicyPlayer(my_policy, game="trans_orient")
    player = PolicyPlayer("results/rl/linear-usa.npz")      # the game comes from the file

In a tournament config: ``ttr_lab.strategies.policy:PolicyPlayer`` with ``{policy: path/to/weights.npz}``
or ``{policy: "package.module:function", game: ..., options: {...}}``. The tensor and the mask
are exactly the RL environments' (``game.observation_tensor``, ``game.action_space``), so a
policy trained in ``ttr_lab.envs`` plays here unchanged.
"""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ttr_lab.core.errors import ConfigError, IllegalActionError, StrategyError
from ttr_lab.core.game import TensorGame, has_tensor, load_game
from ttr_lab.strategies import weights

Policy = Callable[[np.ndarray, np.ndarray], int]


class LinearPolicy:
    """A softmax over the legal actions of linear scores: ``logits = W @ x + b`` (one row of
    ``W`` per action id). Called as a policy it is greedy (the highest legal logit; ties to the
    lowest id), so it plays deterministically; ``probabilities`` gives the masked softmax a
    learner samples from.

    Saved in ttr-lab's one weights format (``weights.py``, the network's: arrays ``weights`` and
    ``bias``, ``kind: linear``, the game's layout digest), so a policy trained on another layout
    is refused by ``PolicyPlayer`` in one line. A file of 0.2 (no format, no digest) still loads,
    checked by its shape alone, as it was; saving it again writes the digest."""

    def __init__(self, weights: np.ndarray, bias: np.ndarray, game: str, options: dict[str, Any] | None = None,
                 digest: str | None = None) -> None:
        self.weights = np.asarray(weights, dtype=np.float32)
        self.bias = np.asarray(bias, dtype=np.float32)
        if self.weights.ndim != 2 or self.bias.shape != (self.weights.shape[0],):
            raise ConfigError(f"linear policy weights {self.weights.shape} and bias {self.bias.shape} do not match")
        self.game = game
        self.options = dict(options or {})
        self.digest = digest  # the layout it was trained on; None: not known yet (worked out on saving)
        self.source = "linear policy"  # its file, once loaded from one

    @classmethod
    def zeros(cls, game: TensorGame) -> "LinearPolicy":
        """The uniform policy of ``game`` (every legal action equally likely)."""
        (dim,) = tuple(game.observation_shape)
        size = game.action_space.size
        return cls(np.zeros((size, dim), np.float32), np.zeros(size, np.float32), game.name, game.options,
                   weights.digest(game))

    def logits(self, tensor: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = self.weights @ tensor + self.bias
        return np.where(mask.astype(bool), out, -np.inf)

    def probabilities(self, tensor: np.ndarray, mask: np.ndarray) -> np.ndarray:
        z = self.logits(tensor, mask)
        z = np.exp(z - z.max())
        return z / z.sum()

    def __call__(self, tensor: np.ndarray, mask: np.ndarray) -> int:
        return int(np.argmax(self.logits(tensor, mask)))

    def meta(self) -> dict[str, Any]:
        """The weights file's meta: the game's, its layout digest and ``kind: linear``."""
        if self.digest is None:
            self.digest = weights.digest(load_game(self.game, **self.options))
        return {"format": weights.FORMAT, "kind": "linear", "game": self.game, "options": self.options,
                "digest": self.digest}

    def save(self, path: str | Path) -> Path:
        return weights.save(path, {"weights": self.weights, "bias": self.bias}, self.meta())

    @classmethod
    def load(cls, path: str | Path) -> "LinearPolicy":
        """The policy saved at ``path`` (a file of 0.2 too: the class docstring); every failure is
        one ``ConfigError`` line naming the file."""
        arrays, meta = weights.read(path, ("weights", "bias"), "linear")
        if "format" in meta:
            weights.checked_format(meta, path, weights.KINDS["linear"])
        try:
            policy = cls(arrays["weights"], arrays["bias"], meta["game"], meta.get("options"), meta.get("digest"))
        except (KeyError, ConfigError) as exc:
            raise ConfigError(f"cannot read a linear policy from {path}: {unreadable_meta(exc)}") from None
        policy.source = str(path)
        return policy


def unreadable_meta(exc: Exception) -> str:
    return f"its meta names no {exc}" if isinstance(exc, KeyError) else str(exc)


class TorchScriptPolicy:
    """A torch network saved with ``torch.jit.save(torch.jit.script(net), path)`` (a ``.pt`` file),
    mapping a float32 tensor ``(1, dim)`` to logits ``(1, actions)``: it plays the highest legal
    logit. torch is imported, and the file read, when the player is made, never at import time."""

    def __init__(self, path: str | Path) -> None:
        try:
            import torch
        except ImportError:
            raise ConfigError(f"policy {path}: a .pt policy needs torch (pip install torch)") from None
        try:
            self.net = torch.jit.load(str(path), map_location="cpu").eval()
        except (OSError, RuntimeError, ValueError) as exc:
            raise ConfigError(f"cannot read a TorchScript policy from {path}: {str(exc).splitlines()[0]}") from None
        self.torch = torch

    def __call__(self, tensor: np.ndarray, mask: np.ndarray) -> int:
        with self.torch.no_grad():
            logits = self.net(self.torch.from_numpy(np.asarray(tensor, np.float32)[None]))[0].numpy()
        return int(np.argmax(np.where(mask.astype(bool), logits, -np.inf)))


def load_policy(spec: str | Policy) -> Policy:
    """A policy from a callable, a ``.npz`` file of ``LinearPolicy``, a ``.pt`` TorchScript file
    (``TorchScriptPolicy``) or ``package.module:name``."""
    if callable(spec):
        return spec
    text = str(spec)
    if text.endswith(".npz"):
        return LinearPolicy.load(text)
    if text.endswith(".pt"):
        return TorchScriptPolicy(text)
    module_name, _, attr = text.partition(":")
    if not module_name or not attr:
        raise ConfigError(f"policy {text!r} is neither a .npz file, a .pt file nor package.module:name")
    try:
        found = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"policy {text!r}: {exc}") from None
    if not callable(found):
        raise ConfigError(f"policy {text!r} is not callable")
    return found


class PolicyPlayer:
    """Plays ``policy(observation_tensor, action_mask) -> action_id``. The game (which tensor and
    which action ids) is ``game`` with ``options``, or the one a ``LinearPolicy`` was trained on."""

    name = "policy"

    def __init__(self, policy: Any, game: str | None = None, options: dict[str, Any] | None = None) -> None:
        self.policy = load_policy(policy)
        if game is None and isinstance(self.policy, LinearPolicy):
            game, options = self.policy.game, self.policy.options if options is None else options
        built = load_game(game or "ticket_to_ride", **dict(options or {}))
        if not has_tensor(built):
            raise ConfigError(f"game {built.name!r} has no observation tensor for a policy to read")
        self.game = built
        self.space = self.game.action_space
        if isinstance(self.policy, LinearPolicy):  # checked once here, not by every move's matmul
            if self.policy.digest is not None:
                weights.check(self.policy.meta(), self.game, self.policy.source)
            wanted = (self.space.size, *tuple(self.game.observation_shape))
            if self.policy.weights.shape != wanted:
                raise ConfigError(f"{self.policy.source}: weights of shape {self.policy.weights.shape}, but "
                                  f"{self.game.title} needs {wanted} (one row per action id, one column per "
                                  "observation number): was it trained on another game or map?")

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        mask = np.zeros(self.space.size, dtype=np.int8)
        mask[self.space.ids(legal_actions)] = 1
        choice = self.policy(self.game.observation_tensor(observation), mask)
        try:
            action = self.space.action_of(choice)  # any integer type; a float or a string is no id
        except IllegalActionError as exc:
            raise StrategyError(f"the policy returned {choice!r}: {exc}") from None
        if not mask[self.space.id_of(action)]:
            raise StrategyError(f"the policy chose id {choice} ({action}), which is not legal here")
        return action
