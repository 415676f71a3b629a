"""What a Python user expects of the package: a licence, type information, pinned versions that
match the declared ranges, quiet logging, and the examples reachable from an install."""

from __future__ import annotations

import logging
import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from typer.testing import CliRunner

from ttr_lab.cli import app
from ttr_lab.tournament import load_config
from ttr_lab.training import load_config as load_training

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def test_the_licence_and_type_marker_ship_with_the_package():
    project = PYPROJECT["project"]
    assert "MIT License" in (ROOT / "LICENSE").read_text() and project["license"] == {"text": "MIT"}
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]
    assert "Typing :: Typed" in project["classifiers"]
    for folder, package in (("ttr_lab", "ttr_lab"), ("strategies", "ttr_lab.strategies")):
        assert (ROOT / folder / "py.typed").is_file()
        assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"][package]


def test_constraints_pin_every_declared_dependency_inside_its_range():
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep, f"constraints.txt: {line!r} is not name==version"
            pins[_name(name)] = version.strip()
    project = PYPROJECT["project"]
    declared = [*project["dependencies"], *project["optional-dependencies"]["test"],
                *project["optional-dependencies"]["rl"]]
    for text in declared:
        requirement = Requirement(text)
        name = _name(requirement.name)
        assert name in pins, f"{name} is declared but not pinned in constraints.txt"
        assert requirement.specifier.contains(pins[name]), f"{name}=={pins[name]} is outside {requirement.specifier}"


def test_the_library_is_quiet_until_asked(capsys):
    logging.getLogger("ttr_lab.tournament.runner").info("a library note")
    assert capsys.readouterr().err == ""
    assert any(isinstance(h, logging.NullHandler) for h in logging.getLogger("ttr_lab").handlers)


def test_verbose_shows_the_library_log(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    logger = logging.getLogger("ttr_lab")
    before = list(logger.handlers)
    try:
        result = CliRunner().invoke(app, ["--verbose", "tournament", "configs/smoke.yaml", "--backend", "serial",
                                          "--games", "4", "--out", str(tmp_path / "out"), "--no-report", "--no-progress"])
        assert result.exit_code == 0, result.output
        assert [h for h in logger.handlers if h not in before], "no handler added by --verbose"
    finally:
        logger.handlers[:] = before
        logger.setLevel(logging.NOTSET)


def test_init_copies_the_configs_and_notebooks_and_never_writes_over(tmp_path):
    result = CliRunner().invoke(app, ["init", str(tmp_path / "lab")])
    assert result.exit_code == 0, result.output
    configs = sorted(p.relative_to(tmp_path / "lab") for p in (tmp_path / "lab" / "configs").rglob("*.yaml"))
    assert configs == sorted(p.relative_to(ROOT) for p in (ROOT / "configs").rglob("*.yaml"))
    assert load_training(tmp_path / "lab" / "configs" / "train" / "usa-2p.yaml").name == "train-usa-2p"  # extends: copied
    assert (tmp_path / "lab" / "notebooks" / "explore.ipynb").is_file()
    config = load_config(tmp_path / "lab" / "configs" / "smoke.yaml")
    assert config.name == "smoke"
    again = CliRunner().invoke(app, ["init", str(tmp_path / "lab")])
    assert again.exit_code == 2 and "would write over" in again.output


def test_the_examples_are_installed_with_a_wheel():
    data_files = PYPROJECT["tool"]["setuptools"]["data-files"]
    folders = sorted(p.name for p in (ROOT / "configs").iterdir() if p.is_dir())
    assert data_files == {"share/ttr-lab/configs": ["configs/*.yaml"], "share/ttr-lab/notebooks": ["notebooks/*.ipynb"],
                          **{f"share/ttr-lab/configs/{f}": [f"configs/{f}/*.yaml"] for f in folders}}


def test_init_finds_the_examples_of_a_wheel_install(tmp_path, monkeypatch):
    import sys

    from ttr_lab.cli import starter

    prefix = tmp_path / "venv"
    (prefix / "share" / "ttr-lab" / "configs").mkdir(parents=True)
    (prefix / "share" / "ttr-lab" / "configs" / "mine.yaml").write_text("name: mine\n")
    monkeypatch.setattr(starter, "__file__", str(tmp_path / "site-packages" / "ttr_lab" / "cli" / "starter.py"))
    monkeypatch.setattr(sys, "prefix", str(prefix))
    assert starter.examples_folder() == prefix / "share" / "ttr-lab"
    assert [p.name for p in starter.copy_examples(tmp_path / "lab")] == ["mine.yaml"]


def test_the_version_is_written_once():
    """The package's version is ``ttr_lab.__version__``; pyproject.toml reads it from there."""
    assert "version" not in PYPROJECT["project"] and "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "ttr_lab.__version__"}
