"""notebooks/rl.ipynb runs end to end on a tiny budget: it trains on the batched env, judges its
checkpoints against greedy, draws its learning curve, saves the policy, and enters it in matches
against greedy and the ticket planner."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the [rl] extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")

ROOT = Path(__file__).resolve().parents[2]
BUDGET = {"RL_STEPS": "20", "RL_ENVS": "8", "RL_CHECKPOINTS": "2", "RL_EVAL_DEALS": "1"}


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
    assert "20 batched steps: 160 decisions imitated" in text and "win rate" in text
    assert "mean score" in text  # the checkpoints' table
    for entrant in ("linear", "untrained", "ticket_planner", "greedy"):
        assert f"{entrant}: " in text and "win rate" in text, entrant
    assert any("image/png" in o.get("data", {}) for o in outputs)
    stray = [o["data"]["text/plain"] for o in outputs if "text/plain" in o.get("data", {})
             and "image/png" not in o["data"] and o["data"]["text/plain"].startswith(("Text(", "<Figure", "<Axes", "[<matplotlib", "<matplotlib"))]
    assert not stray, stray  # a figure cell shows the figure, not the repr of its last call
    source = "".join(cell.source for cell in nb.cells if cell.cell_type == "code")
    assert "fill_between" in source  # the learning curve carries its band
    assert (tmp_path / "linear-ticket_to_ride.npz").exists()
    assert sorted(p.name for p in tmp_path.glob("checkpoint-*.npz")) == ["checkpoint-0.npz", "checkpoint-10.npz",
                                                                        "checkpoint-20.npz"]
