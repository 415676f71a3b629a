"""The report's figures drawn in worker processes: the same files as drawn one after another."""

from __future__ import annotations

from ttr_lab.analysis.drawing import draw_figures
from ttr_lab.core.figures import new_figure


def _figures():
    out = []
    for n in range(4):
        fig = new_figure(2, 1.5)
        fig.add_subplot().plot(range(n + 2))
        out.append((f"line{n}", fig))
    return out


def test_figures_drawn_in_two_processes_are_the_ones_drawn_here(tmp_path):
    here = draw_figures(_figures(), tmp_path / "serial", workers=1)
    spread = draw_figures(_figures(), tmp_path / "spread", workers=2)
    assert spread == here and list(spread) == [f"line{n}" for n in range(4)]
    for n in range(4):
        assert (tmp_path / "spread" / f"line{n}.svg").stat().st_size > 1000
