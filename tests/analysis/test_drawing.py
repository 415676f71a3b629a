"""The report's figures drawn in worker processes: the same files as drawn one after another."""

from __future__ import annotations

from ttr_lab.analysis.drawing import Drawing
from ttr_lab.core.figures import new_figure


def _figures():
    out = []
    for n in range(4):
        fig = new_figure(2, 1.5)
        fig.add_subplot().plot(range(n + 2))
        out.append((f"line{n}", fig))
    return out


def _drawn(folder, workers):
    with Drawing(_figures(), folder, workers) as drawing:
        return drawing.images()


def test_figures_drawn_in_two_processes_are_the_ones_drawn_here(tmp_path):
    here = _drawn(tmp_path / "serial", 1)
    spread = _drawn(tmp_path / "spread", 2)
    assert spread == here and list(spread) == [f"line{n}" for n in range(4)]
    for n in range(4):
        assert (tmp_path / "spread" / f"line{n}.svg").stat().st_size > 1000


def test_drawing_goes_on_beside_other_work_and_an_error_there_stops_it(tmp_path):
    import multiprocessing

    import pytest

    with Drawing(_figures(), tmp_path / "beside", workers=2) as drawing:
        assert len(multiprocessing.active_children()) == 2  # started before images() is asked for
        images = drawing.images()
    assert list(images) == [f"line{n}" for n in range(4)] and not multiprocessing.active_children()
    with pytest.raises(RuntimeError, match="the tables failed"):
        with Drawing(_figures(), tmp_path / "stopped", workers=2):
            raise RuntimeError("the tables failed")
    assert not multiprocessing.active_children()
