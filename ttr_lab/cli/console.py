"""The terminal: a console of its real width (120 columns when piped), and one-line errors."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console

from ttr_lab.core.text import escaped


def make_console() -> Console:
    console = Console()
    if not console.is_terminal:
        console = Console(width=120)
    return console


def fail(exc: Exception) -> NoReturn:
    """Say what went wrong in one line and exit with status 2 (a mistake in the input)."""
    # One line, whatever the message holds (a strategy's multi-line error, a path with a newline).
    text = printable(" ".join(str(exc).split())) or type(exc).__name__
    typer.echo(f"error: {text}", err=True)
    raise typer.Exit(code=2)


def printable(text: str) -> str:
    """``text`` with every control character written as its escape (``\\x1b``): a strategy's
    message or a name from a file must not move the cursor, clear or retitle the terminal."""
    return escaped(text)
