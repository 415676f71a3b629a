"""Validation of the best trial on fresh seeds, so that the luck of the tuning deals (the best of
many noisy trials is flattered by them) does not pass for strength.

Two measurements, on deals no trial played:
- *head to head*: the tuned and the default strategy at one table (the field fills any other
  seats), seat-rotated; how often the tuned one finished ahead of the default (ties half), with
  a Wilson 95% interval;
- *against the field*: the objective of the tuned and of the default strategy in the tuning
  matchup, each on the same fresh deals.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
from rich.console import Console

from ttr_lab.analysis.tables import ahead_share
from ttr_lab.core.rng import derive_seed
from ttr_lab.tournament.design import match_games
from ttr_lab.tuning.config import TuneConfig
from ttr_lab.tuning.objective import CANDIDATE, measure, play

_VALIDATION_KEY = 0x7A11D  # derives the validation seed: never a deal the trials played


def validate(
    config: TuneConfig, tuned: dict[str, Any], defaults: dict[str, Any], backend: Any, folder: Path, console: Console,
) -> dict[str, Any]:
    """Measure ``tuned`` against ``defaults`` on fresh deals (cached in validation.json)."""
    key = {"tuned": tuned, "defaults": defaults, "validation_games": config.validation_games, "identity": config.identity_hash()}
    cache = folder / "validation.json"
    if cache.exists():
        try:
            stored = json.loads(cache.read_text(encoding="utf-8"))
        except (OSError, ValueError):  # a cache cut short by a kill: measured again
            stored = None
        if isinstance(stored, dict) and stored.get("key") == json.loads(json.dumps(key, default=str)):
            return stored
    seed = derive_seed(config.seed, _VALIDATION_KEY)
    deals = config.deals(config.validation_games)
    field = config.opponent_entrants()
    tuned_entrant = {"name": "tuned", "strategy": config.strategy, "params": {**config.params, **tuned}}
    default_entrant = {"name": "default", "strategy": config.strategy, "params": {**config.params, **defaults}}
    k = len(field)
    console.print(f"validating on {deals} fresh deals: tuned against default, and each against the field"
                  if tuned != defaults else f"validating on {deals} fresh deals: the defaults against the field")

    result: dict[str, Any] = {"key": key, "deals": deals, "seed": seed}
    same = tuned == defaults
    if same:
        # Nothing to tell apart: a match of the default against itself would only cost time.
        result["head_to_head"] = {"games": 0, "tuned_ahead": 0.5, "low": 0.5, "high": 0.5,
                                  "significant": False, "worse": False, "same": True}
    else:
        seats = (0, 1) + tuple(2 + i % k for i in range(config.players - 2))
        rows = play([tuned_entrant, default_entrant, *field], match_games(seats, deals, seed, "h"), config.load_game(), backend)
        share, games, low, high = ahead_share(pd.DataFrame(rows), "tuned", "default")
        result["head_to_head"] = {"games": games, "tuned_ahead": share, "low": low, "high": high,
                                  "significant": low > 0.5, "worse": high < 0.5, "same": False}
    for label, entrant in (("tuned", tuned_entrant), ("default", default_entrant)):
        if same and label == "default":
            result["default_vs_field"] = result["tuned_vs_field"]
            break
        candidate = {**entrant, "name": CANDIDATE}
        rows = play([candidate, *field], match_games(config.seats(), deals, seed, "f"), config.load_game(), backend)
        result[f"{label}_vs_field"] = measure(rows, CANDIDATE, config.objective).to_dict()
    cache.write_text(json.dumps(result, indent=2, default=str))
    return json.loads(cache.read_text())
