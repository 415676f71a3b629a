"""The shipped strategies are ``ttr_lab.strategies``: installed from the top-level ``strategies/``
folder, and never shadowed by a user's own ``strategies/`` folder."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_list_names_every_package_of_the_tree():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {ROOT / name.replace(".", "/") for name in config["packages"]}
    assert all((f / "__init__.py").is_file() for f in folders), folders
    # ttr_lab/strategies is the link to strategies/: walked through it, as setuptools does.
    on_disk = {Path(where) for where, _, files in os.walk(ROOT / "ttr_lab", followlinks=True) if "__init__.py" in files}
    assert on_disk == folders, on_disk ^ folders


def test_one_mechanism_serves_the_strategies_folder():
    """ttr_lab/strategies is a link to the top-level strategies/ folder, and nothing else: no
    package-dir mapping, and no import hook left on sys.meta_path by ``import ttr_lab``."""
    link = ROOT / "ttr_lab" / "strategies"
    assert link.is_symlink() and link.resolve() == ROOT / "strategies"
    assert "package-dir" not in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    # A fresh interpreter outside the checkout: the installed (here, editable) ttr_lab.
    probe = ("import sys; before = list(sys.meta_path); import ttr_lab.strategies.shipped, "
             "ttr_lab.strategies.trans_orient; import ttr_lab.strategies as s; "
             "print(s.__file__); print([repr(f) for f in sys.meta_path if f not in before])")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT.parent, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    where, added = done.stdout.splitlines()
    assert Path(where).resolve() == ROOT / "strategies" / "__init__.py"
    assert added == "[]", added


def test_a_built_wheel_holds_the_strategies_under_ttr_lab(tmp_path):
    """What setuptools puts in a wheel (its build_py step, the wheel's whole Python content)
    holds every shipped strategy as ttr_lab.strategies, and no top-level strategies package."""
    command = [sys.executable, "-c", "from setuptools import setup; setup()", "-q",
               "egg_info", "--egg-base", str(tmp_path), "build_py", "--build-lib", str(tmp_path / "lib")]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    built = {p.relative_to(tmp_path / "lib").as_posix() for p in (tmp_path / "lib").rglob("*") if p.is_file()}
    shipped = {f"ttr_lab/{p.relative_to(ROOT).as_posix()}" for p in (ROOT / "strategies").rglob("*.py")}
    assert shipped and shipped <= built, sorted(shipped - built)
    assert "ttr_lab/strategies/py.typed" in built
    assert not any(p.startswith("strategies/") for p in built)
    assert not (tmp_path / "lib" / "ttr_lab" / "strategies").is_symlink()


def _ttr_lab(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [str(Path(sys.executable).parent / "ttr-lab"), *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_a_users_own_strategies_folder_shadows_nothing(tmp_path):
    (tmp_path / "strategies").mkdir()
    (tmp_path / "strategies" / "__init__.py").write_text("")
    (tmp_path / "strategies" / "shipped.py").write_text("raise ImportError('the user\\'s own module')\n")
    (tmp_path / "mymod.py").write_text(
        "class MyStrat:\n"
        "    name = 'mine'\n"
        "    def act(self, observation, legal_actions, rng):\n"
        "        return legal_actions[0]\n")
    done = _ttr_lab(tmp_path, "play", "-s", "greedy", "-p", "2", "--seed", "3")
    assert done.returncode == 0, done.stderr[-3000:]
    done = _ttr_lab(tmp_path, "play", "-s", "mymod:MyStrat", "-p", "2", "--seed", "3")
    assert done.returncode == 0, done.stderr[-3000:]
