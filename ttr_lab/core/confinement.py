"""The operating system's boundaries around a strategy's process (``core.isolation``'s children).

A separate process alone keeps a strategy away from the engine's objects, not from the engine's
process: as the same user it may signal any process of the run (kill the other seat's) and, as
root, read the engine's memory through ``/proc/<pid>/mem``. So, on Linux, each child:

- runs as a user of its own when the run has the rights to switch (root): no other process of
  the run shares its user, so it can signal none of them and trace none of them;
- sets no-new-privileges (``PR_SET_NO_NEW_PRIVS``): nothing it executes gains rights;
- is not dumpable, and the engine's process is made not dumpable either, so a process of the
  same user cannot read their memory;
- has resource limits (address space, open files, core dumps; processes when it has a user of
  its own, whose count is then its alone);
- leads a session of its own (``setsid``), and the engine ends that session, and every process
  of the child's user, when it stops the child: nothing a strategy started outlives it.

Where the machine does not allow a boundary, ``missing()`` says so, in one line per boundary.
"""

from __future__ import annotations

import ctypes
import os
import signal
import stat
import sys
import tempfile
from pathlib import Path

from ttr_lab.core.compiled import MARKER, cache_folder

MEMORY_BYTES = 4 << 30  # address space: search trees fit, a runaway allocation does not
OPEN_FILES = 256
FILE_BYTES = 256 << 20  # the largest file it may write: past it a write fails (EFBIG), named
PROCESSES = 64  # threads count too (numpy's, numba's)

_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_SET_KEEPCAPS, _PR_SET_NO_NEW_PRIVS = 1, 4, 8, 38
# Where anyone may write: what a child of its own user left there is removed after it.
_SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")
_CAP_DAC_READ_SEARCH = 2
# Children's users: far above any account's uid, and below (uid_t)-1.
_UID_BASE, _UID_SPAN = 1_500_000_000, 2_000_000_000
_UID_BLOCK = 256  # uids a process claims from the ledger at a time
# The machine's ledger of children's uids handed out (the next free one), shared by every run's
# processes (Ray's workers too), so none hands out a uid another has: where only root writes.
LEDGER = Path("/run/ttr-lab-uids") if os.access("/run", os.W_OK) else Path(tempfile.gettempdir(), "ttr-lab-uids")
_block = [0, 0]  # this process's claimed uids: the next one, the end of the block
_handed: set[int] = set()  # every uid this process handed out: never again in its lifetime


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def _prctl(option: int, value: int) -> bool:
    libc = _libc()
    return libc is not None and libc.prctl(option, value, 0, 0, 0) == 0


def can_switch_user() -> bool:
    return sys.platform.startswith("linux") and os.geteuid() == 0


def next_uid() -> int | None:
    """A user id for a new child, or None when this process cannot switch users. No process of
    the machine runs as it, this process never handed it out before, and no other process of any
    run had it from the machine's ledger (until 2,000,000,000 children later): a child can never
    share its user with another entrant's child, live or recent (a user shared is a right to
    signal the other's processes and to read its files)."""
    if not can_switch_user():
        return None
    live = _live_uids()
    while True:
        if _block[0] >= _block[1]:
            start = _claim(_UID_BLOCK)
            _block[:] = [start, start + _UID_BLOCK]
        uid = _UID_BASE + _block[0] % _UID_SPAN
        _block[0] += 1
        if uid not in live and uid not in _handed:
            _handed.add(uid)
            return uid


