"""Where a tournament's results live: an output folder of Parquet parts, written as batches
finish, each part written to a temporary name and renamed (so a crash never leaves half a part),
with the config and the package versions beside them.

    OUTPUT/config.yaml        the config as run (after command-line overrides)
    OUTPUT/meta.json          identity hash of the games, the game and its options, ttr-lab / Ray / Python versions
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
from ttr_lab.core.game import Game
from ttr_lab.core.results import result_parts, schema
from ttr_lab.tournament.config import TournamentConfig

class ResultStore:
    def __init__(self, folder: str | Path, config: TournamentConfig, game: Game) -> None:
        self.folder = Path(folder)
        self.schema = schema(game.metrics)
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

        def installed(name: str) -> str | None:
            try:
                return version(name)
            except PackageNotFoundError:
                return None

        config = self.config.model_dump(mode="json")
        (self.folder / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        meta = {
            "identity_hash": self.config.identity_hash(),
            "identity": self.config.identity(),
            # The game as load_game rebuilds it: readers need no tournament-config shorthand.
            "game": {"name": self.config.game, "options": self.config.load_game().options},
            "ttr_lab_version": __version__,
            "ray_version": installed("ray"),
            "python_version": platform.python_version(),
            # The numbers in a report depend on these too (statistics, Parquet reading).
            "package_versions": {name: installed(name) for name in ("numpy", "pandas", "scipy", "pyarrow")},
            "written": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        tmp = self.folder / "meta.json.tmp"
        tmp.write_text(json.dumps(meta, indent=1), encoding="utf-8")
        os.replace(tmp, self.folder / "meta.json")

    def completed_ids(self) -> set[str]:
        """Game ids already stored (each game's rows are written together, in one part)."""
        done: set[str] = set()
        for part in result_parts(self.folder):
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
        table = pa.Table.from_pylist(list(rows), schema=self.schema)
        tmp = self.results / f"{name}.parquet.tmp"
        pq.write_table(table, tmp)
        os.replace(tmp, self.results / f"{name}.parquet")
