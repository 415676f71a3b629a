"""``TensorTemplate``: the slow-changing part of one seat's observation tensor, kept between
decisions so that an RL environment does not write it again at every step.

Most of a game's tensor is multi-hot blocks (tickets held, tracks claimed, cards in a row) that
change a few entries at a time, while the counts block changes at every step. A game's tensor
writer keeps the blocks here, each under a key with the value it was written from; when a
block's source changes, only the ones that differ are cleared and set. The ones live in an
``array('f')`` because setting a few floats from Python costs a tenth of numpy's item
assignment; ``fresh()`` hands out a numpy copy to write the counts into.
"""

from __future__ import annotations

from array import array
from typing import Any, Hashable, Iterable, Sequence

import numpy as np

class TensorTemplate:
    """Zeros of ``size`` floats plus the ones of keyed blocks; see the module docstring."""

    __slots__ = ("_data", "_view", "sources", "_ones")

    def __init__(self, size: int, fixed_ones: Iterable[int] = ()) -> None:
        self._data = array("f", bytes(4 * size))
        self._view = np.frombuffer(self._data, dtype=np.float32)  # shares the array's memory
        for i in fixed_ones:
            self._data[i] = 1.0
        # key -> the value each block was written from (``sources.get(key)`` is None if never):
        # a plain dict, read at every decision, so a lookup is not a method call
        self.sources: dict[Hashable, Any] = {}
        self._ones: dict[Hashable, Sequence[int]] = {}

    def __getstate__(self) -> tuple:
        return self._data, self.sources, self._ones

    def __setstate__(self, state: tuple) -> None:
        # A copy or an unpickled template needs its view on its own array, not the original's.
        self._data, self.sources, self._ones = state
        self._view = np.frombuffer(self._data, dtype=np.float32)

    def write(self, key: Hashable, source: Any, ones: Sequence[int]) -> None:
        """Block ``key`` becomes exactly ``ones`` (indices into the tensor), written from
        ``source`` (never None): the ones it had are cleared, then the new ones set."""
        data = self._data
        for i in self._ones.get(key, ()):
            data[i] = 0.0
        for i in ones:
            data[i] = 1.0
        self._ones[key] = ones
        self.sources[key] = source

    def fresh(self) -> np.ndarray:
        """A new float32 array holding the template (the caller's to fill and hand out)."""
        return self._view.copy()
