"""notebooks/trans_orient.ipynb runs end to end (a small match) and shows its tables and a figure."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_trans_orient_notebook_runs():
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(ROOT / "notebooks/trans_orient.ipynb", as_version=4)
    os.environ["TOE_DEALS"] = "2"
    try:
        NotebookClient(nb, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(ROOT / "notebooks")}}).execute()
    finally:
        del os.environ["TOE_DEALS"]
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs) + "".join(
        o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "stand-in" in text and "win rate" in text and "after" in text and "stalled share" in text
    assert any("image/png" in o.get("data", {}) for o in outputs)
    stray = [o["data"]["text/plain"] for o in outputs if "text/plain" in o.get("data", {})
             and "image/png" not in o["data"] and o["data"]["text/plain"].startswith(("Text(", "<Figure", "<Axes", "[<matplotlib", "<matplotlib"))]
    assert not stray, stray  # a figure cell shows the figure, not the repr of its last call
    shown = text + "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert "vp_travel" not in shown and "travel" in shown  # score parts by name, not column
