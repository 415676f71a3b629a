"""Map edits: a board with a track removed, added or re-lengthened, or a ticket removed or
re-valued, built from a list of plain edits (the game's ``edits`` option, so an edited map
travels in configs and results like any other option):

    {"remove_track": "Denver-Kansas City black"}     # a track by label or id
    {"track_length": ["Denver-Kansas City black", 5]}
    {"add_track": {"a": "Denver", "b": "Chicago", "length": 6, "colour": "gray"}}   # "tunnel": true makes a tunnel
    {"remove_ticket": "Denver-El Paso (4)"}          # a ticket by label or id
    {"ticket_points": ["Denver-El Paso (4)", 9]}

Edits apply in order; ids are renumbered after a removal (twins follow), so later edits name
tracks and tickets by label, or by the ids of the map as it stands at that point.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

from ttr_lab.core.errors import BoardDataError
from ttr_lab.games.ticket_to_ride.board import Board, Ticket, Track, check_ticket_points
from ttr_lab.games.ticket_to_ride.colours import TRACK_COLOUR_NAMES, track_colour_index

EDIT_KINDS = ("remove_track", "track_length", "add_track", "remove_ticket", "ticket_points")


def _track(board: Board, ref: Any) -> Track:
    if isinstance(ref, int) and not isinstance(ref, bool):
        if not 0 <= ref < len(board.tracks):
            raise BoardDataError(f"map edit: no track {ref} on the {board.name} map ({len(board.tracks)} tracks)")
        return board.tracks[ref]
    for t in board.tracks:
        if t.label == str(ref):
            return t
    raise BoardDataError(f"map edit: no track labelled {ref!r} on the {board.name} map")


def _ticket(board: Board, ref: Any) -> Ticket:
    if isinstance(ref, int) and not isinstance(ref, bool):
        if not 0 <= ref < len(board.tickets):
            raise BoardDataError(f"map edit: no ticket {ref} on the {board.name} map ({len(board.tickets)} tickets)")
        return board.tickets[ref]
    for t in board.tickets:
        if t.label == str(ref):
            return t
    raise BoardDataError(f"map edit: no ticket labelled {ref!r} on the {board.name} map")


def _pair(value: Any, kind: str) -> tuple[Any, int]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise BoardDataError(f"map edit {kind}: give [target, number], got {value!r}")
    try:
        return value[0], int(value[1])
    except (TypeError, ValueError, OverflowError):
        raise BoardDataError(f"map edit {kind}: the number must be an integer, got {value[1]!r}") from None


def _renumber_tracks(board: Board, tracks: Sequence[Track]) -> tuple[Track, ...]:
    """Ids 0.. in order, twins re-found by city pair (a removed twin leaves a single track)."""
    out: list[Track] = []
    pairs: dict[tuple[int, int], list[int]] = {}
    for i, t in enumerate(tracks):
        pairs.setdefault((min(t.a, t.b), max(t.a, t.b)), []).append(i)
    for i, t in enumerate(tracks):
        group = pairs[(min(t.a, t.b), max(t.a, t.b))]
        if len(group) > 2:
            raise BoardDataError(f"map edit: {board.cities[t.a]}-{board.cities[t.b]} would have {len(group)} tracks; "
                                 "at most 2 are supported")
        twin = next((j for j in group if j != i), -1)
        out.append(dataclasses.replace(t, id=i, twin=twin))
    return tuple(out)


def _edit(board: Board, kind: str, value: Any) -> Board:
    tracks, tickets = list(board.tracks), list(board.tickets)
    if kind == "remove_track":
        gone = _track(board, value).id
        tracks = [t for t in tracks if t.id != gone]
    elif kind == "track_length":
        ref, length = _pair(value, kind)
        t = _track(board, ref)
        if not t.ferry_locomotives + t.mountain_spaces <= length < len(board.ruleset.route_scores) or length < 1:
            raise BoardDataError(f"map edit track_length: {t.label} cannot have length {length} "
                                 f"(1..{len(board.ruleset.route_scores) - 1}, at least its ferry and mountain spaces)")
        tracks[t.id] = dataclasses.replace(t, length=length)
    elif kind == "add_track":
        if not isinstance(value, Mapping) or not {"a", "b", "length"} <= set(value):
            raise BoardDataError(f"map edit add_track: give {{a, b, length, colour}}, got {value!r}")
        a, b = board.city(str(value["a"])), board.city(str(value["b"]))
        length = int(value["length"])
        colour = track_colour_index(str(value.get("colour", "gray")))
        tunnel = value.get("tunnel", False)
        if a == b or not 1 <= length < len(board.ruleset.route_scores) or tunnel not in (True, False):
            raise BoardDataError(f"map edit add_track: inconsistent track {dict(value)}")
        label = f"{board.cities[a]}-{board.cities[b]} {TRACK_COLOUR_NAMES[colour]}"
        if any(t.label == label for t in tracks):
            label += "#2"
        tracks.append(Track(len(tracks), a, b, length, colour, label=label, tunnel=bool(tunnel)))
    elif kind == "remove_ticket":
        gone_ticket = _ticket(board, value).id
        tickets = [dataclasses.replace(t, id=i) for i, t in enumerate(t for t in tickets if t.id != gone_ticket)]
    elif kind == "ticket_points":
        ref, points = _pair(value, kind)
        ticket = _ticket(board, ref)
        check_ticket_points(points, "map edit ticket_points")
        tickets[ticket.id] = dataclasses.replace(ticket, points=points,
                                                 label=f"{board.cities[ticket.a]}-{board.cities[ticket.b]} ({points})")
    else:
        raise BoardDataError(f"unknown map edit {kind!r}; edits: {', '.join(EDIT_KINDS)}")
    return dataclasses.replace(board, tracks=_renumber_tracks(board, tracks), tickets=tuple(tickets))


def edit_board(board: Board, edits: Sequence[Mapping[str, Any]]) -> Board:
    """``board`` with ``edits`` applied in order (each a one-key mapping: kind -> value)."""
    if isinstance(edits, (str, Mapping)) or not isinstance(edits, Sequence):
        raise BoardDataError(f"map edits must be a list of {{kind: value}}, got {edits!r}")
    for edit in edits:
        if not isinstance(edit, Mapping) or len(edit) != 1:
            raise BoardDataError(f"a map edit is one {{kind: value}} pair, got {edit!r}")
        ((kind, value),) = edit.items()
        board = _edit(board, str(kind), value)
    return board


def edit_targets(board: Board, kind: str) -> list[tuple[Any, str]]:
    """What a "remove each" study can remove: (edit value, label) of every track or ticket."""
    if kind == "remove_track":
        return [(t.label, t.label) for t in board.tracks]
    if kind == "remove_ticket":
        return [(t.label, t.label) for t in board.tickets]
    raise BoardDataError(f"map edit {kind!r} has no list of targets; those with one: remove_track, remove_ticket")
