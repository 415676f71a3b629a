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
    folders = {name: ROOT / name.replace(".", "/") for name in config["packages"]}
    for name, folder in config["package-dir"].items():
        folders[name] = ROOT / folder
    for name in list(folders):  # a mapped package's subpackages follow its folder
        for mapped, folder in config["package-dir"].items():
            if name.startswith(mapped + "."):
                folders[name] = ROOT / folder / name[len(mapped) + 1:].replace(".", "/")
    assert all((f / "__init__.py").is_file() for f in folders.values()), folders
    on_disk = {p.parent for top in ("ttr_lab", "strategies") for p in (ROOT / top).rglob("__init__.py")}
    assert on_disk == set(folders.values()), on_disk ^ set(folders.values())


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
