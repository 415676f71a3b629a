"""What one trial measures: the tuned strategy, with one set of parameters, against the field.

Every trial plays the *same* deals (seeded from the config's seed), each under every cyclic
rotation of the seats, so trials differ only by their parameters (common random numbers): a
difference between two trials is the parameters', not the cards'. The price is that the best
trial is partly lucky on those deals, which is why the tuned strategy is validated afterwards
on fresh seeds.

Objectives (higher is better):
- ``win_rate``: the share of games it wins (a tie for first shares the win), with a Wilson
  95% interval over games.
- ``score_margin``: its total minus the best other player's total, averaged; the 95% interval
  is a t-interval over deal means (the rotations of one deal share its cards, so they are not
  independent games).
"""

from __future__ import annotations

import functools
import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Mapping, Sequence

from ttr_lab.analysis.stats import summarize
from ttr_lab.core.errors import TTRLabError
from ttr_lab.core.game import Game, load_game
from ttr_lab.core.outcome import SummaryMetric
from ttr_lab.tournament.backends import Backend
from ttr_lab.tournament.design import GameSpec, match_games
from ttr_lab.tournament.match import MatchError, play_match

CANDIDATE = "candidate"
METRIC_PREFIX = "metric."


class TrialError(TTRLabError, RuntimeError):
    """A trial could not be measured (a strategy crashed or made an illegal move)."""


@dataclass(frozen=True)
class MatchSpec:
    """Everything a trial plays except the searched parameters (plain, picklable data)."""

    strategy: str
    fixed: dict[str, Any]
    opponents: list[dict[str, Any]]  # {name, strategy, params}
    seats: tuple[int, ...]  # entrant 0 is the tuned strategy
    deals: int
    seed: int
    game: str
    options: dict[str, Any]
    objective: str

    @functools.cached_property
    def games(self) -> list[GameSpec]:
        return match_games(self.seats, self.deals, self.seed)


def play(
    entrants: Sequence[Mapping[str, Any]], games: Sequence[GameSpec], game: Game, backend: Backend | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` (in this process without a ``backend``); one row per player per game.
    A forfeit or a failed batch raises TrialError."""
    try:
        return play_match(entrants, games, game, backend)
    except MatchError as exc:
        raise TrialError(str(exc)) from None


@dataclass(frozen=True)
class Measure:
    objective: float
    low: float
    high: float
    games: int
    win_rate: float
    win_low: float
    win_high: float
    margin: float
    margin_low: float
    margin_high: float
    mean_score: float
    seconds_per_decision: float
    # The game's summary metrics (its views' summary_metrics), by name: e.g. Ticket to Ride's
    # ticket completion. Stored flat, as "metric.<name>", beside the fixed figures.
    metrics: Mapping[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, float]:
        out = asdict(self)
        del out["metrics"]
        return {**out, **{f"{METRIC_PREFIX}{k}": float(v) for k, v in self.metrics.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Measure":
        """A measure as ``to_dict`` writes it (other keys, a Ray Tune result's, are ignored);
        one stored before games declared their metrics keeps its ticket ``completion``."""
        fixed = {f.name for f in fields(cls)} - {"metrics"}
        metrics = {k.removeprefix(METRIC_PREFIX): float(v) for k, v in data.items() if k.startswith(METRIC_PREFIX)}
        if "completion" in data and not metrics:  # the one summary figure trials used to store
            metrics = {"completion": float(data["completion"])}
        return cls(**{k: data[k] for k in fixed}, metrics=metrics)


def t_interval(values: Sequence[float]) -> tuple[float, float]:
    """95% t-interval of the mean (NaN when there are fewer than two values)."""
    from scipy import stats

    n = len(values)
    if n < 2:
        return (math.nan, math.nan)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def measure(rows: Sequence[Mapping[str, Any]], entrant: str, objective: str,
            metrics: Sequence[SummaryMetric] | None = None) -> Measure:
    """The objective of ``entrant`` over the games in ``rows`` (one row per player per game),
    with the game's summary ``metrics`` (None: those the rows' game declares)."""
    s = summarize(rows, [entrant], metrics)[0]
    if not s.games:
        raise TrialError(f"no games with {entrant!r} to measure")
    by_game: dict[str, list[Mapping[str, Any]]] = {}
    for r in rows:
        by_game.setdefault(r["game_id"], []).append(r)
    margins_by_deal: dict[int, list[float]] = {}
    for game in by_game.values():
        for mine in (r for r in game if r["entrant"] == entrant):
            best_other = max(r["score"] for r in game if r is not mine)
            margins_by_deal.setdefault(mine["deal"], []).append(mine["score"] - best_other)
    deal_means = [sum(v) / len(v) for v in margins_by_deal.values()]
    margin = sum(m for v in margins_by_deal.values() for m in v) / s.games
    margin_low, margin_high = t_interval(deal_means)
    if objective == "win_rate":
        value, low, high = s.win_rate, s.low, s.high
    else:
        value, low, high = margin, margin_low, margin_high
    return Measure(
        objective=value, low=low, high=high, games=s.games, win_rate=s.win_rate, win_low=s.low, win_high=s.high,
        margin=margin, margin_low=margin_low, margin_high=margin_high, mean_score=s.mean_score,
        seconds_per_decision=s.seconds_per_decision, metrics=dict(s.metrics),
    )


def evaluate(spec: MatchSpec, params: Mapping[str, Any]) -> Measure:
    """One trial: the tuned strategy with ``params`` (plus the fixed ones) against the field."""
    candidate = {"name": CANDIDATE, "strategy": spec.strategy, "params": {**spec.fixed, **params}}
    game = load_game(spec.game, **spec.options)
    rows = play([candidate, *spec.opponents], spec.games, game)
    return measure(rows, CANDIDATE, spec.objective, game.views.summary_metrics)


def ray_trial(config: dict[str, Any], spec: MatchSpec) -> None:
    """The Ray Tune trainable: one trial, reported once."""
    from ray import tune

    try:
        measure = evaluate(spec, config)
    except TrialError as exc:
        # Reported, not raised: Ray Tune would retry a failed trial, and this failure would
        # only repeat (Optuna counts a NaN objective as a failed trial).
        tune.report({"objective": math.nan, "trial_error": str(exc)})
        return
    tune.report(measure.to_dict())
