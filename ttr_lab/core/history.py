"""A game's public history: an immutable linked list of events, shared by every clone of a state.

Each node is ``(player, public action, detail, previous node)``; appending is O(1) and cloning a
state copies one reference, however long the game. What ``public action`` hides and what
``detail`` holds is the game's to say (Ticket to Ride: a keep shows as ``TicketsKept(count)``,
the detail is the colour taken from the market or -1; Trans-Orient Express: a luggage keep is
hidden, the detail is the travel card moved or 0).
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Event(NamedTuple):
    player: int
    action: Any
    card: int


def unroll(node: Any) -> list[Event]:
    """The events of a history node, oldest first."""
    out = []
    while node is not None:
        out.append(Event(node[0], node[1], node[2]))
        node = node[3]
    out.reverse()
    return out


def unroll_kinds(node: Any, kinds: tuple[type, ...]) -> list[Event]:
    """The events of a history node whose public action is of one of ``kinds`` (exactly, not a
    subclass), oldest first: cheaper than ``unroll`` when those are few among many."""
    out = []
    while node is not None:
        if type(node[1]) in kinds:
            out.append(Event(node[0], node[1], node[2]))
        node = node[3]
    out.reverse()
    return out
