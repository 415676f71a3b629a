"""The seed derivation is one function, run by Python and compiled into kernels, and every
SplitMix64 constant and seed salt is written once in the package."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from ttr_lab.core import compiled, rng
from ttr_lab.core.rng import derive_seed, mix64
from ttr_lab.games.ticket_to_ride.kernels import rng as kernel_rng

PACKAGE = Path(rng.__file__).resolve().parents[1]
SEEDS = [0, 1, 7, 0x5EED, 2**63 - 1, 2**63, 2**64 - 1, 123456789123456789]


@njit(cache=False)
def _derived_in_a_kernel(seed, key):
    return derive_seed(seed, key)


@njit(cache=False)
def _derived_twice_in_a_kernel(seed, key, other):
    return derive_seed(seed, key, other)


@njit(cache=False)
def _mixed_in_a_kernel(z):
    return mix64(z)


def test_seeds_are_what_they_always_were():
    """Golden records and seeded games depend on these exact numbers."""
    assert [derive_seed(s, *k) for s, k in [(0, ()), (7, (0x7772,)), (2**64 - 1, (0x5EA7, 3)), (-5, (1, 2, 3))]] == [
        11641637725690733631, 14961742913615056622, 7874791624421092787, 257941070546309299]


@pytest.mark.parametrize("key", [0, 3, kernel_rng.DEAL_KEY, rng.STRATEGY_KEY, 2**63 + 11, 2**64 - 1])
def test_a_kernel_derives_the_seeds_python_derives(key):
    for seed in SEEDS:
        assert int(_derived_in_a_kernel(np.uint64(seed), np.uint64(key))) == derive_seed(seed, key)
        assert int(_derived_twice_in_a_kernel(np.uint64(seed), np.uint64(key), np.uint64(5))) == \
            derive_seed(seed, key, 5)
        assert int(_mixed_in_a_kernel(np.uint64(seed ^ key))) == mix64(seed ^ key)
    if key < 2**63:  # a salt as a kernel writes it, a plain (signed) integer
        assert int(_derived_in_a_kernel(np.uint64(9), key)) == derive_seed(9, key)


def test_the_seed_functions_count_among_the_compiled_sources():
    """Kernels compile them in, so a change to them must clear the kernel caches."""
    assert Path(rng.__file__).resolve() in {p.resolve() for p in compiled.compiled_sources(PACKAGE)}


OWNED = {  # a constant, and the one module allowed to write it
    "0x9E3779B97F4A7C15": "core/rng.py", "0xBF58476D1CE4E5B9": "core/rng.py", "0x94D049BB133111EB": "core/rng.py",
    "0x5EED": "core/rng.py", "0x5EA7": "core/rng.py", "0x7772": "games/ticket_to_ride/kernels/rng.py",
}


def test_every_seed_constant_is_written_once():
    places: dict[str, list[str]] = {c: [] for c in OWNED}
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for constant in OWNED:
            count = len(re.findall(rf"\b{constant}\b", text, flags=re.IGNORECASE))
            places[constant] += [path.relative_to(PACKAGE).as_posix()] * count
    assert places == {c: [owner] for c, owner in OWNED.items()}
