"""Where a tournament's results live: an output folder of Parquet parts, each written by the
worker that played its batch (``parts.write_part``: to a temporary name, then moved, so a crash
never leaves half a part) while this process only counts their manifests, with the config and
the package versions beside them. The folder is a path or a URI (``core.location``: a shared
mount, ``s3://``, ``gs://``).

    OUTPUT/config.yaml        the config as run (after command-line overrides)
    OUTPUT/meta.json          identity hash of the games, the game and its options, ttr-lab / Ray / Python versions
    OUTPUT/results/*.parquet  one row per player per game
    OUTPUT/records/*.jsonl.gz every game record, when asked for
    OUTPUT/.lock              held (flock) by the one run writing here (none on an object store)

ttr-lab writes only into a new or empty folder, or one of its own results folders (it has
``meta.json``): it never overwrites a file it did not write. A part that cannot be read, or
whose content does not match the checksum in its name, is set aside as ``*.parquet.damaged``
and its games are played again; a part of another tournament (or named by no ttr-lab) as
``*.parquet.foreign`` (``core.part_checks``). Both are kept, never deleted, never merged.
"""

from __future__ import annotations

import json
import platform
import posixpath
import time
from pathlib import Path
from typing import Any, Sequence

import pyarrow as pa
import yaml

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game
from ttr_lab.core.location import Location, is_uri
from ttr_lab.core.part_checks import EARLIER_RUNS, folder_runs, part_doubt
from ttr_lab.core.results import ResultRow, ResultsError, check_part, read_part, result_parts, rows_table, schema
from ttr_lab.tournament.config import TournamentConfig
from ttr_lab.tournament.lock import LOCK_NAME, FolderLock
from ttr_lab.tournament.parts import COMPACT_ROWS, Manifest, compact_parts, games_digest, write_part

# What a results folder may hold before its meta.json exists (a run killed while starting):
# meta.json is written before any result, so these folders are then empty (see _adoptable).
_OWN_BEFORE_META = {LOCK_NAME, "results", "records", "meta.json.tmp"}


def check_output_folder(folder: Path) -> None:
    """A folder ttr-lab may write results into, or a ConfigError saying why not."""
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"output {folder} is a file, not a folder; give a folder (--out)")
    if not folder.is_dir() or (folder / "meta.json").is_file():
        return
    foreign = sorted(p.name for p in folder.iterdir() if p.name not in _OWN_BEFORE_META)
    held = sorted(p.name for p in folder.iterdir() if p.name in ("results", "records") and not _adoptable(p))
    if held and not foreign:
        raise ConfigError(
            f"output folder {folder} holds {held[0]}/ but no meta.json, so nothing proves those games are this "
            "tournament's (copied from another run?); give a new or empty folder (--out)"
        )
    if foreign:
        shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise ConfigError(
            f"output folder {folder} is not empty and is not a ttr-lab results folder (it holds {shown} and no "
            "meta.json); ttr-lab never writes over files it did not write: give a new or empty folder (--out)"
        )


def _adoptable(path: Path) -> bool:
    """A ``results``/``records`` entry that a run killed before its meta.json could have left: an
    empty folder, or one holding only half-written ``.tmp`` files."""
    return path.is_dir() and all(p.name.endswith(".tmp") for p in path.iterdir())


COMPACT_EVERY = 500  # batches' parts merged during a run


class PartMissing(ResultsError):
    """A worker said it stored a part that the driver cannot see."""


