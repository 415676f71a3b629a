"""The Ray Tune callback that hands each finished trial to the runner as it finishes.

In a module of its own (imported only when Ray Tune runs) so that Tune, which pickles its run
configuration, pickles this class by reference."""

from __future__ import annotations

from typing import Any, Callable

from ray import tune

from ttr_lab.tuning.objective import Measure
from ttr_lab.tuning.trials import METRIC, Outcome, first_line


class TrialReporter(tune.Callback):
    def __init__(self, on_outcome: Callable[[Outcome], None], first_proposal: int = 0) -> None:
        self.on_outcome = on_outcome
        self.first_proposal = first_proposal  # trials stored by earlier runs come first

    def __getstate__(self) -> dict:
        return {}  # the driver-side hook (console, files) is not needed in Tune's pickled copy

    def __setstate__(self, state: dict) -> None:
        self.on_outcome = lambda outcome: None
        self.first_proposal = 0

    def _proposal(self, trial: Any) -> int:
        # Tune tags each trial with its creation count ("3_ticket_bonus=..."), starting at 1:
        # the order in which the searcher proposed it, whatever order the trials finish in.
        return self.first_proposal + int(str(trial.experiment_tag).split("_", 1)[0]) - 1

    def on_trial_complete(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        result = trial.last_result or {}
        if METRIC not in result:
            return  # an errored trial also ends; on_trial_error reports it
        if result.get("trial_error"):
            self.on_outcome(Outcome(dict(trial.config), error=result["trial_error"], tune_id=trial.trial_id,
                                    proposal=self._proposal(trial)))
            return
        self.on_outcome(Outcome(dict(trial.config), Measure.from_dict(result),
                                tune_id=trial.trial_id, proposal=self._proposal(trial)))

    def on_trial_error(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        try:
            error = trial.get_error()
            message = first_line(error) if error is not None else "the trial failed"
        except Exception:  # noqa: BLE001 - reading the error must not stop the run
            message = "the trial failed (see Ray Tune's error file)"
        self.on_outcome(Outcome(dict(trial.config), error=message, tune_id=trial.trial_id, proposal=self._proposal(trial)))