def _claim(count: int) -> int:
    """The first of ``count`` uid numbers claimed from the machine's ledger (locked while read
    and written); a ledger that is not this user's own file is replaced, one that cannot be used
    at all gives a random block (the checks of ``next_uid`` still hold)."""
    import fcntl
    import secrets

    for _ in range(3):
        try:
            fd = os.open(LEDGER, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError:
            fd = -1
        if fd >= 0:
            info = os.fstat(fd)
            if (stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid() and info.st_nlink == 1
                    and not info.st_mode & 0o077):
                break
            os.close(fd)
        try:  # another user's file (or a link) in its place: not a ledger to trust
            os.unlink(LEDGER)
        except OSError:
            pass
    else:
        return secrets.randbelow(_UID_SPAN)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        text = os.pread(fd, 32, 0).strip()
        start = int(text) % _UID_SPAN if text.isdigit() else 0
        os.pwrite(fd, f"{(start + count) % _UID_SPAN:<20d}\n".encode(), 0)
    finally:
        os.close(fd)
    return start


def _live_uids() -> set[int]:
    """The real user ids of every process of the machine (from ``/proc``: a child that is not
    dumpable shows root as the owner of its folder, not its user)."""
    out: set[int] = set()
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/status", "rb") as f:
                    out.update(int(line.split()[1]) for line in f if line.startswith(b"Uid:"))
            except (OSError, ValueError, IndexError):
                continue
    return out


def readable_by_anyone() -> bool:
    """Whether a user without rights can read the interpreter and the import path (else a child
    of its own user keeps the right to read files, and only that: ``_keep_read_rights``)."""
    paths = [Path(sys.executable).resolve(), Path(sys.base_prefix).resolve(), *(Path(p) for p in sys.path if p)]
    for path in paths:
        for folder in [*reversed(path.parents), path]:
            try:
                mode = folder.stat().st_mode
            except OSError:
                break
            if stat.S_ISDIR(mode) and not mode & stat.S_IXOTH:
                return False
    return True


def protect_parent() -> None:
    """Make this (the engine's) process not dumpable: no process of the same user reads its memory."""
    _prctl(_PR_SET_DUMPABLE, 0)


def missing() -> list[str]:
    """One line per boundary this machine does not give a strategy's process."""
    if _libc() is None:
        return ["isolation: not Linux: strategies' processes run as this user, without no-new-privileges or "
                "resource limits; a strategy could signal the other seats' processes"]
    out = []
    if not can_switch_user():
        out.append("isolation: not root, so strategies' processes run as this user: a strategy could signal "
                   "the other seats' processes (run as root to give each process a user of its own)")
    elif not readable_by_anyone():
        out.append(f"isolation: the interpreter ({sys.base_prefix}) is readable only by root, so each strategy's "
                   "process keeps the right to read (never write) every file")
    return out


def confine(uid: int | None, parent: int = -1) -> None:
    """In the child, before any strategy code runs: limits, its own user, no new privileges, and
    death with ``parent`` (the engine's process; -1: not asked), however the engine ends."""
    import resource  # POSIX only: this module also loads where it has nothing to confine

    for limit, value in ((resource.RLIMIT_AS, MEMORY_BYTES), (resource.RLIMIT_NOFILE, OPEN_FILES),
                         (resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, FILE_BYTES)):
        _lower(limit, value)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, the process lives
    if uid is not None:
        keep_read = not readable_by_anyone()
        if keep_read:
            _prctl(_PR_SET_KEEPCAPS, 1)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
        if keep_read:
            _keep_read_rights()
        _lower(resource.RLIMIT_NPROC, PROCESSES)  # counted per user: this user is the child's alone
    _prctl(_PR_SET_NO_NEW_PRIVS, 1)
    _prctl(_PR_SET_DUMPABLE, 0)
    if parent > 0:  # after the change of user, which clears it; SIGKILL: no strategy can catch it
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the engine died before that: nothing will send it
            os._exit(1)


def private_temp(uid: int | None) -> str:
    """A temporary folder of the child's own (its ``TMPDIR``), removed with ``remove_files``."""
    folder = tempfile.mkdtemp(prefix="ttr-lab-child-")
    if uid is not None:
        os.chown(folder, uid, uid)
    return folder


def remove_files(folder: str | None, uid: int | None) -> None:
    """Remove the child's temporary folder and, with a user of its own (its processes all ended),
    whatever that user left where anyone may write (``/tmp``, ``/var/tmp``, ``/dev/shm``)."""
    import shutil

    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
    if uid is None:
        return  # the run's own user: its files cannot be told from the child's
    for shared in _SHARED_FOLDERS:
        try:
            entries = list(os.scandir(shared))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)  # never follows a link (fd-based)
                else:
                    os.unlink(entry.path)
            except OSError:
                continue


