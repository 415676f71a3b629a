"""The type checker (mypy, configured in pyproject.toml [tool.mypy]) passes over the core and the games."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("ttr_lab/core", "ttr_lab/games")


def mypy(*targets: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--no-incremental",
               "--cache-dir", "/dev/null", *targets]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)


def test_the_core_and_the_games_type_check():
    done = mypy(*CHECKED)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_a_type_error_is_caught(tmp_path):
    """The check can fail: a module returning a str where it promises an int is reported."""
    (tmp_path / "wrong.py").write_text("def count() -> int:\n    return 'three'\n")
    done = mypy("wrong.py", cwd=tmp_path)
    assert done.returncode != 0 and "Incompatible return value type" in done.stdout
