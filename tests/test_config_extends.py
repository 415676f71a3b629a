"""A training config may extend another (``extends:``, relative to the file); the shipped ones
state each shared setting once and say which run a ``results/`` start comes from."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ttr_lab.core.errors import ConfigError
from ttr_lab.tournament.config_files import read_yaml_extending
from ttr_lab.training import load_config
from ttr_lab.training.config import TrainConfig

ROOT = Path(__file__).resolve().parent.parent
TRAIN = sorted((ROOT / "configs" / "train").glob("*.yaml"))


def test_a_config_extends_a_file_beside_it_its_own_keys_winning(tmp_path, monkeypatch):
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "defaults.yaml").write_text("map: usa\nplayers: 2\niterations: 7\nlr: 0.01\n")
    (tmp_path / "base" / "middle.yaml").write_text("extends: defaults.yaml\niterations: 9\nseed: 4\n")
    (tmp_path / "run.yaml").write_text("extends: base/middle.yaml\nname: run\nseed: 5\n")
    monkeypatch.chdir(ROOT)  # relative to the file, not to where it is run from
    cfg = load_config(tmp_path / "run.yaml")
    assert (cfg.name, cfg.seed, cfg.iterations, cfg.lr, cfg.players, cfg.game) == ("run", 5, 9, 0.01, 2, "ticket_to_ride")


@pytest.mark.parametrize("files,message", [
    ({"run.yaml": "extends: nowhere.yaml\nmap: usa\n"}, r"run\.yaml: extends: no config file .*nowhere\.yaml$"),
    ({"run.yaml": "extends: a.yaml\nmap: usa\n", "a.yaml": "extends: run.yaml\n"}, r"a\.yaml: extends: run\.yaml extends back to .*run\.yaml \(a cycle\)$"),
    ({"run.yaml": "extends: run.yaml\n"}, r"extends back to .*run\.yaml \(a cycle\)$"),
    ({"run.yaml": "extends: [a.yaml]\n"}, r"run\.yaml: extends: give the path of a config file"),
])
def test_a_missing_or_cyclic_base_is_one_line(tmp_path, files, message):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    with pytest.raises(ConfigError, match=message) as caught:
        load_config(tmp_path / "run.yaml")
    assert "\n" not in str(caught.value)


def test_the_command_line_says_a_missing_base_in_one_line(tmp_path):
    (tmp_path / "run.yaml").write_text("extends: gone.yaml\nmap: usa\n")
    done = subprocess.run([sys.executable, "-m", "ttr_lab", "train", str(tmp_path / "run.yaml")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "extends: no config file" in done.stderr


def _inherited(path: Path) -> dict:
    """What ``path`` would be without its own keys: its base's settings over TrainConfig's defaults."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    base = read_yaml_extending(path.parent / data["extends"]) if "extends" in data else {}
    defaults = {k: f.get_default(call_default_factory=True) for k, f in TrainConfig.model_fields.items()}
    return {**defaults, **base}


@pytest.mark.parametrize("path", TRAIN, ids=lambda p: p.name)
def test_a_shipped_train_config_states_only_what_it_changes(path):
    own = yaml.safe_load(path.read_text(encoding="utf-8"))
    inherited = _inherited(path)
    restated = {k: v for k, v in own.items() if k != "extends" and k in inherited and inherited[k] == v}
    assert restated == {}, f"{path.name} restates {restated}"


@pytest.mark.parametrize("path", TRAIN, ids=lambda p: p.name)
def test_a_start_from_another_runs_results_names_the_config_that_makes_it(path):
    cfg = load_config(path)
    if not cfg.init or not cfg.init.startswith("results/"):
        return
    text = path.read_text(encoding="utf-8")
    named = re.findall(r"ttr-lab train (configs/train/[\w.-]+\.yaml)`?: run that first", text)
    assert named, f"{path.name} starts from {cfg.init} without naming the run that writes it"
    assert load_config(ROOT / named[0]).output == str(Path(cfg.init).parent)
