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


class SeatTensorWriter:
    """The frame of a game's per-seat tensor writer (``game.tensor_writer(seat)``): it starts
    afresh (``_start``) whenever a state of another game comes (``_game_of`` differs, by
    identity), then writes (``_write``). What it keeps is a cache, so a copy or an unpickled
    writer is just its seat and starts afresh."""

    __slots__ = ("me", "_game")

    def __init__(self, me: int) -> None:
        self.me = me
        self._game: Any = None

    def __getstate__(self) -> tuple[int]:
        return (self.me,)

    def __setstate__(self, state: tuple[int]) -> None:
        type(self).__init__(self, *state)

    def __call__(self, state: Any) -> np.ndarray:
        game = self._game_of(state)
        if game is not self._game:
            n = state.num_players
            if not 0 <= self.me < n:
                raise ValueError(f"no player {self.me} in a {n}-player game")
            self._start(state)
            self._game = game
        return self._write(state)

    def _game_of(self, state: Any) -> Any:
        raise NotImplementedError

    def _start(self, state: Any) -> None:
        raise NotImplementedError

    def _write(self, state: Any) -> np.ndarray:
        raise NotImplementedError
