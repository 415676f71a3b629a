"""The terminal console for reports: real width on a terminal, 120 columns when piped."""

from __future__ import annotations

from rich.console import Console


def make_console() -> Console:
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)
    return console
