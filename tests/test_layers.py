"""The architecture's import contracts (pyproject.toml, [tool.importlinter]) hold."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent

def installed_layout(folder: Path) -> Path:
    """This checkout's packages laid out as an install has them (the top-level strategies/ folder
    as ttr_lab/strategies, pyproject.toml's package-dir): the import graph is read from folders."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.csv", "*.toml", "*.json")
    shutil.copytree(ROOT / "ttr_lab", folder / "ttr_lab", ignore=skip)
    shutil.copytree(ROOT / "strategies", folder / "ttr_lab" / "strategies", ignore=skip)
    shutil.copytree(ROOT / "strategies", folder / "strategies", ignore=skip)  # its old import name
    return folder


def lint_imports(config: Path | None = None) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as tmp:
        # This checkout's packages, whatever else the environment has installed.
        tree = installed_layout(Path(tmp))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")])))
        command = [str(Path(sys.executable).parent / "lint-imports"), "--no-cache",
                   "--config", str(config or ROOT / "pyproject.toml")]
        return subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, timeout=600)


def test_the_import_contracts_hold():
    done = lint_imports()
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_a_broken_contract_is_caught(tmp_path):
    """The check can fail: a config forbidding an import the code makes is reported broken."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    data["contracts"] = [{"name": "no rules in the tournament", "type": "forbidden",
                          "source_modules": ["ttr_lab.tournament"], "forbidden_modules": ["ttr_lab.core"]}]
    config = tmp_path / "importlinter.toml"
    config.write_text(_toml(data))
    done = lint_imports(config)
    assert done.returncode != 0 and "BROKEN" in done.stdout


def _toml(importlinter: dict) -> str:
    """The [tool.importlinter] tables back as TOML: its values are strings and lists of strings,
    which JSON writes as TOML reads them."""
    lines = ["[tool.importlinter]", *(f"{k} = {json.dumps(v)}" for k, v in importlinter.items() if k != "contracts")]
    for contract in importlinter["contracts"]:
        lines += ["", "[[tool.importlinter.contracts]]", *(f"{k} = {json.dumps(v)}" for k, v in contract.items())]
    return "\n".join(lines) + "\n"
