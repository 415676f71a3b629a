"""``TensorLayout``: the named slices of a game's flat observation tensor.

A game's ``observation_tensor(observation)`` writes a fixed-size float32 vector (what RL
libraries and OpenSpiel's ``observation_tensor`` expect). The layout says which slice holds
what, once, so the code that fills the vector, its documentation (``describe()``, copied into
docs/rl.md) and a learner that wants one part (``slice_of("hand")``) cannot disagree.
"""

from __future__ import annotations

from typing import Iterable


class TensorLayout:
    """Consecutive named blocks: ``(name, size, meaning)``; offsets follow from the order."""

    __slots__ = ("blocks", "offsets", "size")

    def __init__(self, blocks: Iterable[tuple[str, int, str]]) -> None:
        self.blocks: tuple[tuple[str, int, str], ...] = tuple(blocks)
        self.offsets: dict[str, int] = {}
        at = 0
        for name, size, _ in self.blocks:
            if name in self.offsets:
                raise ValueError(f"the tensor block {name!r} is listed twice")
            if size < 0:
                raise ValueError(f"the tensor block {name!r} has a negative size {size}")
            self.offsets[name] = at
            at += size
        self.size = at

    def slice_of(self, name: str) -> slice:
        start = self.offsets[name]
        return slice(start, start + self.sizes[name])

    @property
    def sizes(self) -> dict[str, int]:
        return {name: size for name, size, _ in self.blocks}

    def describe(self) -> str:
        """The layout as a Markdown table (offset, size, block, meaning)."""
        rows = ["| offset | size | block | meaning |", "|---:|---:|---|---|"]
        rows += [f"| {self.offsets[n]} | {s} | `{n}` | {m} |" for n, s, m in self.blocks]
        return "\n".join(rows)
