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


def test_the_copy_holds_the_caches_of_strategies_this_process_never_imported(tmp_path):
    # A Ray worker never imports the strategy its isolated child plays; a fresh interpreter that
    # imports only the confinement stands for it.
    import subprocess
    import textwrap

    script = textwrap.dedent(f"""
        import os, sys
        os.environ["NUMBA_CACHE_DIR"] = {str(tmp_path / "cache")!r}
        from pathlib import Path
        from ttr_lab.core import confinement
        from ttr_lab.core.compiled import cache_folder
        package = os.path.dirname(os.path.dirname(os.path.abspath(confinement.__file__)))
        folder = os.path.join(package, "strategies", "ticket_to_ride")
        assert not any(name.startswith("ttr_lab.strategies") for name in sys.modules)
        held = cache_folder(Path(folder))
        held.mkdir(parents=True)
        (held / "greedy_kernel.f-5.py311.nbi").write_text("index")
        copy = confinement.compiled_cache(os.getuid())
        print(sorted(p.name for p in Path(copy).rglob("greedy_kernel*")))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert "greedy_kernel.f-5.py311.nbi" in out


def test_copies_left_by_dead_processes_are_swept_and_live_ones_kept(tmp_path, monkeypatch):
    import subprocess
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    orphan = tmp_path / f"ttr-lab-kernels-{dead.pid}-abc"
    live = tmp_path / f"ttr-lab-kernels-{os.getpid()}-def"
    other = tmp_path / "ttr-lab-kernels-notapid"
    for folder in (orphan, live, other):
        folder.mkdir()
        (folder / "x.nbc").write_text("code")
    copy = confinement.compiled_cache(os.getuid())
    try:
        assert not orphan.exists() and live.exists() and other.exists()
        assert os.path.basename(copy).startswith(f"ttr-lab-kernels-{os.getpid()}-")
    finally:
        shutil.rmtree(copy)
