"""A tiny seeded generator for the engine's own chance events (shuffles), and the one derivation
of seeds from seeds.

Why not ``random.Random``: the engine's generator is cloned with every ``GameState.clone()``
(millions of times in a search), and a ``random.Random`` carries 625 words of state, while
SplitMix64 is one integer. It is also defined here bit for bit, so game records stay identical
across Python versions. Strategies still get an ordinary ``random.Random``.

Every constant of SplitMix64 and every salt shared between modules is named here once. Kernels
call ``mix64`` and ``derive_seed`` as they are: ``ttr_lab.core.compiled`` registers them with
numba, which compiles them into each njit kernel that calls them, over ``np.uint64`` (so this
file is one of the compiled sources whose change clears the kernel caches). They are written to
mean the same over Python integers and over ``np.uint64``: ``u64`` is ``x & MASK`` in Python and
a cast in a kernel, where an unsigned value mixed with a small signed constant would turn signed.
"""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15  # SplitMix64's increment (2**64 over the golden ratio)
MIX_1 = 0xBF58476D1CE4E5B9  # SplitMix64's output multipliers
MIX_2 = 0x94D049BB133111EB
SEED_SALT = 0x5EED  # mixed into every derived seed, so derive_seed(s) differs from s
STRATEGY_KEY = 0x5EA7  # derive_seed(game seed, STRATEGY_KEY, seat) seeds a seat's strategy



def u64(x: int) -> int:
    """``x`` as an unsigned 64-bit integer (in a kernel: ``np.uint64(x)``)."""
    return x & MASK


def mix64(z: int) -> int:
    """SplitMix64's output function: a strong 64-bit mix of ``z``."""
    z = (z ^ (z >> 30)) * MIX_1 & MASK
    z = (z ^ (z >> 27)) * MIX_2 & MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, *keys: int) -> int:
    """A 64-bit seed derived from ``seed`` and integer ``keys``, independent of call order."""
    z = mix64(u64(seed) ^ u64(SEED_SALT))
    for key in keys:
        z = mix64(z + u64(GOLDEN) + u64(key) & MASK)
    return z


def next_u64(state: int) -> tuple[int, int]:
    """Advance a SplitMix64 state; return ``(new_state, output)``."""
    state = (state + GOLDEN) & MASK
    return state, mix64(state)


def shuffle(items: list, state: int) -> int:
    """Fisher-Yates shuffle of ``items`` in place; returns the advanced generator state.

    Index choice is by multiply-shift of a 64-bit draw; its bias (below n / 2**64) is far below
    anything a game could ever show.
    """
    for i in range(len(items) - 1, 0, -1):
        state = (state + GOLDEN) & MASK
        z = state  # mix64, inlined: a call per item makes a shuffle an eighth slower
        z = (z ^ (z >> 30)) * MIX_1 & MASK
        z = (z ^ (z >> 27)) * MIX_2 & MASK
        z ^= z >> 31
        j = (z * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state
