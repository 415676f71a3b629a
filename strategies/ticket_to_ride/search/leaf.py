"""A leaf, for every search: what ends a simulation, declared as a value (``Leaf``: a play-out to
the end or to ``rollout_depth`` decisions, a value network with its mix, scale and view), a value
network as the kernels take it (``flatten_value``, ``network_value``: the value half of a
policy+value ``Network``), and a state's lead in points as a leaf reads it (``final_lead``)."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ttr_lab.core.errors import ConfigError
from ttr_lab.strategies.ticket_to_ride.learned import shipped_weights
from ttr_lab.strategies.ticket_to_ride.network import Network
from ttr_lab.strategies.ticket_to_ride.search.leaf_kernels import lead, playout_buffers

@dataclass(frozen=True)
class Leaf:
    """What ends a simulation: the default is a play-out to the end of the game, every seat the
    compiled planner, rewarded by the lead in points. ``rollout_depth`` (above 0) stops the
    play-out after that many decisions and scores the game as if it ended there (a search with
    an evaluation of its own, as ``mcts``'s Python play-outs, evaluates there instead). With a
    ``value`` network the leaf is played ``rollout_depth`` decisions (0: none) and valued there:
    the network's output times ``value_scale`` is points of lead, and unless ``value_mix`` is 1
    the play-out goes on to the end and the reward is ``(1 - value_mix) * lead + value_mix *
    value``; at 2 players a leaf where the other seat moves is valued from its view, negated
    (``mover_view``). ``value``: weight arrays ``[W1, b1, ...]``, a callable returning them,
    ``"learned"`` (the value half of the tensor-only network shipped for the map) or a path to
    such weights (``mcts_tree``'s docstring). ``check`` is the one place a leaf is checked;
    ``settings`` and ``network`` are what the kernels take."""

    rollout_depth: int = 0
    value: Any = field(default=None, compare=False)  # arrays compare by element: not part of equality
    value_mix: float = 0.5
    value_scale: float = 1.0
    mover_view: bool = True

    def check(self, who: str) -> Leaf:
        """This leaf, or a one-line ConfigError naming the strategy ``who`` and what is wrong."""
        if not 0.0 <= self.value_mix <= 1.0:
            raise ConfigError(f"strategy {who!r}: value_mix is a weight in [0, 1], not {self.value_mix}")
        if self.rollout_depth < 0:
            raise ConfigError(f"strategy {who!r}: rollout_depth counts decisions (0: to the end), "
                              f"not {self.rollout_depth}")
        if not math.isfinite(self.value_scale):
            raise ConfigError(f"strategy {who!r}: value_scale must be a finite number, not {self.value_scale}")
        return self

    @property
    def reads_file(self) -> bool:
        """Whether the value network is a file (``"learned"`` or a path), read once the map is known."""
        return isinstance(self.value, str)

    def settings(self) -> dict[str, Any]:
        """The leaf's fields of a search's kernel settings, typed as the kernels read them (one
        compiled signature whatever a config spells)."""
        return {"rollout_depth": int(self.rollout_depth), "value_mix": float(self.value_mix),
                "value_scale": float(self.value_scale), "mover_view": bool(self.mover_view)}

    def network(self, map_name: str | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The value network as the kernels take it (``flatten_value``; empty: none). A file
        needs the map (``map_name``): without it, none yet."""
        if self.reads_file:
            return flatten_value(None if map_name is None else network_value(self.value, map_name))
        return flatten_value(self.value)


@functools.lru_cache(maxsize=4)  # read once per process: a tournament makes a fresh strategy every game
def network_value(source: str, map_name: str) -> list[np.ndarray]:
    """The value half of a policy+value network (``network.py``) as ``[W1, b1, W2, b2, Wv, bv]``:
    its trunk and value head, whose output is the logit of the viewer's win share. ``source``:
    ``"learned"`` (the tensor-only weights shipped for ``map_name``) or a weights file."""
    path = str(shipped_weights(map_name, tensor_only=True)) if source == "learned" else source
    net = Network.load(path)
    if net.meta.get("features"):
        raise ConfigError(f"{path}: reads extra inputs {net.meta['features']!r} beside the observation tensor; "
                          "the tree's kernel evaluates networks over the tensor alone")
    return net.value_layers()


def flatten_value(value: Any) -> tuple[np.ndarray, np.ndarray]:
    """A value network (a ``Network``, whose value path is taken; its layers ``[W1, b1, W2, b2,
    ...]``, or a callable returning them; or None) as the kernel takes it: all weights in one float32 array (single precision lets the compiled sums
    run four times faster) and the layer widths (empty: no network)."""
    if value is None:
        return np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.int64)
    layers = value() if callable(value) else value
    if isinstance(layers, Network):
        layers = layers.value_layers()
    arrays = [np.asarray(a, dtype=np.float64) for a in layers]
    if not arrays or len(arrays) % 2:
        raise ConfigError(f"a value network is its weight arrays [W1, b1, W2, b2, ...], not {len(arrays)} arrays")
    sizes = [arrays[0].shape[0] if arrays[0].ndim == 2 else -1]
    for i in range(0, len(arrays), 2):
        W, b = arrays[i], arrays[i + 1]
        if W.ndim != 2 or b.shape != (W.shape[1],) or W.shape[0] != sizes[-1]:
            raise ConfigError(f"a value network's layer {i // 2 + 1} does not fit: W {W.shape}, b {b.shape}, "
                              f"{sizes[-1]} inputs")
        sizes.append(W.shape[1])
    if sizes[-1] != 1:
        raise ConfigError(f"a value network ends in one output, not {sizes[-1]}")
    return np.concatenate([a.ravel() for a in arrays]).astype(np.float32), np.array(sizes, dtype=np.int64)


def final_lead(state: Any, me: int) -> float:
    """``me``'s lead in points at ``state`` (a finished game: its final lead), as a leaf reads it."""
    buffers = playout_buffers(state.face.g)
    return float(lead(state.face.g, state.s, me, buffers.result, buffers.completed))
