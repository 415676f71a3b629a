"""The matplotlib helpers every layer that draws shares (matplotlib is imported only when used)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def new_figure(width: float = 10.0, height: float = 6.0) -> "Figure":
    """A bare Figure (no pyplot): no global state, no GUI backend, safe in worker processes."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


NO_SCORED_GAME = "no game was played out (every game forfeited)"


def no_data_figure(message: str = NO_SCORED_GAME, width: float = 7.0) -> "Figure":
    """A figure that says in words why there is nothing to draw (e.g. every game was forfeited),
    rather than an empty set of axes collapsed to no height."""
    fig = new_figure(width, 1.2)
    ax = fig.add_subplot()
    ax.text(0.5, 0.5, message, ha="center", va="center")
    ax.set_axis_off()
    return fig


def png_bytes(fig: "Figure", dpi: int = 110) -> bytes:
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()
