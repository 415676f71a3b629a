"""A training run's output folder: ``train`` writes only into a new or empty folder, or into a
training folder of its own, recognised by the marker it writes there before anything else (as a
tournament's results folder is by its meta.json). So a user's own ``config.json`` or ``curve.csv``
in a folder given by mistake is never written over."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ttr_lab.core.errors import ConfigError
from ttr_lab.tournament.lock import LOCK_NAME

MARKER = "ttr-lab-train.json"
CHECKPOINT = "checkpoint.npz"


def check_output_folder(folder: Path) -> None:
    """A folder ``train`` may write into, or a ConfigError saying why not."""
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"output {folder} is a file, not a folder; give a folder (--out)")
    if not folder.is_dir() or (folder / MARKER).is_file():
        return
    # A run from before the marker is known by its checkpoint (which must then load as this run's).
    if (folder / CHECKPOINT).is_file():
        return
    foreign = sorted(p.name for p in folder.iterdir() if p.name not in (LOCK_NAME, MARKER + ".tmp"))
    if foreign:
        shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise ConfigError(f"output folder {folder} is not empty and is not a ttr-lab training folder (it holds "
                          f"{shown} and no {MARKER}); ttr-lab never writes over files it did not write: give a new "
                          "or empty folder (--out)")


def claim(folder: Path, name: str) -> None:
    """Mark ``folder`` as this tool's training folder, before anything else is written there."""
    marker = folder / MARKER
    if marker.is_file():
        return
    tmp = marker.with_name(marker.name + ".tmp")
    tmp.write_text(json.dumps({"written_by": "ttr-lab train", "name": name}) + "\n")
    os.replace(tmp, marker)


def make(folder: Path) -> None:
    """Create ``folder`` (and its parents), or a ConfigError naming why not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot create the output folder {folder}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ConfigError(f"cannot write into the output folder {folder}: permission denied")
