"""Where ``ttr-lab play --record`` writes its game record: checked before the game starts (a
person's game can take an hour, and a path found bad after it would lose it), and written so that
a write failing at the end still leaves the record somewhere, named."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Callable

from ttr_lab.core.errors import ConfigError, TTRLabError
from ttr_lab.core.record import GameRecord

# A file larger than this is no game record ttr-lab wrote (records are some 100 KB): it is refused
# without being read.
RECORD_BYTES = 64 * 2**20


def generated_name(folder: Path) -> Path:
    """A new record's path in ``folder``: game-DATE-TIME.json, numbered if that is taken."""
    stem = time.strftime("game-%Y%m%d-%H%M%S")
    path, n = folder / f"{stem}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.json"
    return path


def record_target(path: Path | None, say: Callable[[str], None]) -> Path | None:
    """The file the record goes to: ``path``, or a new file inside it when it is a folder (said
    with ``say``); a ConfigError if the record could not be written there."""
    if path is None:
        return None
    if path.is_dir():
        if not os.access(path, os.W_OK):
            raise ConfigError(f"--record {path}: the folder {path} is not writable")
        target = generated_name(path)
        say(f"--record {path} is a folder: the record will be saved in it as {target.name}")
        return target
    if not path.parent.is_dir():
        raise ConfigError(f"--record {path}: the folder {path.parent} does not exist")
    if not os.access(path.parent, os.W_OK):
        raise ConfigError(f"--record {path}: the folder {path.parent} is not writable")
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise ConfigError(f"--record {path}: it exists and is not a file")
        _check_replaceable(path)
    return path


def _check_replaceable(path: Path) -> None:
    """Refuse to write over a file unless it is a game record (ttr-lab's own, replaced as asked)."""
    try:
        ours = path.stat().st_size <= RECORD_BYTES and os.access(path, os.W_OK)
        if ours:
            GameRecord.load(path)
    except (OSError, ValueError, TTRLabError):
        ours = False
    if not ours:
        raise ConfigError(f"--record {path}: the file exists and is not a game record ttr-lab can replace; "
                          "ttr-lab never writes over files it did not write: give a new path or a folder")


def save_record(record: GameRecord, path: Path, say: Callable[[str], None]) -> Path | None:
    """Write ``record`` to ``path``, else (the disk filled, the folder went away) to a new file in
    the working folder or the temporary one, saying where in one line. The path written, or None
    if nowhere would take it (also said)."""
    text = record.to_json(pretty=True) + "\n"
    try:
        _write(path, text)
        return path
    except OSError as exc:
        failure = f"cannot write the record to {path} ({type(exc).__name__}: {exc.strerror or exc})"
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        fallback = generated_name(folder)
        try:
            _write(fallback, text)
        except OSError:
            continue
        say(f"{failure}; it is saved to {fallback} instead")
        return fallback
    say(f"{failure}, nor to the working or the temporary folder; the record is lost")
    return None


def _write(path: Path, text: str) -> None:
    """Write beside then rename: a failure midway leaves no half record (nor half of the file replaced)."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
