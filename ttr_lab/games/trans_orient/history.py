"""The public history: an immutable linked list of events, shared by every clone of a state.

Each node is ``(player, public action, travel card, previous node)``; appending is O(1) and a
clone copies one reference. The public action hides a luggage keep (``LuggageKept``); the card
is the travel card a take, a play or a give-back moved (0 for none).
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
