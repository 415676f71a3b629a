"""``run_tuning``: run the trials a config asks for (skipping those stored), pick the best,
validate it against the default parameters on fresh seeds, and write the results.

The output folder holds ``tune.json`` (what defines the trials), ``trials.jsonl`` (one line per
finished trial, appended as each finishes), and at the end ``trials.csv``, ``validation.json``,
``objective.png``, ``best.yaml`` (a ready-to-use entrant) and ``report.md``.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from ttr_lab.core.rng import derive_seed
from ttr_lab.tournament.backends import make_backend
from ttr_lab.tuning.config import TuneConfig
from ttr_lab.tuning.objective import MatchSpec, TrialError
from ttr_lab.tuning.report import format_value, write_outputs
from ttr_lab.tuning.search import run_ray, run_serial
from ttr_lab.tuning.space import make_sampler
from ttr_lab.tuning.trials import Outcome, TrialStore, TuningRun, best_of
from ttr_lab.tuning.validate import validate


def match_spec(config: TuneConfig) -> MatchSpec:
    return MatchSpec(
        strategy=config.strategy, fixed=dict(config.params), opponents=config.opponent_entrants(),
        seats=config.seats(), deals=config.deals(config.games_per_trial), seed=config.seed,
        game=config.game, options=config.game_options(), objective=config.objective,
    )


def default_params(config: TuneConfig) -> dict[str, Any]:
    """The strategy's own defaults for the searched parameters."""
    from ttr_lab.core.registry import parameters, resolve

    signature = parameters(resolve(config.strategy, config.game))
    return {n: signature[n].default for n in config.space}


def rounded(params: dict[str, Any]) -> dict[str, Any]:
    """Floats to 4 significant digits: what a person would write in a config."""
    return {k: float(f"{v:.4g}") if isinstance(v, float) else v for k, v in params.items()}


def _format_params(params: dict[str, Any]) -> str:
    return " ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}" for k, v in params.items())


def run_tuning(config: TuneConfig, console: Console | None = None) -> TuningRun:
    """Run the trials not yet stored, then validate the best and write the outputs. Each trial
    shows on ``console`` as it finishes (default: a plain rich Console on standard output)."""
    console = console or Console()
    store = TrialStore(Path(config.output), config)
    try:
        return _run(config, store, console)
    finally:
        store.close()


def _run(config: TuneConfig, store: TrialStore, console: Console) -> TuningRun:
    folder = store.folder
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
    best_so_far = max((t.measured.objective for t in ok), default=-math.inf)

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
