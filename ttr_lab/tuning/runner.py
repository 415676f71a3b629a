"""``run_tuning``: run the trials a config asks for (skipping those stored), pick the best,
validate it against the default parameters on fresh seeds, and write the results.

The output folder holds ``tune.json`` (what defines the trials), ``trials.jsonl`` (one line per
finished trial, appended as each finishes), and at the end ``trials.csv``, ``validation.json``,
``objective.png``, ``best.yaml`` (a ready-to-use entrant) and ``report.md``.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.rng import derive_seed
from ttr_lab.tournament.backends import make_backend
from ttr_lab.tuning.config import TuneConfig
from ttr_lab.tuning.objective import MatchSpec, Measure, TrialError
from ttr_lab.tuning.search import Outcome, best_of, run_ray, run_serial
from ttr_lab.tuning.space import make_sampler


@dataclass
class TuningRun:
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
    """``trials.jsonl`` in the output folder: one line per finished trial, written as it finishes."""

    def __init__(self, folder: Path, config: TuneConfig) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        meta = folder / "tune.json"
        identity = {"identity_hash": config.identity_hash(), "identity": config.identity()}
        if meta.exists():
            stored = json.loads(meta.read_text())
            if stored.get("identity_hash") != identity["identity_hash"]:
                raise ConfigError(
                    f"{folder} holds trials of a different tuning run (strategy, space, field, games, objective, "
                    "search or seed differ); choose another output folder or remove it"
                )
        else:
            meta.write_text(json.dumps(identity, indent=2, default=str))
        self.path = folder / "trials.jsonl"

    def load(self) -> list[Outcome]:
        out = []
        if self.path.exists():
            for index, line in enumerate(self.path.read_text().splitlines()):
                try:
                    data = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by a kill: that trial runs again
                m = data.get("measure")
                # Trials stored before proposals were recorded: their line order stands in.
                out.append(Outcome(data["params"], Measure(**m) if m else None, data.get("error", ""),
                                   data.get("tune_id", ""), int(data.get("proposal", index))))
        return out

    def append(self, outcome: Outcome) -> None:
        data = {"params": outcome.params, "measure": outcome.measure.to_dict() if outcome.measure else None,
                "error": outcome.error, "tune_id": outcome.tune_id, "proposal": outcome.proposal}
        with self.path.open("a") as f:
            f.write(json.dumps(data, allow_nan=True) + "\n")
            f.flush()


def match_spec(config: TuneConfig) -> MatchSpec:
    return MatchSpec(
        strategy=config.strategy, fixed=dict(config.params), opponents=config.opponent_entrants(),
        seats=config.seats(), deals=config.deals(config.games_per_trial), seed=config.seed,
        map_name=config.map, objective=config.objective,
    )


def default_params(config: TuneConfig) -> dict[str, Any]:
    """The strategy's own defaults for the searched parameters."""
    from strategies.registry import parameters, resolve

    signature = parameters(resolve(config.strategy))
    return {n: signature[n].default for n in config.space}


def rounded(params: dict[str, Any]) -> dict[str, Any]:
    """Floats to 4 significant digits: what a person would write in a config."""
    return {k: float(f"{v:.4g}") if isinstance(v, float) else v for k, v in params.items()}


def _format_params(params: dict[str, Any]) -> str:
    return " ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}" for k, v in params.items())


def run_tuning(config: TuneConfig, console: Console | None = None) -> TuningRun:
    """Run the trials not yet stored, then validate the best and write the outputs. Each trial
    shows on ``console`` as it finishes (default: a plain rich Console on standard output)."""
    from ttr_lab.tuning.report import format_value, write_outputs
    from ttr_lab.tuning.validate import validate

    console = console or Console()
    folder = Path(config.output)
    store = TrialStore(folder, config)
    trials = store.load()
    ok = [t for t in trials if t.measure is not None]
    wanted = config.effective_trials()
    todo = max(0, wanted - len(ok))
    run = TuningRun(folder, trials, 0)
    started = time.perf_counter()
    spec = match_spec(config)
    defaults = default_params(config)
    if ok:
        console.print(f"resuming: {len(ok)} of {wanted} trials already stored in {folder}")
    if config.search == "grid" and config.trials > wanted:
        console.print(f"grid search: {wanted} grid points, so {wanted} trials")
    first = defaults if (config.include_default and config.search != "grid" and all(r.contains(defaults[n]) for n, r in config.space.items())) else None
    if config.include_default and config.search != "grid" and first is None and not ok:
        console.print(f"the default parameters {defaults} lie outside the search space: not tried as a trial")
    backend = make_backend(config.backend, config.address, config.workers, config.runtime_env)
    best_so_far = max((t.measure.objective for t in ok), default=-math.inf)

    def on_outcome(outcome: Outcome) -> None:
        nonlocal best_so_far
        store.append(outcome)
        trials.append(outcome)
        run.ran_now += 1
        index = len(trials)
        if outcome.measure is None:
            console.print(f"trial {index:3d}  {_format_params(outcome.params)}  [red]failed: {outcome.error}[/red]")
            return
        m = outcome.measure
        best_so_far = max(best_so_far, m.objective)
        console.print(f"trial {index:3d}  {_format_params(outcome.params)}  {config.objective} {format_value(m.objective, m.low, m.high, config.objective)}"
                      f"  (best {best_so_far:.{3 if config.objective == 'win_rate' else 1}f})")

    try:
        backend.start()
        if todo:
            # A resumed run must not replay the first run's random proposals: reseed past them.
            seed = derive_seed(config.seed, len(ok)) if ok else config.seed
            sampler = make_sampler(config.search, config.space, seed, config.grid_points)
            console.print(f"{config.name}: {todo} trials of {len(spec.games)} games each on {backend.name} "
                          f"({getattr(backend, 'workers', 1)} at once); {config.objective} of {config.strategy} "
                          f"against {', '.join(o['name'] for o in spec.opponents)}")
            if config.backend == "serial":
                run_serial(spec, config.space, sampler, todo, ok, first if not ok else None, on_outcome)
            else:
                run_ray(spec, config.space, sampler, todo, ok, first if not ok else None, on_outcome,
                        backend.workers, config.ray_storage or str((folder / "ray").resolve()), config.name)
        if run.ran_now < todo:
            raise KeyboardInterrupt  # Ray Tune stopped early on Ctrl-C and returned what it had
        ok = [t for t in trials if t.measure is not None]
        if not ok:
            raise TrialError(f"no trial finished; the first error: {trials[0].error if trials else 'none ran'}")
        run.best = best_of(ok)
        run.best_params = rounded(run.best.params)
        if run.best_params == rounded(defaults):
            console.print("the best trial is the default parameters: nothing found that did better on the tuning deals")
        run.validation = validate(config, run.best_params, defaults, backend, folder, console)
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        backend.close()
    run.seconds = time.perf_counter() - started
    if not run.interrupted:
        write_outputs(config, run, defaults)
    return run
