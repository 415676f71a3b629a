"""``snapshot()``: the full state, hidden parts included, as a plain JSON-serialisable dict."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.fields import to_plain
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.tables import Phase

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.board import Board
    from ttr_lab.games.ticket_to_ride.slots import StateSlots
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset


# The declared fields a snapshot writes in a form of its own (card names, a dict of claims, a
# count beside its list); every other declared field (``layout.STATE``) follows them as its
# plain numbers under the face's name, and ``restore_state`` reads it back the same way.
SHOWN = frozenset({
    "phase", "player", "final_turns", "passes", "turns", "stalled", "rng", "hands", "known", "pile", "discard",
    "market", "owner", "trains", "points", "tickets", "tickets_n", "offers", "offers_n", "ticket_deck",
    "returned_by", "boxed", "boxed_by", "stations", "stations_built",
})


def plain_parts() -> tuple[Any, ...]:
    """The declared parts a snapshot holds as plain numbers (those ``SHOWN`` does not name)."""
    return _plain_parts(L.STATE)


@functools.lru_cache(maxsize=4)
def _plain_parts(layout: Any) -> tuple[Any, ...]:
    return tuple(p for p in layout.parts if p.kind != "internal" and p.face_name not in SHOWN)


def snapshot(state: "StateSlots") -> dict[str, Any]:
    n = state.tables.num_players
    k = NUM_CARD_KINDS
    names = CARD_NAMES
    discard = []
    for c, count in enumerate(state.discard):
        discard += [names[c]] * count
    snap = {
        "map": state.tables.board.reference,
        "num_players": n,
        "current_player": state.player,
        "phase": Phase(state.phase).name.lower(),
        "hands": [{names[c]: state.hands[p * k + c] for c in range(k)} for p in range(n)],
        "known_cards": [{names[c]: state.known[p * k + c] for c in range(k)} for p in range(n)],
        "market": [names[c] for c in state.market],
        "draw_pile": [names[c] for c in reversed(state.pile)],  # top first
        "discard": discard,  # a multiset: listed in colour order
        "tickets_held": [list(t) for t in state.tickets],
        "offered_tickets": [list(o) for o in state.offers],
        "ticket_deck": list(state.ticket_deck),  # top first
        "ticket_deck_returned_by": list(state.returned_by),  # per position: who put it back, or -1
        "boxed_tickets": list(state.boxed),  # out of the game
        "boxed_by": list(state.boxed_by),  # who rejected each at setup, or -1 (never dealt)
        "trains": list(state.trains),
        "claimed": {str(t): o for t, o in enumerate(state.owner) if o >= 0},
        "route_points": list(state.points),
        "final_round": state.final_turns >= 0,
        "final_turns_left": state.final_turns,
        "passes_in_a_row": state.passes,
        "turns": state.turns,
        "stalled": state.stalled,
        "terminal": state.is_terminal(),
        "rng_state": state.rng,
        "history_length": state.log_len,
    }
    if state.tables.ruleset.stations_per_player:  # only on maps with train stations
        cities = state.tables.board.cities
        snap["stations"] = {cities[c]: o for c, o in enumerate(state.stations) if o >= 0}  # city: owner
        snap["stations_built"] = list(state.stations_built)
    for part in plain_parts():
        snap[part.face_name] = to_plain(part, getattr(state, part.face_name))
    return snap
