"""What a tuning run is made of: its finished trials (``Outcome``), stored as each finishes
(``TrialStore``), and the run as a whole (``TuningRun``). The search, the runner, the report
and the Ray Tune callback all use these, so they live in a module below all of them."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ttr_lab.core.errors import ConfigError
from ttr_lab.tournament.lock import LOCK_NAME, FolderLock
from ttr_lab.tuning.config import TuneConfig
from ttr_lab.tuning.objective import Measure

METRIC = "objective"  # the key of a trial's objective in what it reports to Ray Tune


@dataclass
class Outcome:
    """A finished trial: its parameters, and its measure or the error that stopped it."""

    params: dict[str, Any]
    measure: Measure | None = None
    error: str = ""
    tune_id: str = ""
    # The order in which the sampler proposed the trial (0 first, counted over the whole run,
    # resumes included). Ties between equal objectives go to the earlier proposal, so the best
    # trial does not depend on which trial a scheduler happened to finish first.
    proposal: int = -1

    @property
    def measured(self) -> Measure:
        """Its measure, for a trial known to have one (a failed trial's is None)."""
        if self.measure is None:
            raise ValueError(f"trial {self.params} has no measure: {self.error}")
        return self.measure


def best_of(outcomes: Sequence[Outcome]) -> Outcome:
    """The trial with the highest objective; among equals, the earliest proposed."""
    return min((o for o in outcomes if o.measure is not None), key=lambda o: (-o.measured.objective, o.proposal))


def first_line(exc: BaseException) -> str:
    """The line of an exception's text that says what went wrong."""
    text = str(exc).strip()
    # Ray wraps the trial's exception in its own text; keep the innermost readable line.
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in reversed(lines):
        if "Error:" in ln or "error:" in ln:
            return ln
    return lines[0] if lines else type(exc).__name__


@dataclass
class TuningRun:
    """What ``run_tuning`` hands back."""

    folder: Path
    trials: list[Outcome]
    ran_now: int
    best: Outcome | None = None
    best_params: dict[str, Any] = field(default_factory=dict)  # rounded: what is validated and shipped
    validation: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False
    seconds: float = 0.0
    # Filled in at the end (tuning.report.write_outputs): what a caller shows.
    trials_table: Any = None  # pandas DataFrame, one row per trial in the order they finished
    summary: list[str] = field(default_factory=list)  # best parameters, validation, failures
    entrant: str = ""  # the tuned entrant as tournament-config YAML (best.yaml)


class TrialStore:
    """``trials.jsonl`` in the output folder: one line per finished trial, written as it finishes.
    The folder is locked for this run until ``close()``: one writer, as for tournaments."""

    def __init__(self, folder: Path, config: TuneConfig) -> None:
        self.folder = folder
        meta = folder / "tune.json"
        if folder.is_file():
            raise ConfigError(f"output folder {folder} is a file, not a folder")
        theirs = sorted(p.name for p in folder.iterdir() if p.name not in (LOCK_NAME, "tune.json.tmp")) if folder.is_dir() else []
        if not meta.exists() and theirs:
            # Never write into someone else's folder (a tournament's results, the user's files):
            # report.md and config files would overwrite theirs.
            raise ConfigError(f"output folder {folder} is not empty and is not a tuning run's folder (it holds "
                              f"{', '.join(theirs[:3])} and no tune.json); choose another output folder")
        folder.mkdir(parents=True, exist_ok=True)
        self.lock = FolderLock(folder, f"tuning {config.name!r}").acquire()
        try:
            self._open(meta, config)
        except BaseException:
            self.lock.release()
            raise

    def _open(self, meta: Path, config: TuneConfig) -> None:
        identity = {"identity_hash": config.identity_hash(), "identity": config.identity()}
        if meta.exists():
            try:
                stored = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ConfigError(f"{meta} is unreadable ({type(exc).__name__}); it says which trials this folder "
                                  "holds: restore it, or choose another output folder") from None
            if not isinstance(stored, dict) or (stored.get("identity_hash") != identity["identity_hash"]
                                                and not config.defines(stored.get("identity"))):
                raise ConfigError(
                    f"{self.folder} holds trials of a different tuning run (strategy, space, field, games, objective, "
                    "search or seed differ); choose another output folder or remove it"
                )
        else:
            tmp = meta.with_name(meta.name + ".tmp")
            tmp.write_text(json.dumps(identity, indent=2, default=str), encoding="utf-8")
            os.replace(tmp, meta)  # whole or absent: a kill never leaves half a tune.json
        self.path = self.folder / "trials.jsonl"
        self._cut_torn_line()

    def _cut_torn_line(self) -> None:
        """Drop a last line without its newline (a writer killed mid-line; safe under the lock):
        appended to, it would swallow the next trial. Its trial runs again."""
        if not self.path.exists():
            return
        with self.path.open("rb+") as f:
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)

    def close(self) -> None:
        self.lock.release()

    def load(self) -> list[Outcome]:
        out = []
        if self.path.exists():
            for index, line in enumerate(self.path.read_text(encoding="utf-8").splitlines()):
                try:
                    data = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by a kill (stored before torn lines were cut): it runs again
                try:
                    m = data.get("measure")
                    # Trials stored before proposals were recorded: their line order stands in.
                    out.append(Outcome(dict(data["params"]), Measure.from_dict(m) if m else None, str(data.get("error", "")),
                                       str(data.get("tune_id", "")), int(data.get("proposal", index))))
                except (AttributeError, KeyError, TypeError, ValueError):
                    raise ConfigError(f"{self.path} line {index + 1} is not a stored trial; restore the file or "
                                      "choose another output folder") from None
        return out

    def append(self, outcome: Outcome) -> None:
        data = {"params": outcome.params, "measure": outcome.measure.to_dict() if outcome.measure else None,
                "error": outcome.error, "tune_id": outcome.tune_id, "proposal": outcome.proposal}
        with self.path.open("a") as f:
            f.write(json.dumps(data, allow_nan=True) + "\n")
            f.flush()
