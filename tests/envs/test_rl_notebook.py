"""notebooks/rl.ipynb runs end to end on a tiny budget: it trains, draws its learning curve, saves
the policy, and enters it in a match and a small tournament."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")

ROOT = Path(__file__).resolve().parents[2]
BUDGET = {"RL_EPISODES": "20", "RL_EVAL_DEALS": "4"}


def test_the_rl_notebook_runs(tmp_path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient

    for key, value in {**BUDGET, "RL_OUTPUT": str(tmp_path)}.items():
        monkeypatch.setenv(key, value)
    # The kernel runs in notebooks/: this checkout first on its path (a relative entry would not do).
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    nb = nbformat.read(ROOT / "notebooks/rl.ipynb", as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs) + "".join(
        o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "20 training games" in text and "win share" in text
    for entrant in ("linear", "untrained", "random", "greedy"):
        assert f"{entrant}: " in text and "win rate" in text, entrant
    assert any("image/png" in o.get("data", {}) for o in outputs)
    stray = [o["data"]["text/plain"] for o in outputs if "text/plain" in o.get("data", {})
             and "image/png" not in o["data"] and o["data"]["text/plain"].startswith(("Text(", "<Figure", "<Axes", "[<matplotlib", "<matplotlib"))]
    assert not stray, stray  # a figure cell shows the figure, not the repr of its last call
    source = "".join(cell.source for cell in nb.cells if cell.cell_type == "code")
    assert "fill_between" in source  # the learning curve carries its band
    assert (tmp_path / "linear-trans_orient.npz").exists()
