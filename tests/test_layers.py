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
from typing import Sequence


ROOT = Path(__file__).resolve().parent.parent

def installed_layout(folder: Path) -> Path:
    """This checkout's packages laid out as an install has them (the top-level strategies/ folder
    as ttr_lab/strategies, where the checkout has a link to it): the import graph is read from folders."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.csv", "*.toml", "*.json")
    # The checkout's ttr_lab/strategies is a link to strategies/: copied below as an install has it.
    shutil.copytree(ROOT / "ttr_lab", folder / "ttr_lab", symlinks=True,
                    ignore=lambda where, names: skip(where, names) | ({"strategies"} if Path(where) == ROOT / "ttr_lab" else set()))
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


def test_a_plain_lint_imports_from_the_source_tree_holds():
    """What a developer (and the before-stop hook) types at the repository root: the source tree's
    ttr_lab/strategies, a link to the top-level strategies/ folder, is read like an install's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "0 broken" in done.stdout, done.stdout[-6000:] + done.stderr[-2000:]
    assert (ROOT / "ttr_lab" / "strategies" / "shipped.py").samefile(ROOT / "strategies" / "shipped.py")


# The layers every game shares: none of them may name a game (the games catalogue,
# ttr_lab/games/__init__.py, and each game's own package do, training's ``training/<game>/`` too).
SHARED_LAYERS = ("core", "analysis", "tournament", "tuning", "cli", "bench", "studies", "envs", "training", "review")


def game_names_in(path: Path, games: Sequence[str]) -> list[str]:
    """Where the module at ``path`` names one of ``games``: an import of its package, or a string
    in the code (docstrings, which show examples, and comments are not code)."""
    import ast
    import re

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    word = re.compile(r"\b(" + "|".join(map(re.escape, games)) + r")\b")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if isinstance(node, ast.ImportFrom):  # ``from ttr_lab.training import ticket_to_ride``
                modules += [f"{node.module}.{a.name}" for a in node.names]
            # Any module with a game's name as a part: its rules, its strategies, its training.
            found += [f"line {node.lineno}: imports {m}" for m in modules if set(m.split(".")) & set(games)][:1]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if word.search(node.value):
                found.append(f"line {node.lineno}: {node.value[:60]!r}")
    return [f"{path.relative_to(ROOT)} {f}" for f in found]


# Modules of a shared layer allowed to import a game's package, each with why.
GAME_SPECIFIC = {
    # The batched env's step is one native call over a game's compiled rule kernels; only
    # Ticket to Ride has them (the env refuses a game without kernels in one line).
    "ttr_lab/envs/vector_kernels.py",
    # ... and its opponents are that game's compiled greedy and planner.
    "ttr_lab/envs/vector.py",
    # The speed benchmark of Ticket to Ride's planner, and the strength ladder's reference planner.
    "ttr_lab/bench/planner.py",
    "ttr_lab/bench/strength.py",
    # The review's judge of a decision is Ticket to Ride's strongest search and its play-outs.
    "ttr_lab/review/judge.py",
}


def test_no_shared_layer_names_a_game():
    from ttr_lab.games import INSTALLED

    named = [hit for layer in SHARED_LAYERS for path in sorted((ROOT / "ttr_lab" / layer).rglob("*.py"))
             if str(path.relative_to(ROOT)) not in GAME_SPECIFIC and not set(path.parts) & set(INSTALLED)
             for hit in game_names_in(path, INSTALLED)]
    assert not named, "\n".join(named)


def test_the_game_name_check_finds_an_import_and_a_default(tmp_path):
    """The check can fail: a default game and an import of a game's package are both found."""
    module = ROOT / "ttr_lab" / "core" / f"_probe_{os.getpid()}.py"
    module.write_text('"""Says ticket_to_ride in its docstring only."""\n'
                      'from ttr_lab.games.trans_orient.rules import RULES\n'
                      'def f(game: str = "ticket_to_ride") -> str:\n    return game\n'
                      'from ttr_lab.strategies.ticket_to_ride.learned import featurizer\n'
                      'from ttr_lab.training import ticket_to_ride\n')
    try:
        hits = game_names_in(module, ("ticket_to_ride", "trans_orient"))
    finally:
        module.unlink()
    assert sorted(h.split(" ", 1)[1] for h in hits) == ["line 2: imports ttr_lab.games.trans_orient.rules",
                                                   "line 3: 'ticket_to_ride'",
                                                   "line 5: imports ttr_lab.strategies.ticket_to_ride.learned",
                                                   "line 6: imports ttr_lab.training.ticket_to_ride"], hits


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
