"""The architecture's import contracts (pyproject.toml, [tool.importlinter]) hold."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Imports that break the layers from files other work is moving (the root modules go to
# ttr_lab/core, the board plot is registered from above, the report stops reading the store).
OUTSIDE = [
    "ttr_lab.analysis.report -> ttr_lab.tournament.store",
    "ttr_lab.games.ticket_to_ride.views -> ttr_lab.analysis.board_plot",
    "ttr_lab.record -> ttr_lab.analysis.board_plot",
    "ttr_lab.testing -> strategies.random",
    "ttr_lab.core.strategy -> ttr_lab.games.ticket_to_ride.actions",
    "ttr_lab.core.strategy -> ttr_lab.games.ticket_to_ride.observation",
    "ttr_lab.core.config_files -> ttr_lab.games.ticket_to_ride.board",
    "ttr_lab.core.config_files -> strategies.registry",
]


def lint_imports(config: Path | None = None) -> subprocess.CompletedProcess:
    # This checkout's packages, whatever else the environment has installed.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    command = [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"]
    if config is not None:
        command += ["--config", str(config)]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.xfail(strict=False, reason="imports outside this work's files still break the layers: " + "; ".join(OUTSIDE))
def test_the_import_contracts_hold():
    done = lint_imports()
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_nothing_else_breaks_the_import_contracts(tmp_path):
    """Until the imports above are gone: every other import keeps to the contracts."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    for contract in data["contracts"]:
        if contract["type"] == "layers":
            contract["ignore_imports"] = OUTSIDE
            contract["unmatched_ignore_imports_alerting"] = "none"  # fixed ones may go
    config = tmp_path / "importlinter.toml"
    config.write_text(_toml(data))
    done = lint_imports(config)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def _toml(importlinter: dict) -> str:
    """The [tool.importlinter] tables back as TOML: its values are strings and lists of strings,
    which JSON writes as TOML reads them."""
    lines = ["[tool.importlinter]", *(f"{k} = {json.dumps(v)}" for k, v in importlinter.items() if k != "contracts")]
    for contract in importlinter["contracts"]:
        lines += ["", "[[tool.importlinter.contracts]]", *(f"{k} = {json.dumps(v)}" for k, v in contract.items())]
    return "\n".join(lines) + "\n"
