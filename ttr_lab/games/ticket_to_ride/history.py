"""The public history: an immutable linked list of events, shared by every clone of a state.

Each node is ``(player, action, card, previous_node)``; appending is O(1) and cloning a state
copies one reference, however long the game. ``action`` is the public form of what was played
(a keep appears as ``TicketsKept(count)``), ``card`` the colour index taken by ``draw market``
(public at the table) and -1 otherwise.
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
