"""A child of its own user starts from a copy of the compiled kernels' caches of its parent,
wherever the parent keeps them: beside the sources, or under its ``NUMBA_CACHE_DIR``."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import types
from pathlib import Path

import pytest

from ttr_lab.core import confinement
from ttr_lab.core.compiled import MARKER, cache_folder


@pytest.mark.parametrize("own_cache_dir", [False, True])
def test_the_child_s_copy_holds_the_caches_of_every_loaded_module(tmp_path, monkeypatch, own_cache_dir):
    if own_cache_dir:
        monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    else:
        monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    source = tmp_path / "src" / "kernels"
    source.mkdir(parents=True)
    module = types.ModuleType("kernels_of_the_test")
    module.__file__ = str(source / "step.py")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    held = cache_folder(source)  # where this process keeps them
    held.mkdir(parents=True)
    for name, text in [("step.f-5.py312.nbi", "index"), ("step.f-5.py312.1.nbc", "code"), (MARKER, "digest")]:
        (held / name).write_text(text)
    copy = confinement.compiled_cache(os.getuid())
    try:
        # numba's layout under the child's NUMBA_CACHE_DIR: the folder's name and a hash of its path.
        mine = Path(copy, f"kernels_{hashlib.sha1(str(source).encode()).hexdigest()}")
        assert sorted(p.name for p in mine.iterdir()) == sorted(["step.f-5.py312.nbi", "step.f-5.py312.1.nbc", MARKER])
        assert (mine / "step.f-5.py312.1.nbc").read_text() == "code"
    finally:
        shutil.rmtree(copy)


def test_no_copy_for_a_child_of_this_process_s_user():
    assert confinement.compiled_cache(None) is None
