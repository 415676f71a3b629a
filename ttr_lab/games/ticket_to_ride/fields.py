"""The state's fields as Python values, derived from its declaration (``kernels.layout.STATE``).

Each declared part gets a property on ``GameState`` (``install``), a slot in ``Fields`` (every
field at once) and a keyword of ``assemble_state``; how a part is read is its declared ``kind``
(``core.array_layout``). A read hands out fresh Python values, so nothing a caller does to them
reaches the game; a write puts them back and drops the cached result.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import numpy as np

from ttr_lab.core.array_layout import ArrayLayout, Part
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.game_array import game_array

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.tables import Tables

# Scalars the face reads through a property of its own (``GameState.rng``: a uint64's bits).
OWN_PROPERTY = frozenset({"rng"})


def field_rooms(game: "Tables") -> dict[str, tuple[int, int]]:
    """Per body field of ``game``'s state: where it starts and its room (per row, for rows)."""
    dims = L.dims_of(game_array(game))
    sized = L.STATE.sized(dims)
    return {
        p.name: (sized.offsets[p.name], sized.sizes[p.name] // (p.rows(dims) if p.kind == "rows" else 1))
        for p in L.STATE.body
    }


def _ring_parts(part: Part) -> tuple[Part, ...]:
    return tuple(q for q in L.STATE.body if q.kind == "ring" and q.count == part.count)


def _scalar(part: Part) -> tuple[Callable[[Any], Any], Callable[[Any, Any], None]]:
    index, python = L.STATE.slot(part.name), part.container
    # ``item`` hands out a Python int without a numpy scalar between: read at every move.
    if python is int:
        def get(self: Any) -> Any:
            return self.s.item(index)
    else:
        def get(self: Any) -> Any:
            return python(self.s.item(index))

    def put(self: Any, value: Any) -> None:
        self.s[index] = int(value)
        self.scored = None

    return get, put


def _fixed(part: Part) -> tuple[Callable[[Any], Any], Callable[[Any, Any], None]]:
    name = part.name

    def get(self: Any) -> Any:
        at, count = self.face.fields[name]
        return self.s[at:at + count].tolist()

    def put(self: Any, values: Any) -> None:
        at, count = self.face.fields[name]
        if len(values) != count:
            raise ValueError(f"{name} holds {count} numbers, not {len(values)}")
        self.s[at:at + count] = values
        self.scored = None

    return get, put


def _counted(part: Part) -> tuple[Callable[[Any], Any], Callable[[Any, Any], None]]:
    """A field whose length the state keeps in a header slot (the pile, the market...)."""
    name, python, count_slot = part.name, part.container, L.STATE.slot(part.count)

    def get(self: Any) -> Any:
        at = self.face.fields[name][0]
        values = self.s[at:at + int(self.s[count_slot])].tolist()
        return values if python is list else python(values)

    def put(self: Any, values: Any) -> None:
        at, room = self.face.fields[name]
        if len(values) > room:
            raise ValueError(f"{name} has room for {room}, not {len(values)}")
        self.s[at:at + len(values)] = values
        self.s[count_slot] = len(values)
        self.scored = None

    return get, put


def _rows(part: Part) -> tuple[Callable[[Any], Any], Callable[[Any, Any], None]]:
    """Tickets held or on offer: a tuple per player, its length in another field."""
    name, counts_of = part.name, part.count

    def get(self: Any) -> Any:
        at, room = self.face.fields[name]
        counts = self.s[self.face.fields[counts_of][0]:][:self.face.tables.num_players].tolist()
        flat = self.s[at:at + room * len(counts)].tolist()
        return [tuple(flat[p * room:p * room + c]) for p, c in enumerate(counts)]

    def put(self: Any, values: Any) -> None:
        at, room = self.face.fields[name]
        for p, row in enumerate(values):
            if len(row) > room:
                raise ValueError(f"{name} of player {p} has room for {room}, not {len(row)}")
            self.s[at + p * room:at + p * room + len(row)] = row
            self.s[self.face.fields[counts_of][0] + p] = len(row)
        self.scored = None

    return get, put


def _ring(part: Part) -> tuple[Callable[[Any], Any], Callable[[Any, Any], None]]:
    """The ticket deck (top first) or, per deck position, who put that ticket back: one ring in
    the array, read from its head; the parts sharing a ring are written together."""
    name = part.name
    head_slot, count_slot = (L.STATE.slot(c) for c in part.count.split(","))
    partners = _ring_parts(part)

    def get(self: Any) -> Any:
        at, room = self.face.fields[name]
        head, count = int(self.s[head_slot]), int(self.s[count_slot])
        if head + count <= room:
            return tuple(self.s[at + head:at + head + count].tolist())
        ring = self.s[at:at + room].tolist()
        return tuple(ring[head:] + ring[:head + count - room])

    def put(self: Any, values: Any) -> None:
        # The first part sets the ring's length; a partner whose values no longer fit it starts
        # afresh from its fill (a new deck: nobody has put any of it back).
        length = len(values) if part is partners[0] else int(self.s[count_slot])
        rows = {}
        for q in partners:
            row = values if q is part else getattr(self, q.face_name)
            rows[q.name] = row if len(row) == length else (q.fill,) * length
        room = self.face.fields[partners[0].name][1]
        if length > room:
            raise ValueError(f"the {partners[0].name} ring has room for {room}, not {length}")
        for q in partners:
            q_at = self.face.fields[q.name][0]
            self.s[q_at:q_at + length] = rows[q.name]
        self.s[head_slot] = 0
        self.s[count_slot] = length
        self.scored = None

    return get, put


_ACCESSORS = {"scalar": _scalar, "fixed": _fixed, "counted": _counted, "rows": _rows, "ring": _ring}


def _property(part: Part) -> property:
    get, put = _ACCESSORS[part.kind](part)
    return property(get, put, doc=part.meaning[:1].upper() + part.meaning[1:] + ".")


def install(cls: type) -> None:
    """Give ``cls`` (whose instances hold ``s``, ``face`` and ``scored``) a property per declared
    field, unless the class defines its own."""
    for part in L.STATE.parts:
        if part.kind != "internal" and part.name not in OWN_PROPERTY and part.face_name not in vars(cls):
            setattr(cls, part.face_name, _property(part))


def face_names() -> list[str]:
    """The names the face gives the declared parts (``internal`` slots have none)."""
    return [p.face_name for p in L.STATE.parts if p.kind != "internal"]


def _reader(part: Part) -> Callable[[list[int], Mapping[str, tuple[int, int]], int], Any]:
    """How ``Fields`` reads ``part`` off the whole state as one list ``v``."""
    name, python = part.name, part.container
    if part.kind == "scalar":
        index = L.STATE.slot(name)
        return lambda v, f, n: python(v[index])
    if part.kind == "fixed":
        return lambda v, f, n: v[f[name][0]:f[name][0] + f[name][1]]
    if part.kind == "counted":
        count_slot = L.STATE.slot(part.count)
        return lambda v, f, n: python(v[f[name][0]:f[name][0] + v[count_slot]])
    if part.kind == "rows":
        counts_of = part.count

        def rows(v: list[int], f: Mapping[str, tuple[int, int]], n: int) -> Any:
            (at, room), c_at = f[name], f[counts_of][0]
            return [tuple(v[at + p * room:at + p * room + v[c_at + p]]) for p in range(n)]
        return rows
    head_slot, count_slot = (L.STATE.slot(c) for c in part.count.split(","))

    def ring(v: list[int], f: Mapping[str, tuple[int, int]], n: int) -> Any:
        (at, room), head, count = f[name], v[head_slot], v[count_slot]
        if head + count <= room:
            return tuple(v[at + head:at + head + count])
        whole = v[at:at + room]
        return tuple(whole[head:] + whole[:head + count - room])
    return ring


@functools.lru_cache(maxsize=4)
def _readers(layout: ArrayLayout) -> list[tuple[str, Callable[[list[int], Mapping[str, tuple[int, int]], int], Any]]]:
    """``Fields``' readers of ``layout`` (the declaration in force: a test may extend it)."""
    return [(p.face_name, _reader(p)) for p in layout.parts if p.kind != "internal" and p.name not in OWN_PROPERTY]


class Fields:
    """Every field of a position as plain Python values, read off the array in one pass, for
    tools and tests that read many fields at once (a field of the state itself is a fresh read
    each time it is asked; the observation reads its own row, ``kernels/observe.py``)."""

    def __init__(self, face: Any, s: np.ndarray) -> None:
        v, f, n = s.tolist(), face.fields, face.tables.num_players
        for name, read in _readers(L.STATE):
            setattr(self, name, read(v, f, n))

    if TYPE_CHECKING:
        def __getattr__(self, name: str) -> Any: ...


def to_plain(part: Part, value: Any) -> Any:
    """A field's value as JSON holds it (lists, not tuples)."""
    if part.kind == "rows":
        return [list(row) for row in value]
    return list(value) if isinstance(value, (list, tuple)) else value


def from_plain(part: Part, value: Any) -> Any:
    """``to_plain``'s value read back as the face hands it out."""
    if part.kind == "rows":
        return [tuple(int(x) for x in row) for row in value]
    if part.kind == "scalar":
        return part.container(value)
    return part.container(int(x) for x in value)
