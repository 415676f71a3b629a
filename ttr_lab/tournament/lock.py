"""One writer per results folder: an exclusive ``flock`` on ``OUTPUT/.lock``.

The kernel drops the lock when its holder dies, however it dies (kill -9 included), so a lock
left by a dead run is stale by construction and the next run simply takes it; a live holder
keeps it, and a second run is refused with a one-line error naming that holder (its pid, host
and start time are written into the file for this message only)."""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from pathlib import Path

from ttr_lab.core.errors import ConfigError

LOCK_NAME = ".lock"


class FolderLock:
    def __init__(self, folder: str | Path, purpose: str) -> None:
        self.path = Path(folder) / LOCK_NAME
        self.purpose = purpose
        self._fd: int | None = None

    def acquire(self) -> "FolderLock":
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _describe(fd)
            os.close(fd)
            raise ConfigError(
                f"output folder {self.path.parent} is in use by another run ({holder}); wait for it to finish "
                "or give another output folder (--out)"
            ) from None
        # Ours now (a holder killed with -9 left its text behind: replace it).
        os.ftruncate(fd, 0)
        info = {"pid": os.getpid(), "host": socket.gethostname(), "purpose": self.purpose,
                "since": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        os.write(fd, json.dumps(info).encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.ftruncate(fd, 0)
            os.close(fd)  # closing drops the flock

    def __enter__(self) -> "FolderLock":
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _describe(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
    except (OSError, ValueError):
        info = {}
    if not info:
        return "a run that is starting"
    return f"{info.get('purpose', 'a run')}, pid {info.get('pid')} on {info.get('host')} since {info.get('since')}"
