"""How ``--help`` reads: value names in capitals (``--games INTEGER``, ``CONFIG``), nothing beside
an on/off flag, and docstrings reflowed so a line break in the source is not one on the screen.

Typer labels every parameter with its Python type (``<bool>`` beside ``--help``, ``{config}`` in the
usage line); the command and group classes here give each parameter a plainer label instead."""

from __future__ import annotations

import errno
import re
from typing import Any, Optional

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

# Contexts and parameters are typed Any: typer ships its own copy of click, whose classes these are.

# Python's type names as a command line user reads them (click's own words).
_WORDS = {"int": "INTEGER", "float": "FLOAT", "str": "TEXT", "Path": "PATH", "path": "PATH"}


def _label(param: Any, ctx: Any) -> str:
    shown = TyperOption.display_type(param, ctx).strip("<>")
    element = shown[5:-1] if shown.startswith("list[") else shown
    if "|" in element:  # a choice: its values are typed as shown
        return f"[{element}]"
    return _WORDS.get(element, element.upper())


class _Option(TyperOption):
    def display_type_rich(self, ctx: Any) -> Optional[str]:
        if self.is_flag or self.count:
            return None  # --records/--no-records takes no value: a type beside it misleads
        if self.metavar is not None:
            return self.metavar
        return _label(self, ctx)

    def display_type(self, ctx: Any) -> str:
        shown = self.display_type_rich(ctx)
        return shown or ""


class _Argument(TyperArgument):
    def display_type_rich(self, ctx: Any) -> Optional[str]:
        return None  # the argument's own name (CONFIG) already says what it is

    @property
    def display_name_raw(self) -> str:  # CONFIG in the usage line, the table and errors alike
        return (self.metavar or self.name or "").upper()

    def _rich_display_name(self) -> str:
        return self.display_name_raw + ("..." if self.nargs != 1 else "")

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")


def _plain_labels(params: list[Any]) -> list[Any]:
    for param in params:
        if type(param) is TyperOption:
            param.__class__ = _Option
        elif type(param) is TyperArgument:
            param.__class__ = _Argument
    return params


def reflow(text: Optional[str]) -> Optional[str]:
    """A docstring's paragraphs each on one line: the terminal wraps them at its own width."""
    if text is None:
        return None
    paragraphs = re.split(r"\n\s*\n", text.strip())
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


class Command(TyperCommand):
    """A command whose help uses plain value names and reflowed text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = reflow(self.help)
        self.short_help = reflow(self.short_help)

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_labels(super().get_params(ctx))

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as exc:
            if exc.errno not in _NOT_ALLOWED or exc.filename is None:
                raise
            # A read-only folder (a resume, a report, a copy on read-only media): the file and
            # the reason, in one line; files stored before are untouched.
            from ttr_lab.cli.console import fail

            fail(OSError(f"cannot write {exc.filename}: {exc.strerror} (a read-only folder?); nothing stored was "
                         "changed: give a folder this user may write to"))


# Errors that say this user may not change a file, not that the data is wrong.
_NOT_ALLOWED = {errno.EACCES, errno.EPERM, errno.EROFS}


class Group(TyperGroup):
    """A group of commands whose help, and its commands' help, reads like ``Command``'s."""

    command_class = Command

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = reflow(self.help)

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_labels(super().get_params(ctx))
