"""``run_study``: play every cell of a study as a tournament into its own results folder inside
the study folder. Each cell resumes as a tournament does (its stored games are skipped, a part
is never half-written), so a study killed at any point and run again loses and repeats nothing.

    STUDY/study.json        the study as run: factors, levels, baseline, each cell's identity
    STUDY/cells/<key>/      one tournament results folder per cell
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.results import read_results, result_parts
from ttr_lab.studies.config import STUDY_FILE, StudyConfig
from ttr_lab.tournament.backends import make_backend
from ttr_lab.tournament.config import TournamentConfig
from ttr_lab.tournament.design import plan_games
from ttr_lab.tournament.runner import TournamentRun, run_tournament




@dataclass
class StudyRun:
    folder: Path
    cells: dict[str, TournamentRun] = field(default_factory=dict)
    interrupted: bool = False

    @property
    def played(self) -> int:
        return sum(r.played for r in self.cells.values())

    @property
    def already_stored(self) -> int:
        return sum(r.already_stored for r in self.cells.values())

    @property
    def complete(self) -> bool:
        return not self.interrupted and all(r.complete for r in self.cells.values())


def study_meta(study: StudyConfig) -> dict[str, Any]:
    return {
        "name": study.name, "game": study.base.game, "baseline": study.baseline,
        "factors": [f.model_dump(exclude_none=True) for f in study.factors],
        "levels": study.levels, "identity": study.identity(),
        "cells": [{"key": c.key, "levels": c.levels, "options": c.config.game_options()} for c in study.cells],
        "skipped": [{"key": key, "why": why} for key, why in study.skipped],
    }


def _write_meta(study: StudyConfig) -> None:
    folder = study.output
    meta_file = folder / STUDY_FILE
    meta = study_meta(study)
    if meta_file.exists():
        try:
            old = json.loads(meta_file.read_text(encoding="utf-8"))
        except ValueError:
            raise ConfigError(f"{meta_file}: not a JSON object; move it away to run the study here") from None
        if old.get("identity") == meta["identity"]:
            return
        if not _grown(old.get("identity") or {}, meta["identity"]):
            raise ConfigError(f"{folder} holds a different study (other factors, levels or games); "
                              "choose another output folder")
        # A level added (one more board, say): the cells played stay as they are, the new ones join.
    folder.mkdir(parents=True, exist_ok=True)
    tmp = meta_file.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(meta, indent=2, default=str), encoding="utf-8")
    os.replace(tmp, meta_file)  # a kill never leaves half a study.json


def _grown(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether ``new`` is the study ``old`` with cells added: the same baseline, and every old
    cell in it with the same games."""
    cells = old.get("cells") or {}
    return (old.get("baseline") == new["baseline"] and len(new["cells"]) > len(cells)
            and all(new["cells"].get(key) == games for key, games in cells.items()))


def run_study(study: StudyConfig, console: Console | None = None, show_progress: bool = True) -> StudyRun:
    """Play every cell's games not yet stored, baseline first (so a study cut short can already
    be compared), then in the order of the factors' levels."""
    console = console or Console()
    _write_meta(study)
    for key, why in study.skipped:
        console.print(f"cell {key} left out: {why}", markup=False, highlight=False)
    run = StudyRun(study.output)
    baseline = study.baseline_cell
    shared = None
    if study.base.backend == "ray" and any(not _complete(c.config) for c in study.cells):
        # One Ray for every cell (each tournament uses the session it finds open), not a start-up per cell.
        base = study.base
        shared = make_backend("ray", base.address, base.workers, base.runtime_env)
        shared.start()
    try:
        for cell in [baseline, *(c for c in study.cells if c is not baseline)]:
            console.print(f"cell {cell.key}", markup=False, highlight=False)
            result = run_tournament(cell.config, console=console, show_progress=show_progress)
            run.cells[cell.key] = result
            if result.interrupted:
                run.interrupted = True
                break
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        if shared is not None:
            shared.close()
    return run


def _complete(config: TournamentConfig) -> bool:
    """Whether every planned game of a cell is stored already."""
    if not result_parts(config.output):
        return False
    stored = set(read_results(config.output, columns=["game_id"])["game_id"])
    return all(spec.game_id in stored for spec in plan_games(config))
