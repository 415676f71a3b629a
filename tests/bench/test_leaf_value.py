"""``benchmarks/leaf_value.py``: the agreement is the per-position correlation over the root's
moves, and the script runs end to end (its values are ``TreeSearch.leaf_value``'s, tested with
the tree)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPT = Path(__file__).parent.parent.parent / "benchmarks" / "leaf_value.py"


def _script():
    spec = importlib.util.spec_from_file_location("leaf_value", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_agreement_is_the_correlation_over_a_positions_moves():
    script = _script()
    rng = np.random.default_rng(0)
    found = []
    for game in range(4):
        for _ in range(3):
            po = rng.normal(size=6)
            pos = script.Position(game, po, (po + 1.0, po * 2.0))  # halves that agree exactly
            pos.values = {"same": po + 5.0, "negated": -po, "scaled": 3 * po}
            found.append(pos)
    for name, expected in (("same", 1.0), ("negated", -1.0), ("scaled", 1.0)):
        mean, half = script.agreement(found, name)
        assert mean == pytest.approx(expected) and half == pytest.approx(0.0, abs=1e-9), name
    assert script.agreement(found, None)[0] == pytest.approx(1.0)
    # Noise on one move's value lowers the agreement; a value of another position's moves is unrelated.
    for k, pos in enumerate(found):
        pos.values["noisy"] = pos.playouts + np.r_[rng.normal(scale=5.0), np.zeros(5)]
        pos.values["other"] = found[k - 1].playouts
    assert script.agreement(found, "noisy")[0] < 0.9 and abs(script.agreement(found, "other")[0]) < 0.5


def test_the_script_runs_on_a_tiny_budget(capsys):
    script = _script()
    script.main(["--value", "learned", "--games", "1", "--playouts", "2", "--every", "8", "--seed", "7"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[0].isdigit() and int(out[0].split()[0]) > 0
    assert out[1].startswith("split half (play-outs with play-outs): correlation")
    assert out[2].startswith("learned: correlation with the play-outs")
    with pytest.raises(SystemExit):
        script.main(["--playouts", "1"])
