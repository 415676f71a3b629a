"""What a benchmark hands back: its figures by name, and the tables and lines that present
them, in order. The command line draws them; a benchmark never prints."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, Union


@dataclass(frozen=True)
class FigureTable:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    right: frozenset[str] = frozenset()  # columns of numbers, aligned right

    @classmethod
    def of(cls, title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[str] = ()) -> "FigureTable":
        return cls(title, tuple(columns), tuple(tuple(r) for r in rows), frozenset(right))


Item = Union[FigureTable, str]  # a table, or a line of text


@dataclass
class BenchResult:
    figures: dict[str, Any] = field(default_factory=dict)
    items: list[Item] = field(default_factory=list)
    # Called with each item as soon as it exists (a benchmark can run for many minutes).
    on_item: Callable[[Item], None] | None = field(default=None, repr=False, compare=False)

    def show(self, item: Item) -> None:
        self.items.append(item)
        if self.on_item is not None:
            self.on_item(item)


def benchmarked(bench: str) -> list[tuple[str, dict[str, Any]]]:
    """The (game, options) the games catalogue says ``bench`` measures (``BENCHMARKED``); the
    house game with its default options where it says nothing."""
    from ttr_lab.core.game import catalogue_entry, default_game

    cases = (catalogue_entry("BENCHMARKED") or {}).get(bench)
    return [(name, dict(options)) for name, options in cases] if cases else [(default_game(), {})]
