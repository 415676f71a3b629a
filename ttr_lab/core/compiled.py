"""Keeping numba's on-disk caches of compiled kernels true to the sources they came from, and
``njit_no_refcount``, the decorator of kernels that allocate nothing.

numba checks a cached function against its own file only. A kernel compiled with another
module's kernel inlined (a play-out calling ``apply_action``, the planner calling the game's
``legal_ids``) keeps the old callee when only the callee's file changes, as a ``git pull`` of a
checkout installed with ``pip install -e`` does: the rules would silently be yesterday's. So
the first import of compiled code compares one digest over every compiled source of the package
with the one stored beside the caches, and on a difference removes those caches (numba then
compiles afresh and stores the new ones) before any kernel is loaded.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any, Callable, TypeVar, cast

from numba import njit

_Kernel = TypeVar("_Kernel", bound=Callable[..., Any])

def _no_refcount_option() -> dict[str, Any]:
    """numba's switch for compiling without reference counting (``_nrt``, an underscored target
    option): a numba that lacks it compiles these kernels counted, slower and otherwise the same,
    rather than refusing every kernel at its first call."""
    try:
        from numba.core.cpu import CPUTargetOptions

        return {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
    except ImportError:
        return {}


_NO_REFCOUNT = _no_refcount_option()

MARKER = "ttr_lab-kernels.digest"  # beside the caches: the digest of the sources they came from


def compiled_sources(root: str | os.PathLike[str]) -> list[Path]:
    """The Python files under ``root`` that define numba kernels, and every module of a
    ``kernels`` folder (links followed: a checkout maps its shipped strategies in by one)."""
    found = []
    for folder, dirs, files in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                path = Path(folder, name)
                try:
                    # A kernels folder's plain modules too: their constants are compiled in.
                    if folder.endswith("kernels") or b"njit" in path.read_bytes():
                        found.append(path)
                except OSError:
                    continue
    return found


def cache_folder(source_folder: Path) -> Path:
    """Where numba keeps the caches of the modules in ``source_folder``: its ``__pycache__``, or
    under ``NUMBA_CACHE_DIR`` (named as numba names it: the folder's name and a hash of its path)."""
    root = os.environ.get("NUMBA_CACHE_DIR")
    if not root:
        return source_folder / "__pycache__"
    path = os.path.abspath(source_folder)
    return Path(root, f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}")


def sweep_stale_caches(root: str | os.PathLike[str]) -> bool:
    """Remove the kernel caches under ``root`` if any compiled source changed since they were
    written; True if it removed them. Best effort: a read-only install is never edited, so a
    folder it cannot write is left as it is."""
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return False
    sources = compiled_sources(root)
    if not sources:
        return False
    digest = hashlib.sha256()
    for path in sources:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    wanted = digest.hexdigest()
    marker = cache_folder(Path(root)) / MARKER
    try:
        if marker.read_text(encoding="ascii").strip() == wanted:
            return False
    except OSError:
        pass
    removed = False
    for folder in sorted({cache_folder(p.parent) for p in sources}):
        for cached in list(folder.glob("*.nbi")) + list(folder.glob("*.nbc")):
            try:
                cached.unlink()
                removed = True
            except OSError:
                pass
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        tmp = marker.with_name(f"{MARKER}.{os.getpid()}")
        tmp.write_text(wanted, encoding="ascii")
        os.replace(tmp, marker)
    except OSError:
        pass
    return removed


def _set_aside_damaged_caches() -> None:
    """Make a damaged cache file (truncated, garbled: a full disk, a copy cut short) a cache miss.

    numba reads its index and data files with ``pickle`` and lets any error but a missing file
    through, so one bad file was a traceback at the first call of its kernel in every run, and a
    rerun failed the same way. Here a file that cannot be loaded is renamed ``*.damaged`` (kept
    for a look), one line says so on standard error, and numba compiles the kernel again and
    stores a new cache. Installed once, when the first kernel module imports this one."""
    from numba.core import caching

    load = caching.Cache._load_overload
    if getattr(load, "_ttr_lab_guard", False):
        return

    def load_or_set_aside(self: Any, sig: Any, target_context: Any) -> Any:
        try:
            return load(self, sig, target_context)
        except Exception as exc:  # noqa: BLE001 - whatever a damaged pickle raises: a miss
            index = Path(self._cache_file._index_path)
            for damaged in [index, *index.parent.glob(f"{index.name[:-len('.nbi')]}.*.nbc")]:
                try:
                    os.replace(damaged, damaged.with_name(damaged.name + ".damaged"))
                except OSError:
                    pass
            print(f"note: the compiled-kernel cache {index.stem} was damaged ({type(exc).__name__}: {exc}); set aside "
                  "as *.damaged and compiled again", file=sys.stderr)
            return None

    load_or_set_aside._ttr_lab_guard = True  # type: ignore[attr-defined]
    caching.Cache._load_overload = load_or_set_aside  # type: ignore[method-assign]


_set_aside_damaged_caches()


def _compile_kernels_for_plain_types() -> None:
    """Compile a kernel called from another kernel for its arguments' plain types, never for a
    constant's literal type: one compiled version then serves every caller.

    numba types a constant argument as a literal (``claim_ids(g, s, out, 0)``: ``Literal[int](0)``)
    and compiles the callee once per literal it meets, and its type inference compiles a callee
    for each type it passes through on the way (a count starting at ``0`` and growing in a loop:
    ``Literal[int](0)``, then ``int64``). Each such version is a full compile of the callee and
    of everything it calls (a second ``plan_tickets`` alone took seconds), and a first run paid
    for a dozen of them. Only this package's kernels are concerned: numba's own implementations
    need their literals (a dtype, an attribute name)."""
    from numba.core import dispatcher, types

    get_call_template = dispatcher._DispatcherBase.get_call_template
    if getattr(get_call_template, "_ttr_lab_plain", False):
        return

    def plain_call_template(self: Any, args: Any, kws: Any) -> Any:
        if getattr(self.py_func, "__module__", "").startswith("ttr_lab."):
            args = tuple(types.unliteral(a) for a in args)
            kws = {k: types.unliteral(v) for k, v in kws.items()}
        return get_call_template(self, args, kws)

    plain_call_template._ttr_lab_plain = True  # type: ignore[attr-defined]
    dispatcher._DispatcherBase.get_call_template = plain_call_template  # type: ignore[method-assign]


_compile_kernels_for_plain_types()


def njit_no_refcount(inline: bool = False) -> Callable[[_Kernel], _Kernel]:
    """``njit(cache=True)`` without numba's reference counting, for a kernel that allocates no
    array, nor calls one that does (its callees inherit the setting): its arrays are its
    caller's, borrowed. Counted, every call from one kernel to another counts its arrays in and
    out with atomic operations the optimiser cannot remove (a sixth of the batched environment's
    time went there). ``inline``: compiled into each caller (``inline="always"``), for the
    smallest helpers (numba never inlines one kernel into another by itself). With
    ``NUMBA_DISABLE_JIT=1`` the function is returned as it is."""
    options: dict[str, Any] = {"cache": True, **_NO_REFCOUNT}
    if inline:
        options["inline"] = "always"
    return cast(Callable[[_Kernel], _Kernel], njit(**options))


def _compile_the_seed_functions() -> None:
    """Let kernels call ``rng.mix64`` and ``rng.derive_seed`` themselves, so Python and kernels
    share one definition; ``rng.u64`` becomes a cast, keeping their arithmetic unsigned."""
    import numpy as np
    from numba.extending import overload, register_jitable

    from ttr_lab.core import rng

    @overload(rng.u64, inline="always")
    def _u64(x):  # unannotated: numba compares its parameters with the cast's
        return lambda x: np.uint64(x)

    register_jitable(inline="always")(rng.mix64)
    register_jitable(rng.derive_seed)  # numba inlines no star parameter; it is called per game, not per draw


_compile_the_seed_functions()
