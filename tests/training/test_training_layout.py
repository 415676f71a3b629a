"""Training's layout: the generic package (the loop, the fit, checkpoints, curves, the config)
names no game; each game's own part sits in ``ttr_lab/training/<game>/``, found by its name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ttr_lab.core.errors import ConfigError
from ttr_lab.games import INSTALLED
from ttr_lab.training.games import GameTraining, training_for

TRAINING = Path(__file__).resolve().parent.parent.parent / "ttr_lab" / "training"


def games_named_in(source: str, games: tuple[str, ...]) -> list[str]:
    """Where ``source`` names one of ``games``: an import of any module with the game's name as
    a part (its rules, its strategies, its training), or a string in the code (docstrings, which
    explain, and comments are not code)."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    word = re.compile(r"\b(" + "|".join(map(re.escape, games)) + r")\b")
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if isinstance(node, ast.ImportFrom):
                modules += [f"{node.module}.{a.name}" for a in node.names]
            found += [f"line {node.lineno}: imports {m}" for m in modules if set(m.split(".")) & set(games)][:1]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if word.search(node.value):
                found.append(f"line {node.lineno}: {node.value[:60]!r}")
    return found


def test_the_generic_training_modules_name_no_game():
    named = [f"{path.name} {hit}" for path in sorted(TRAINING.glob("*.py"))
             for hit in games_named_in(path.read_text(encoding="utf-8"), tuple(INSTALLED))]
    assert not named, "\n".join(named)


def test_the_check_finds_a_game_named_in_an_import_or_a_string():
    """The check can fail: a game's strategies imported, its package imported by name, or a
    default game, are each found; a docstring naming it is not."""
    source = ('"""Trains ticket_to_ride."""\n'
              "from ttr_lab.strategies.ticket_to_ride.learned import featurizer\n"
              "from ttr_lab.training import ticket_to_ride\n"
              'GAME = "ticket_to_ride"\n')
    assert [hit.split(":")[0] for hit in games_named_in(source, ("ticket_to_ride",))] == ["line 2", "line 3", "line 4"]


def test_each_trainable_game_has_its_training_and_another_is_one_line():
    assert isinstance(training_for("ticket_to_ride"), GameTraining)
    with pytest.raises(ConfigError, match="^game: trans_orient has no training"):
        training_for("trans_orient")
