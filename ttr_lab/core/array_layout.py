"""``ArrayLayout``: a compiled kernel's flat ``int64`` array, declared once as named parts.

A game whose rules run as compiled kernels keeps a position in one flat array (a clone is one
copy, a kernel call unboxes one argument). Which slot holds what is declared here once, as an
ordered list of parts ``(name, length rule, meaning)`` (the way ``TensorLayout`` declares the
observation tensor, and OpenSpiel's Kuhn poker observer its pieces), and everything else is
derived from that list: the kernels' integer constants, the offsets of one game's array, the
Python face's fields, a snapshot's plain values and the state rebuilt from them.

The array has two parts:

- the **header**: one slot per scalar, at the same index in every game, so a kernel reads
  ``s[PHASE]`` with ``PHASE`` a compile-time constant;
- the **body**: fields whose length depends on the game (players, tracks, tickets...). A length
  rule is a product of numbers and dimension names (``("players", 9)``); the game's dimensions
  fix it, and the body's offsets follow from the order. A kernel finds a field through the game
  array (``g[S_HANDS]``), whose slot for it is again a constant.

How the Python face reads a part (its ``kind``):

``scalar``  one header slot (``python=bool`` for a flag);
``internal`` a header slot the face does not show (a live length, a cache of the last move);
``fixed``   every entry of a body field, as a list;
``counted`` the first ``s[count]`` entries (``count``: the header slot), a list or a tuple;
``rows``    one row per player, each ``length / rows`` long, row ``p`` holding ``s[counts + p]``
            entries (``count``: the body field of the row lengths), a list of tuples;
``ring``    a ring read from ``s[head]`` for ``s[count]`` entries (``count``: ``"head,count"``),
            a tuple; fields that share a ring are written together (``ring`` groups them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from ttr_lab.core.tensor_layout import TensorLayout

KINDS = ("scalar", "internal", "fixed", "counted", "rows", "ring")


@dataclass(frozen=True)
class Part:
    """One declared part: its name (the kernels' constant is the name in capitals), its length
    rule (a product of numbers and dimension names; header parts are one slot), what it means,
    and how the Python face reads it (``kind``, ``count``, ``python``, ``attr``, ``fill``)."""

    name: str
    length: tuple[int | str, ...]
    meaning: str
    kind: str = "fixed"
    count: str = ""  # the slot or field that says how much of it is live (see the module doc)
    python: type | None = None  # what the face hands out (``container``): int, list, or as given
    attr: str = ""  # the face's attribute name, when it differs from ``name``
    fill: int = 0  # what an assembled state holds where no value is given

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"the part {self.name!r} has an unknown kind {self.kind!r}")
        if self.kind in ("counted", "rows", "ring") and not self.count:
            raise ValueError(f"the {self.kind} part {self.name!r} needs a count")

    @property
    def container(self) -> type:
        """What the face hands out: ``python`` if given, else int for a slot and list for a field."""
        if self.python is not None:
            return self.python
        return int if self.kind in ("scalar", "internal") else list

    @property
    def face_name(self) -> str:
        return self.attr or self.name

    @property
    def annotation(self) -> str:
        """The type of what the face hands out, as the type checker is told it (a state's
        ``StateSlots``): ``int``, ``bool``, ``list[int]``, ``tuple[int, ...]``, or for a ``rows``
        part ``list[tuple[int, ...]]``."""
        if self.kind in ("scalar", "internal"):
            return self.container.__name__
        if self.kind == "rows":
            return "list[tuple[int, ...]]"
        return "list[int]" if self.container is list else "tuple[int, ...]"

    def size(self, dims: Mapping[str, int]) -> int:
        """The length this rule gives with the game's dimensions."""
        try:
            return math.prod(dims[f] if isinstance(f, str) else f for f in self.length)
        except KeyError as missing:
            raise ValueError(f"the part {self.name!r} needs the dimension {missing}") from None

    def rows(self, dims: Mapping[str, int]) -> int:
        """How many rows a ``rows`` part has (its first factor)."""
        first = self.length[0]
        return dims[first] if isinstance(first, str) else first


class ArrayLayout:
    """Header parts at fixed slots, then body parts at offsets that follow from the order and the
    game's dimensions. ``body_prefix`` names the game array's slot holding each body offset."""

    __slots__ = ("header", "body", "parts", "by_name", "body_prefix")

    def __init__(self, header: Iterable[Part], body: Iterable[Part], body_prefix: str = "S_") -> None:
        self.header: tuple[Part, ...] = tuple(header)
        self.body: tuple[Part, ...] = tuple(body)
        self.parts = self.header + self.body
        self.body_prefix = body_prefix
        self.by_name: dict[str, Part] = {}
        for part in self.parts:
            if part.name in self.by_name:
                raise ValueError(f"the part {part.name!r} is declared twice")
            self.by_name[part.name] = part
        for part in self.header:
            if part.length != (1,) or part.kind not in ("scalar", "internal"):
                raise ValueError(f"the header part {part.name!r} must be one scalar or internal slot")
        for part in self.body:
            if part.kind in ("scalar", "internal"):
                raise ValueError(f"the body part {part.name!r} must be a field, not a {part.kind}")
            for named in part.count.split(",") if part.count else ():
                if named not in self.by_name:
                    raise ValueError(f"the part {part.name!r} counts by {named!r}, which is not declared before it")

    @property
    def header_size(self) -> int:
        return len(self.header)

    def slot(self, name: str) -> int:
        """The header slot of a scalar."""
        return self.header.index(self.by_name[name])

    def constants(self) -> dict[str, int]:
        """The kernels' constants: each header slot by its name in capitals."""
        return {part.name.upper(): i for i, part in enumerate(self.header)}

    def offset_slots(self) -> list[tuple[str, int, str]]:
        """The game array's blocks holding the array's total length (``S_SIZE``) and the body's
        offsets (one slot each, ``S_HANDS``...), as ``TensorLayout`` blocks. The length comes
        first, so a field appended to the body adds a slot after every existing one."""
        size = [(f"{self.body_prefix}size".lower(), 1, "the length of the array")]
        return size + [(f"{self.body_prefix}{p.name}".lower(), 1, f"where {p.name} starts") for p in self.body]

    def extended(self, *parts: Part) -> "ArrayLayout":
        """This layout with ``parts`` appended to its body (a field added to a copy, for tests)."""
        return ArrayLayout(self.header, self.body + parts, self.body_prefix)

    def sized(self, dims: Mapping[str, int]) -> TensorLayout:
        """Header and body with this game's lengths: ``offsets[name]``, ``sizes[name]``, ``size``."""
        return TensorLayout(
            [(p.name, 1, p.meaning) for p in self.header] + [(p.name, p.size(dims), p.meaning) for p in self.body]
        )

    def annotations(self) -> dict[str, str]:
        """The face's attribute of every part it shows (all but ``internal`` slots), with its
        type (``Part.annotation``): what a state's declaration for the type checker must say."""
        return {p.face_name: p.annotation for p in self.parts if p.kind != "internal"}

    def describe(self) -> str:
        """The declaration as a Markdown table (slot or length rule, part, kind, meaning)."""
        rows = ["| slot / length | part | read as | meaning |", "|---|---|---|---|"]
        for i, p in enumerate(self.header):
            rows.append(f"| {i} | `{p.name}` | {p.kind} | {p.meaning} |")
        for p in self.body:
            rule = " x ".join(str(f) for f in p.length)
            rows.append(f"| {rule} | `{p.name}` | {p.kind} | {p.meaning} |")
        return "\n".join(rows)


def block_constants(layout: TensorLayout) -> dict[str, int]:
    """A ``TensorLayout``'s offsets as constants (each block's name in capitals)."""
    return {name.upper(): at for name, at in layout.offsets.items()}


def numbered(prefix: str, entries: Sequence[tuple[str, str]], size: str = "") -> dict[str, int]:
    """The constants of a small kernel array of one number per entry (a row's columns, a plan's
    header), declared as ordered ``(name, meaning)`` pairs: ``PREFIX`` + each name in capitals,
    numbered 0, 1, ... in the declared order, and with ``size``, that constant for how many
    there are. A new entry is one pair: the ones after it move up, the size grows."""
    out: dict[str, int] = {}
    for i, (name, _meaning) in enumerate(entries):
        constant = f"{prefix}{name}".upper()
        if constant in out:
            raise ValueError(f"the entry {name!r} is declared twice")
        out[constant] = i
    if size:
        out[size] = len(entries)
    return out
