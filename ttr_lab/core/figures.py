"""Two matplotlib helpers every layer that draws shares (matplotlib is imported only when used)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def new_figure(width: float = 10.0, height: float = 6.0) -> "Figure":
    """A bare Figure (no pyplot): no global state, no GUI backend, safe in worker processes."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def png_bytes(fig: "Figure", dpi: int = 110) -> bytes:
    import io

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()