def _lower(limit: int, value: int) -> None:
    import resource

    soft, hard = resource.getrlimit(limit)
    value = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(limit, (value, value))


def _keep_read_rights() -> None:
    """Of root's capabilities, keep only reading files (CAP_DAC_READ_SEARCH): the interpreter lives
    where only root can read. Not signalling, not tracing: those are other capabilities."""

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]

    header = Header(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (Data * 2)()
    data[0].effective = data[0].permitted = 1 << _CAP_DAC_READ_SEARCH
    libc = _libc()
    if libc is None or libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


def end_all(pid: int, uid: int | None) -> None:
    """End the child's session (``pid`` leads it) and, with its own user, every process of that
    user: what a strategy started, even in a session of its own, ends with its process."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if uid is None:
        return
    killer = os.fork()
    if killer == 0:  # pragma: no cover - the forked child only switches user and signals
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)  # every process of this user (never the caller)
        except BaseException:  # noqa: BLE001 - nothing of that user is left, or nothing to do
            pass
        os._exit(0)
    os.waitpid(killer, 0)


_COPY_PREFIX = "ttr-lab-kernels-"  # then the pid of the process that made the copy


def _package_folders() -> set[str]:
    """The source folders of the ``ttr_lab`` package, the linked strategies included."""
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return {folder for folder, subfolders, _ in os.walk(top, followlinks=True)
            if "__pycache__" not in folder.split(os.sep)}


def _sweep_orphaned_copies() -> None:
    """Remove the copies made by processes that are gone (a killed Ray worker never closes its
    children): each is named after the pid that made it. Best effort."""
    import shutil

    temp = tempfile.gettempdir()
    for name in os.listdir(temp):
        pid = name[len(_COPY_PREFIX):].split("-", 1)[0]
        if not name.startswith(_COPY_PREFIX) or not pid.isdigit():
            continue
        path = os.path.join(temp, name)
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)  # what /tmp lets this user remove
        except OSError:
            continue  # alive, under another user


def compiled_cache(uid: int | None) -> str | None:
    """For a child of its own user: a private copy of the compiled-kernel caches (numba's
    ``*.nbi`` and ``*.nbc``) of every module this process has loaded and of every folder of the
    package (the strategies included, loaded or not), from where this process
    keeps them (``__pycache__`` beside the module, or its own ``NUMBA_CACHE_DIR``), owned by that
    user, for the child's ``NUMBA_CACHE_DIR``; None when the child shares this process's user.

    The child cannot write the caches beside the sources (they are the engine's), and numba uses
    no cache it cannot write: without a copy of its own each child would compile every kernel
    again (tens of seconds); with a shared writable one, a strategy could plant compiled code
    that another seat then runs."""
    if uid is None:
        return None
    import hashlib
    import shutil
    import tempfile

    _sweep_orphaned_copies()
    root = tempfile.mkdtemp(prefix=f"{_COPY_PREFIX}{os.getpid()}-")
    folders = {os.path.dirname(f) for f in (getattr(m, "__file__", None) for m in list(sys.modules.values())) if f}
    # And every folder of the package, loaded or not: a Ray worker never imports the strategy its
    # isolated child plays, and that child would otherwise compile all its kernels from nothing.
    folders |= _package_folders()
    for folder in sorted(folders):
        # Where this process keeps them: beside the sources, or under its own NUMBA_CACHE_DIR.
        source = cache_folder(Path(folder))
        # With the sources' digest (``compiled.MARKER``), or the child would think them stale.
        cached = list(source.glob("*.nb[ic]")) if source.is_dir() else []
        cached += [p for p in [source / MARKER] if p.is_file()]
        if not cached:
            continue
        # numba's own layout under NUMBA_CACHE_DIR: the folder's name and a hash of its path.
        target = Path(root, f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}")
        target.mkdir()
        for path in cached:
            shutil.copy2(path, target / path.name)
    for folder, _, files in os.walk(root):
        os.chown(folder, uid, uid)
        for name in files:
            os.chown(os.path.join(folder, name), uid, uid)
    return root
