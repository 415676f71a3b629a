"""The names of ttr-lab 0.2 that still work in 0.3, each with a DeprecationWarning naming its new
spelling (docs/changelog.md lists them, and what was removed). Nothing here runs at import: each
package's module ``__getattr__`` asks this module only for a name it does not define."""

from __future__ import annotations

import importlib
import warnings

TICKET_TO_RIDE = "ttr_lab.games.ticket_to_ride"

# Ticket to Ride's names the top level re-exported before the games had packages of their own.
OLD_TOP_LEVEL: dict[str, tuple[str, str]] = {"game_for": (TICKET_TO_RIDE, "tables_for")} | {
    name: (TICKET_TO_RIDE, name) for name in (
        "DRAW_BLIND", "DRAW_TICKETS", "PASS", "Action", "Claim", "DrawBlind", "DrawMarket", "DrawTickets",
        "KeepTickets", "Pass", "TicketsKept", "parse_action", "Board", "Ticket", "Track", "available_maps",
        "load_board", "CARD_NAMES", "COLOURS", "GRAY", "LOCOMOTIVE", "TicketToRide", "determinize", "Phase",
        "Observation", "GameResult", "PlayerResult", "TicketResult", "Ruleset", "GameState",
        "new_game", "restore_state",
    )
}

# Names a game package renamed (one vocabulary across games): old -> new, per package.
RENAMED: dict[str, dict[str, str]] = {
    TICKET_TO_RIDE: {"Game": "Tables", "game_for": "tables_for"},
    "ttr_lab.games.trans_orient": {"TOEState": "GameState"},
}


def renamed_name(package: str, name: str) -> object:
    """What a game package's renamed ``name`` now is, with a DeprecationWarning naming it."""
    new = RENAMED.get(package, {}).get(name)
    if new is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    warnings.warn(f"{package}.{name} is deprecated: it is {package}.{new} now", DeprecationWarning, stacklevel=3)
    return getattr(importlib.import_module(package), new)


def old_top_level_name(name: str) -> object:
    """The object an old top-level name stood for, with a DeprecationWarning naming its new import."""
    if name not in OLD_TOP_LEVEL:
        raise AttributeError(f"module 'ttr_lab' has no attribute {name!r}")
    module, new_name = OLD_TOP_LEVEL[name]
    warnings.warn(f"ttr_lab.{name} is deprecated: import it from {module} "
                  f"(from {module} import {new_name})", DeprecationWarning, stacklevel=3)
    return getattr(importlib.import_module(module), new_name)
