"""Names that moved: where the shipped strategies live in a source checkout, and the old module
names, which fail with an ImportError naming the new module.

An install maps ``ttr_lab.strategies`` to the repository's top-level ``strategies/`` folder
(pyproject.toml, ``package-dir``); a source checkout on ``PYTHONPATH`` has no install to do that,
so ``ShippedStrategies`` does it. Both finders sit at the end of ``sys.meta_path``: whatever an
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
