"""A tiny seeded generator for the engine's own chance events (shuffles).

Why not ``random.Random``: the engine's generator is cloned with every ``GameState.clone()``
(millions of times in a search), and a ``random.Random`` carries 625 words of state, while
SplitMix64 is one integer. It is also defined here bit for bit, so game records stay identical
across Python versions. Strategies still get an ordinary ``random.Random``.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    """SplitMix64's output function: a strong 64-bit mix of ``z``."""
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, *keys: int) -> int:
    """A 64-bit seed derived from ``seed`` and integer ``keys``, independent of call order."""
    z = mix64((seed & _MASK) ^ 0x5EED)
    for key in keys:
        z = mix64((z + _GOLDEN + (key & _MASK)) & _MASK)
    return z


def next_u64(state: int) -> tuple[int, int]:
    """Advance a SplitMix64 state; return ``(new_state, output)``."""
    state = (state + _GOLDEN) & _MASK
    return state, mix64(state)


def shuffle(items: list, state: int) -> int:
    """Fisher-Yates shuffle of ``items`` in place; returns the advanced generator state.

    Index choice is by multiply-shift of a 64-bit draw; its bias (below n / 2**64) is far below
    anything a game could ever show.
    """
    for i in range(len(items) - 1, 0, -1):
        state = (state + _GOLDEN) & _MASK
        z = state
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
        z ^= z >> 31
        j = (z * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state
