"""Names that moved: where the shipped strategies live in a source checkout, and the old module
names, which fail with an ImportError naming the new module.

An install maps ``ttr_lab.strategies`` to the repository's top-level ``strategies/`` folder
(pyproject.toml, ``package-dir``); a source checkout has ``ttr_lab/strategies``, a symbolic link to
that folder (so Python and ``lint-imports`` read the tree as installed), and where a checkout
keeps no links (a file stands in its place) ``ShippedStrategies`` serves the folder instead. Both finders sit at the end of ``sys.meta_path``: whatever an
install provides comes first.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Sequence

STRATEGIES = "ttr_lab.strategies"


class ShippedStrategies(importlib.abc.MetaPathFinder):
    """``ttr_lab.strategies`` from ``folder`` (its submodules then follow the package's path)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != STRATEGIES:
            return None
        return importlib.util.spec_from_file_location(
            fullname, self.folder / "__init__.py", submodule_search_locations=[str(self.folder)])


def install_source_checkout(package: Path) -> None:
    """Serve ``ttr_lab.strategies`` from the checkout's ``strategies/`` folder when ``package``
    (the ``ttr_lab`` folder) is a source checkout's, not an installed one's."""
    folder = package.parent / "strategies"
    if (package / "strategies").is_dir() or not (folder / "__init__.py").is_file():
        return  # installed: ttr_lab/strategies is a real folder (or no checkout around it)
    if not any(isinstance(f, ShippedStrategies) for f in sys.meta_path):
        sys.meta_path.append(ShippedStrategies(folder))


# Modules that moved, by old name: importing one fails with an ImportError naming the new one.
MOVED_MODULES: dict[str, str] = {
    "ttr_lab.board": "ttr_lab.games.ticket_to_ride.board",
    "ttr_lab.colours": "ttr_lab.games.ticket_to_ride.colours",
    "ttr_lab.maps": "ttr_lab.games.ticket_to_ride.maps",
    "ttr_lab.replay": "ttr_lab.games.ticket_to_ride.replay",
    "ttr_lab.ruleset": "ttr_lab.games.ticket_to_ride.ruleset",
    "ttr_lab.rules": "ttr_lab.games.ticket_to_ride",
    "ttr_lab.rules.actions": "ttr_lab.games.ticket_to_ride.actions",
    "ttr_lab.rules.determinize": "ttr_lab.games.ticket_to_ride.determinize",
    "ttr_lab.rules.game": "ttr_lab.games.ticket_to_ride.tables",
    "ttr_lab.rules.history": "ttr_lab.core.history",
    "ttr_lab.rules.observation": "ttr_lab.games.ticket_to_ride.observation",
    "ttr_lab.rules.result": "ttr_lab.games.ticket_to_ride.result",
    "ttr_lab.rules.scoring": "ttr_lab.games.ticket_to_ride.scoring",
    "ttr_lab.rules.snapshot": "ttr_lab.games.ticket_to_ride.snapshot",
    "ttr_lab.rules.state": "ttr_lab.games.ticket_to_ride.state",
    "ttr_lab.rules.views": "ttr_lab.games.ticket_to_ride.views",
    "ttr_lab.analysis.board_plot": "ttr_lab.games.ticket_to_ride.drawing",
    "ttr_lab.games.ticket_to_ride.definition": "ttr_lab.games.ticket_to_ride.game",
    "ttr_lab.games.ticket_to_ride.history": "ttr_lab.core.history",
    "ttr_lab.games.trans_orient.definition": "ttr_lab.games.trans_orient.game",
    "ttr_lab.games.trans_orient.history": "ttr_lab.core.history",
    "ttr_lab.errors": "ttr_lab.core.errors",
    "ttr_lab.play": "ttr_lab.core.play",
    "ttr_lab.record": "ttr_lab.core.record",
    "ttr_lab.rng": "ttr_lab.core.rng",
    "ttr_lab.strategy": "ttr_lab.core.strategy",
    "ttr_lab.testing": "ttr_lab.core.testing",
    "ttr_lab.config_files": "ttr_lab.tournament.config_files",
    "ttr_lab.core.config_files": "ttr_lab.tournament.config_files",
    "ttr_lab.console": "ttr_lab.cli.console",
    "ttr_lab.bench_strength": "ttr_lab.bench.strength",
    "ttr_lab.bench_tournament": "ttr_lab.bench.tournament",
    "strategies": STRATEGIES,
    "strategies.registry": "ttr_lab.core.registry",
}


class MovedModules(importlib.abc.MetaPathFinder):
    """Asked last, so only for a module nothing else found: a moved one fails naming its new
    module; a shipped strategy's old name (``strategies.greedy``) names ``ttr_lab.strategies.greedy``."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = MOVED_MODULES.get(fullname)
        if new is None and fullname.startswith("strategies."):
            new = f"ttr_lab.{fullname}"
        if new is None:
            return None
        inside = [f"{old} is {MOVED_MODULES[old]}" for old in MOVED_MODULES if old.startswith(fullname + ".")]
        hint = f" ({'; '.join(inside)})" if inside else ""
        raise ModuleNotFoundError(f"No module named {fullname!r}: it moved to {new!r}{hint}", name=fullname)


def install_moved_modules() -> None:
    if not any(isinstance(f, MovedModules) for f in sys.meta_path):
        sys.meta_path.append(MovedModules())


# Ticket to Ride's names the top level used to re-export: each still works, with a
# DeprecationWarning naming the import to use instead. The top level keeps the core's names.
TICKET_TO_RIDE = "ttr_lab.games.ticket_to_ride"
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
    import warnings

    new = RENAMED.get(package, {}).get(name)
    if new is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    warnings.warn(f"{package}.{name} is deprecated: it is {package}.{new} now", DeprecationWarning, stacklevel=3)
    return getattr(importlib.import_module(package), new)


def old_top_level_name(name: str) -> object:
    """The object an old top-level name stood for, with a DeprecationWarning naming its new import."""
    import warnings

    if name not in OLD_TOP_LEVEL:
        raise AttributeError(f"module 'ttr_lab' has no attribute {name!r}")
    module, new_name = OLD_TOP_LEVEL[name]
    warnings.warn(f"ttr_lab.{name} is deprecated: import it from {module} "
                  f"(from {module} import {new_name})", DeprecationWarning, stacklevel=3)
    return getattr(importlib.import_module(module), new_name)
