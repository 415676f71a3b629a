"""Ticket to Ride's rules as compiled kernels (numba) over two flat integer arrays: the game's
tables ``g`` and a position ``s`` (``layout`` says where everything lives).

One kernel module per part of the rules, named after it: ``setup`` (a new game), ``cards`` (the
draw pile, the market and its redeal), ``legal`` (legal action ids in the engine's order),
``apply`` (an action id played, or a refusal code), ``scoring`` (the final scoring with the
exact longest trail), ``playout`` (whole games in one call), ``rng`` (the engine's SplitMix64
shuffle, bit for bit), ``observe`` (one player's view, in one row). ``tables`` builds ``g`` from the game's own tables and action space;
``canonical`` compares positions. ``GameState`` (state.py) is the Python face over them.

Compiled on first use and cached on disk (``cache=True``, in ``__pycache__`` beside these files
or under ``NUMBA_CACHE_DIR``); ``NUMBA_DISABLE_JIT=1`` runs the very same functions as plain
Python.

The kernels that allocate nothing (cards, legal, apply, rng, the tensor and mask writers) are
compiled without numba's reference counting, the smallest inlined where they are called
(``core.compiled.njit_no_refcount``): counted, the calls between kernels were a sixth of the
batched environment's time.
"""

from pathlib import Path as _Path

from ttr_lab.core.compiled import sweep_stale_caches as _sweep

# Before any kernel is loaded: caches compiled from other sources than today's are removed (a
# cached kernel holds its callees from other files, which numba does not check).
_sweep(_Path(__file__).parents[3])
