"""Where a tournament's results live: an output folder of Parquet parts, written as batches
finish, each part written to a temporary name and renamed (so a crash never leaves half a part),
with the config and the package versions beside them.

    OUTPUT/config.yaml        the config as run (after command-line overrides)
    OUTPUT/meta.json          identity hash of the games, ttr-lab / Ray / Python versions
    OUTPUT/results/*.parquet  one row per player per game
    OUTPUT/records/*.jsonl.gz every game record, when asked for
"""

from __future__ import annotations

import gzip
import json
import os
import platform
import time
from pathlib import Path
from typing import Any, Sequence

import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from ttr_lab.core.errors import ConfigError
from ttr_lab.tournament.config import TournamentConfig

SCHEMA = pa.schema([
    ("game_id", pa.string()), ("deal", pa.int64()), ("deal_seed", pa.uint64()), ("table", pa.int64()),
    ("seating", pa.int64()), ("map", pa.string()), ("num_players", pa.int64()), ("seat", pa.int64()),
    ("entrant", pa.string()), ("strategy", pa.string()), ("params", pa.string()), ("params_hash", pa.string()),
    ("route_points", pa.int64()), ("ticket_points", pa.int64()), ("tickets_held", pa.int64()),
    ("tickets_completed", pa.int64()), ("tickets_failed", pa.int64()),
    ("ticket_points_completed", pa.int64()), ("ticket_points_failed", pa.int64()),
    ("longest_trail", pa.int64()), ("longest_bonus", pa.int64()), ("total", pa.int64()),
    ("rank", pa.int64()), ("win", pa.float64()), ("trains_left", pa.int64()), ("cards_left", pa.int64()),
    ("turns", pa.int64()), ("stalled", pa.bool_()), ("forfeit", pa.bool_()), ("error", pa.string()),
    ("decisions", pa.int64()), ("think_seconds", pa.float64()), ("tracks", pa.list_(pa.int64())),
    # Only on maps that use them (null otherwise):
    ("explorer_bonus", pa.int64()), ("largest_network", pa.int64()), ("mountain_routes", pa.int64()),
])


class ResultStore:
    def __init__(self, folder: str | Path, config: TournamentConfig) -> None:
        self.folder = Path(folder)
        self.results = self.folder / "results"
        self.records = self.folder / "records"
        self.config = config
        meta_file = self.folder / "meta.json"
        if meta_file.exists():
            meta = json.loads(meta_file.read_text())
            if meta.get("identity_hash") != config.identity_hash():
                raise ConfigError(
                    f"output folder {self.folder} holds a different tournament (its games were defined by "
                    f"{self.folder / 'config.yaml'}); give another output folder (--out) or remove it"
                )
        self.results.mkdir(parents=True, exist_ok=True)
        if config.records:
            self.records.mkdir(parents=True, exist_ok=True)
        for stale in [*self.results.glob("*.tmp"), *self.records.glob("*.tmp")]:
            stale.unlink()  # a part that was being written when a run died
        for orphan in self.records.glob("*.jsonl.gz"):  # records whose results never landed
            if not (self.results / orphan.name.replace(".jsonl.gz", ".parquet")).exists():
                orphan.unlink()
        self._write_meta()
        self._parts = 0

    def _write_meta(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        from ttr_lab import __version__

        try:
            ray_version = version("ray")
        except PackageNotFoundError:
            ray_version = None

        config = self.config.model_dump(mode="json")
        (self.folder / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        meta = {
            "identity_hash": self.config.identity_hash(),
            "identity": self.config.identity(),
            "ttr_lab_version": __version__,
            "ray_version": ray_version,
            "python_version": platform.python_version(),
            "written": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        tmp = self.folder / "meta.json.tmp"
        tmp.write_text(json.dumps(meta, indent=1), encoding="utf-8")
        os.replace(tmp, self.folder / "meta.json")

    def completed_ids(self) -> set[str]:
        """Game ids already stored (each game's rows are written together, in one part)."""
        done: set[str] = set()
        for part in sorted(self.results.glob("*.parquet")):
            done.update(pq.read_table(part, columns=["game_id"]).column("game_id").to_pylist())
        return done

    def append(self, rows: Sequence[dict[str, Any]], records: Sequence[str] = ()) -> None:
        """Store one finished batch: its rows (and records) become visible all at once."""
        if not rows:
            return
        name = f"part-{time.time_ns()}-{os.getpid()}-{self._parts}"
        self._parts += 1
        if records:
            tmp = self.records / f"{name}.jsonl.gz.tmp"
            with gzip.open(tmp, "wt", encoding="utf-8") as f:
                for line in records:
                    f.write(line + "\n")
            os.replace(tmp, self.records / f"{name}.jsonl.gz")
        table = pa.Table.from_pylist(list(rows), schema=SCHEMA)
        tmp = self.results / f"{name}.parquet.tmp"
        pq.write_table(table, tmp)
        os.replace(tmp, self.results / f"{name}.parquet")


def read_results(folder: str | Path) -> "Any":
    """All rows of a results folder as a pandas DataFrame (sorted by game and seat)."""
    parts = sorted(Path(folder, "results").glob("*.parquet"))
    if not parts:
        return SCHEMA.empty_table().to_pandas()
    frame = pa.concat_tables([pq.read_table(p) for p in parts], promote_options="default").to_pandas()
    return frame.sort_values(["deal", "table", "seating", "seat"], kind="stable").reset_index(drop=True)


def read_records(folder: str | Path) -> list[dict[str, Any]]:
    out = []
    for part in sorted(Path(folder, "records").glob("*.jsonl.gz")):
        with gzip.open(part, "rt", encoding="utf-8") as f:
            out += [json.loads(line) for line in f if line.strip()]
    return out
