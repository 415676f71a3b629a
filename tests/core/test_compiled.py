"""Stale compiled caches: numba checks a cached kernel against its own file only, so a kernel
with a callee from another file kept the old callee when only that file changed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CALLER = """from numba import njit
from pkg.kernels.callee import g

@njit(cache=True)
def f():
    return g() + 1
"""
CALLEE = """from numba import njit

@njit(cache=True)
def g():
    return {value}
"""
RUN = """import sys
from pathlib import Path
from ttr_lab.core.compiled import sweep_stale_caches
if sys.argv[1] == "sweep":
    sweep_stale_caches(Path("pkg"))
from pkg.kernels.caller import f
print(f())
"""


def _answer(folder: Path, mode: str, cache_dir: str | None) -> int:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
    env["PYTHONPATH"] = os.pathsep.join([str(folder), str(ROOT)])
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "run.py", mode], cwd=folder, env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.split()[-1])


@pytest.mark.parametrize("own_cache_dir", [False, True])
def test_a_changed_callee_is_compiled_again(tmp_path, own_cache_dir):
    kernels = tmp_path / "pkg" / "kernels"
    kernels.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (kernels / "__init__.py").write_text("")
    (kernels / "caller.py").write_text(CALLER)
    (kernels / "callee.py").write_text(CALLEE.format(value=1))
    (tmp_path / "run.py").write_text(RUN)
    cache_dir = str(tmp_path / "cache") if own_cache_dir else None
    assert _answer(tmp_path, "sweep", cache_dir) == 2
    (kernels / "callee.py").write_text(CALLEE.format(value=10))  # caller.py unchanged, as after a pull
    # What numba alone does: the cached caller still holds the old callee.
    assert _answer(tmp_path, "plain", cache_dir) == 2
    assert _answer(tmp_path, "sweep", cache_dir) == 11
    assert _answer(tmp_path, "sweep", cache_dir) == 11  # and the fresh caches are kept


KERNEL = """from ttr_lab.core.compiled import njit_no_refcount

@njit_no_refcount()
def f(x):
    return x + 1
"""


@pytest.mark.parametrize("damage", ["index truncated", "data truncated", "data garbled"])
def test_a_damaged_cache_file_is_set_aside_and_compiled_again(tmp_path, damage, capfd):
    import importlib.util
    import uuid

    import numba

    from ttr_lab.core.compiled import cache_folder

    if numba.config.DISABLE_JIT:
        pytest.skip("kernels run interpreted: no cache")
    (tmp_path / "kmod.py").write_text(KERNEL)

    def kernel():  # a new dispatcher over the same file: it loads what the last one cached
        spec = importlib.util.spec_from_file_location(f"kmod_{uuid.uuid4().hex}", tmp_path / "kmod.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.f

    assert kernel()(1) == 2
    folder = cache_folder(tmp_path)
    (index,) = folder.glob("kmod.f-*.nbi")
    (data,) = folder.glob("kmod.f-*.nbc")
    target = index if damage.startswith("index") else data
    text = target.read_bytes()
    target.write_bytes(text[:len(text) // 3] if "truncated" in damage else text[:40] + b"\xff" * (len(text) - 40))
    capfd.readouterr()
    assert kernel()(41) == 42
    err = capfd.readouterr().err
    assert err.startswith("note: the compiled-kernel cache kmod.f-") and err.count("\n") == 1, err
    assert "damaged" in err and (folder / (target.name + ".damaged")).exists()
    assert kernel()(1) == 2 and capfd.readouterr().err == ""  # the new cache loads
    assert index.exists() and data.exists()


# Two of this package's kernels (by module name, as ``ttr_lab.*`` modules define them): the
# caller passes the callee a constant, then a count that starts at that constant.
PLAIN_TYPES = '''
from numba import njit

@njit
def bump(a, k):
    return a[k] + 1

@njit
def caller(a):
    total = bump(a, 0)
    n = 0
    for i in range(a.shape[0] - 1):
        n += 1
        total += bump(a, n)
    return total
'''


def test_a_kernel_called_with_constants_is_compiled_once():
    # numba compiled a callee once per literal constant a caller passed it (and once more per
    # type its inference passed through): a full compile each, a dozen on the main job's first run.
    import numpy as np

    import ttr_lab.core.compiled  # noqa: F401 - installs the plain-type calls

    space = {"__name__": "ttr_lab.plain_types_probe"}
    exec(compile(PLAIN_TYPES, "<probe>", "exec"), space)  # noqa: S102 - the test's own source
    assert space["caller"](np.arange(4, dtype=np.int64)) == 10
    assert [str(a) for a in space["bump"].signatures[0]] == ["array(int64, 1d, C)", "int64"]
    assert len(space["bump"].signatures) == 1
