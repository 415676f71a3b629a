"""Running trials: on Ray Tune (trials spread over the cores of this machine or a cluster), or
serially in this process (tests, debugging). Both ask the same Optuna sampler for parameters
and measure them with the same function, so a trial's objective depends only on its parameters.

Each finished trial is handed to ``on_outcome`` at once (the runner stores it), so an
interrupted run keeps every trial that finished; a rerun tells the sampler about them and runs
only the rest.
"""

from __future__ import annotations

import logging
import os
from typing import Any, Callable, Mapping, Sequence

from ttr_lab.tuning.objective import MatchSpec, TrialError, evaluate
from ttr_lab.tuning.space import ParamRange
from ttr_lab.tuning.trials import METRIC, Outcome, first_line


def run_serial(
    spec: MatchSpec, space: Mapping[str, ParamRange], sampler: Any, count: int,
    done: Sequence[Outcome], first: Mapping[str, Any] | None, on_outcome: Callable[[Outcome], None],
) -> None:
    """``count`` more trials, one after another, in this process."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    distributions = {n: r.distribution() for n, r in space.items()}
    study = optuna.create_study(direction="maximize", sampler=sampler)
    for o in done:
        if o.measure is not None:
            study.add_trial(optuna.trial.create_trial(params=o.params, distributions=distributions, value=o.measure.objective))
    # Optuna numbers the trials added above first; proposals go on after every stored trial.
    offset = len(done) - len(study.trials)
    if first is not None:
        study.enqueue_trial(dict(first))

    def objective(trial: Any) -> float:
        params = {n: r.suggest(trial) for n, r in space.items()}
        try:
            measure = evaluate(spec, params)
        except TrialError as exc:
            on_outcome(Outcome(params, error=str(exc), proposal=offset + trial.number))
            raise
        on_outcome(Outcome(params, measure, proposal=offset + trial.number))
        return measure.objective

    # optimize() rather than ask/tell: the grid sampler stops the study once the grid is done.
    study.optimize(objective, n_trials=count, catch=(TrialError,))


def run_ray(
    spec: MatchSpec, space: Mapping[str, ParamRange], sampler: Any, count: int,
    done: Sequence[Outcome], first: Mapping[str, Any] | None, on_outcome: Callable[[Outcome], None],
    workers: int, storage: str, name: str,
) -> None:
    """``count`` more trials on Ray Tune, up to ``workers`` at once (Ray must be started)."""
    os.environ.setdefault("TUNE_DISABLE_AUTO_CALLBACK_LOGGERS", "1")  # we store the results ourselves
    os.environ.setdefault("RAY_AIR_NEW_OUTPUT", "0")
    import optuna
    from ray import tune
    from ray.tune.search.optuna import OptunaSearch

    from ttr_lab.tuning.objective import ray_trial
    from ttr_lab.tuning.tune_callback import TrialReporter

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    logging.getLogger("ray.tune").setLevel(logging.ERROR)
    evaluated = [o for o in done if o.measure is not None]
    if evaluated:
        points: list[dict[str, Any]] | None = [dict(o.params) for o in evaluated]
        rewards: list[float] | None = [o.measured.objective for o in evaluated]
    else:
        points = [dict(first)] if first is not None else None
        rewards = None
    searcher = OptunaSearch(
        space={n: r.distribution() for n, r in space.items()}, metric=METRIC, mode="max",
        sampler=sampler, points_to_evaluate=points, evaluated_rewards=rewards,
    )

    trainable = tune.with_resources(tune.with_parameters(ray_trial, spec=spec), {"cpu": 1})
    tuner = tune.Tuner(
        trainable,
        tune_config=tune.TuneConfig(
            search_alg=searcher, num_samples=count, max_concurrent_trials=workers, metric=METRIC, mode="max",
            reuse_actors=True,  # a new actor per trial costs seconds; trials keep no state
        ),
        run_config=tune.RunConfig(
            name=name, storage_path=storage, verbose=0, callbacks=[TrialReporter(on_outcome, len(done))],
            # A trial whose worker dies (killed, out of memory, a lost node) starts again.
            failure_config=tune.FailureConfig(max_failures=2),
        ),
    )
    try:
        tuner.fit()
    except Exception as exc:  # noqa: BLE001 - Ray's own failures: one line; finished trials are stored
        raise TrialError(f"Ray Tune failed: {type(exc).__name__}: {first_line(exc)}") from None

