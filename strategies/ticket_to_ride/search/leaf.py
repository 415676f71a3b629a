"""A leaf's value, for every search: a value network as the kernels take it (``flatten_value``,
``network_value``: the value half of a policy+value ``Network``), and a state's lead in points
as a leaf reads it (``final_lead``)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ttr_lab.core.errors import ConfigError
from ttr_lab.strategies.ticket_to_ride.learned import shipped_weights
from ttr_lab.strategies.ticket_to_ride.network import Network
from ttr_lab.strategies.ticket_to_ride.search.leaf_kernels import lead, playout_buffers

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