class ResultStore:
    """A tournament's results folder, locked for this run until ``close()``."""

    def __init__(self, folder: str | Path, config: TournamentConfig, game: Game) -> None:
        self.location = Location(folder)
        self.uri = self.location.uri
        self.folder: Path | str = Path(folder) if self.location.local and not is_uri(folder) else self.location.uri
        self.schema = schema(game.metrics)
        self.config = config
        self.damaged: list[str] = []  # parts set aside by completed_ids (their games are replayed)
        self.set_aside: list[str] = []  # what completed_ids set aside, a line each
        self._earlier: list[str] = []  # identities the folder's tournament had before (see _open)
        self.lock: FolderLock | None = None
        if self.location.local:
            check_output_folder(Path(self.location.root))
            try:
                Path(self.location.root).mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise ConfigError(f"cannot create output folder {self.folder}: {exc.strerror}") from None
            # An object store has no lock a killed holder cannot leave behind: there, one run per
            # location is the user's to keep (docs/tournaments.md); reads still count each game once.
            self.lock = FolderLock(self.location.root, f"tournament {config.name!r}").acquire()
        try:
            self._open()
        except BaseException:
            self.close()
            raise
        self._parts = 0

    def _open(self) -> None:
        loc = self.location
        if loc.exists("meta.json"):
            try:
                meta = json.loads(loc.read_bytes("meta.json").decode("utf-8"))
            except (OSError, ValueError) as exc:
                raise ConfigError(f"output folder {self.folder}: meta.json is unreadable ({exc}); give another "
                                  "output folder (--out)") from None
            if not isinstance(meta, dict) or "identity_hash" not in meta:
                raise ConfigError(f"output folder {self.folder} is not a tournament's results folder (its meta.json "
                                  "names no tournament); give another output folder (--out)")
            if meta.get("identity_hash") != self.config.identity_hash() and not self._same_when_revalidated():
                raise ConfigError(
                    f"output folder {self.folder} holds a different tournament (its games were defined by "
                    f"{loc.path('config.yaml')}); give another output folder (--out) or remove it"
                )
            # The parts stamped with the identity it had before a revalidation stay its own.
            earlier = meta.get(EARLIER_RUNS)
            known = [*(earlier if isinstance(earlier, list) else []), meta["identity_hash"]]
            self._earlier = sorted({str(h) for h in known} - {self.config.identity_hash()})
        elif not loc.local and (loc.files("results", "") or loc.files("", "")):
            raise ConfigError(f"output {self.folder} is not empty and is not a ttr-lab results folder (no meta.json); "
                              "ttr-lab never writes over files it did not write: give a new or empty location (--out)")
        self._write_meta()  # before any result: results without meta.json are never this run's
        loc.mkdir("results")
        if self.config.records:
            loc.mkdir("records")
        # Safe now that this run holds the folder: a .tmp can only be a dead run's half-written part.
        for sub in ("results", "records"):
            for stale in loc.files(sub, ".tmp"):
                loc.delete(sub, stale)
        results = set(loc.files("results", ".parquet"))
        for orphan in loc.files("records", ".jsonl.gz"):  # records whose results never landed
            if orphan.replace(".jsonl.gz", ".parquet") not in results:
                loc.delete("records", orphan)

    def _same_when_revalidated(self) -> bool:
        """Whether the folder's own config.yaml, checked as today's ttr-lab checks it, defines
        this tournament: a folder written before an entrant's identity was its validated
        parameters (defaults filled in) hashed the parameters as written, so its stored hash
        differs though the games are the same. Its stored rows keep their old ``params`` and
        ``params_hash``; the rows of the games played now carry the validated ones."""
        from ttr_lab.tournament.config import parse_config

        try:
            saved = parse_config(yaml.safe_load(self.location.read_bytes("config.yaml").decode("utf-8")), "saved")
        except Exception:  # noqa: BLE001 - an unreadable or no longer valid config defines nothing
            return False
        return saved.identity_hash() == self.config.identity_hash()

    def close(self) -> None:
        if self.lock is not None:
            self.lock.release()

    def _write_meta(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        from ttr_lab import __version__

        def installed(name: str) -> str | None:
            try:
                return version(name)
            except PackageNotFoundError:
                return None

        config = self.config.model_dump(mode="json")
        meta = {
            "identity_hash": self.config.identity_hash(),
            "identity": self.config.identity(),
            **({EARLIER_RUNS: self._earlier} if self._earlier else {}),
            # The game as load_game rebuilds it: readers need no tournament-config shorthand.
            "game": {"name": self.config.game, "options": self.config.load_game().options},
            "ttr_lab_version": __version__,
            "ray_version": installed("ray"),
            "python_version": platform.python_version(),
            # The numbers in a report depend on these too (statistics, Parquet reading, validation,
            # the figures): every dependency pyproject.toml declares, and numpy beneath them.
            "package_versions": {name: installed(name) for name in (
                "numpy", "pandas", "scipy", "pyarrow", "networkx", "pydantic", "optuna", "matplotlib",
                "pyyaml", "typer", "rich")},
            "written": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        self.location.write_whole("", "meta.json", json.dumps(meta, indent=1).encode("utf-8"))
        # After meta.json: a run killed between the two leaves a folder the next run adopts.
        self.location.write_whole("", "config.yaml", yaml.safe_dump(config, sort_keys=False).encode("utf-8"))

    def completed_ids(self) -> set[str]:
        """Game ids already stored (each game's rows are written together, in one part). A part
        the folder may not count (``core.part_checks``) is set aside first, never merged."""
        done: set[str] = set()
        runs = folder_runs(self.location)
        for part in result_parts(self.location, checked=False):
            name = posixpath.basename(part)
            doubt = part_doubt(self.location, name, runs)
            if doubt is not None:
                self._set_aside(name, doubt.kind, doubt.reason)
                continue
            try:
                # Every column, not just game_id: a part whose other pages are garbled must be
                # found now, when its games can still be replayed, not later by the report.
                done.update(check_part(part, read_part(part, fs=self.location.fs)).column("game_id").to_pylist())
            except ResultsError:
                self._set_aside(name, "damaged", "it cannot be read")
        pa.default_memory_pool().release_unused()  # the parts were read whole (see compact)
        return done

    def _set_aside(self, name: str, kind: str, reason: str) -> None:
        """Keep a part out of every read and merge (renamed ``.<kind>``, not deleted), and its
        records with it."""
        self.location.move("results", name, f"{name}.{kind}")
        records = name.replace(".parquet", ".jsonl.gz")
        if self.location.exists("records", records):
            self.location.move("records", records, f"{records}.{kind}")
        self.damaged.append(name)
        self.set_aside.append(f"set aside results part {name} (kept as {name}.{kind}): {reason}; "
                              "its games are played again unless another part holds them")

    def compact(self, max_rows: int = COMPACT_ROWS, fresh_only: bool = False) -> int:
        """Merge the parts (and their records) into one (``parts.compact_parts``); how many
        were merged."""
        return compact_parts(self.location, self.schema, max_rows, fresh_only)

    def append(self, rows: Sequence[ResultRow | dict[str, Any]], records: Sequence[str] = ()) -> bool:
        """Store one finished batch from this process: its rows (and records) become visible all
        at once. A row that does not hold exactly the table's columns is refused (ResultsError
        naming the column) before anything is written. Every ``COMPACT_EVERY`` parts, the
        batches' parts are due to be merged (True: the caller merges them, ``compact``), so
        that even a run killed after days leaves a few hundred files, not tens of thousands."""
        if not rows:
            return False
        table = rows_table(rows, self.schema)
        ids = list(dict.fromkeys(table.column("game_id").to_pylist()))
        manifest = write_part(self.location, table, ids, records)
        return self.register(manifest, ids)

    def register(self, manifest: Manifest, game_ids: Sequence[str]) -> bool:
        """Count a part a worker stored for the batch of ``game_ids``, after checking it is that
        batch's and that this process sees it (a worker writing to a folder of its own machine,
        not a shared one, would otherwise lose every game it plays). True when the batches'
        parts are due to be merged (every ``COMPACT_EVERY``)."""
        if manifest.games_digest != games_digest(game_ids) or manifest.games != len(game_ids):
            raise ResultsError(f"a worker's manifest ({manifest.name}) does not name the games of its batch")
        size = self.location.size("results", f"{manifest.name}.parquet")
        if not size:
            raise PartMissing(
                f"a worker stored results part {manifest.name}.parquet, but it is not in {self.folder} as this process "
                "sees it: every node must write to the same results location (a shared mount, or s3://, gs://)")
        self._parts += 1
        return self._parts % COMPACT_EVERY == 0
