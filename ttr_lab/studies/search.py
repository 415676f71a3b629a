"""Search for balance: rule values (and map numbers) chosen by Optuna's TPE sampler, on Ray Tune
or serially, each trial a match of the study's entrants on the same seeded deals (common random
numbers), scored by how evenly they win; the best is then validated on fresh deals against the
shipped rules (a paired comparison) and written as a ready ``options:`` block.

    search:
      parameters:
        longest_path_bonus: {low: 0, high: 30}              # a rule parameter (integers)
        trains_per_player: {low: 35, high: 50}
        "track_length[Portland-Seattle gray#1]": {low: 1, high: 4}   # a targeted map edit
      trials: 12
      objective: spread          # spread: best minus worst win rate | target: distance to `target`
      target: {mcts: 0.3}        # objective target: wanted win shares (the others share the rest)
      validation_games: 100
      validation_seed: 9001

Objective (lower is better): ``spread`` is the best entrant's win rate minus the worst's;
``target`` is the root mean square gap between each entrant's win rate and its wanted share.
Trials are stored in ``OUTPUT/trials.jsonl`` as they finish; a rerun tells the sampler about them
and runs only the rest.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Optional

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, model_validator
from rich.console import Console

from ttr_lab.analysis.compare import Balance, Comparison, balance, compare
from ttr_lab.core.errors import ConfigError
from ttr_lab.studies.config import TARGETED
from ttr_lab.tournament.backends import make_backend
from ttr_lab.tournament.config import TournamentConfig, parse_config
from ttr_lab.tournament.config_files import read_yaml, validate
from ttr_lab.tournament.design import plan_games
from ttr_lab.tournament.match import play_match

TRIALS_FILE = "trials.jsonl"
_EDIT = re.compile(r"^(?P<kind>[a-z_]+)\[(?P<target>.+)\]$")


class ParameterRange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    low: int
    high: int

    @model_validator(mode="after")
    def _ordered(self) -> "ParameterRange":
        if self.high < self.low:
            raise ValueError(f"high {self.high} is below low {self.low}")
        return self


class SearchSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    parameters: dict[str, ParameterRange] = Field(min_length=1)
    trials: int = Field(default=12, ge=1, le=10_000)
    objective: Literal["spread", "target"] = "spread"
    target: dict[str, float] = Field(default_factory=dict)
    validation_games: int = Field(default=100, ge=1)
    validation_seed: int = 9001

    @model_validator(mode="after")
    def _target(self) -> "SearchSettings":
        if self.objective == "target" and not self.target:
            raise ValueError("objective 'target' needs 'target': the wanted win share of one or more entrants")
        if any(not 0 <= v <= 1 for v in self.target.values()) or sum(self.target.values()) > 1 + 1e-9:
            raise ValueError("target: shares are between 0 and 1 and add up to at most 1")
        return self


@dataclass
class SearchConfig:
    base: TournamentConfig
    settings: SearchSettings
    data: dict[str, Any]  # the tournament keys as given (cells are built from them)

    @property
    def output(self) -> Path:
        return Path(self.base.output)


def is_search(path: str | Path) -> bool:
    """Whether the YAML at ``path`` is a balance search (it has a ``search:`` block)."""
    data = read_yaml(path)
    return isinstance(data, dict) and isinstance(data.get("search"), dict)  # tuning's is a sampler's name


def _options(base: dict[str, Any], values: dict[str, int]) -> dict[str, Any]:
    options: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
                               for k, v in base.items()}
    for name, value in values.items():
        m = _EDIT.match(name)
        if m:
            options.setdefault("edits", []).append({m["kind"]: [m["target"], int(value)]})
        else:
            options.setdefault("ruleset", {})[name] = int(value)
    return options


def parse_search(data: Any, source: str = "search", overrides: dict[str, Any] | None = None) -> SearchConfig:
    if not isinstance(data, dict) or "search" not in data:
        raise ConfigError(f"{source}: a balance search needs a 'search:' block")
    if "factors" in data:
        raise ConfigError(f"{source}: give either 'factors' (a study) or 'search' (a balance search), not both")
    settings = validate(SearchSettings, data["search"], f"{source}: search")
    tournament = {k: v for k, v in data.items() if k != "search"}
    base = parse_config(tournament, source, overrides)
    game = base.load_game()
    known: dict[str, Any] = getattr(game, "rule_parameters", dict)()
    for name in settings.parameters:
        m = _EDIT.match(name)
        if m and m["kind"] not in TARGETED:
            raise ConfigError(f"{source}: search.parameters: {name}: only {', '.join(TARGETED)} edits take a number")
        if not m and name not in known:
            raise ConfigError(f"{source}: search.parameters: {game.title} has no rule parameter {name!r}"
                              + (f"; it has: {', '.join(known)}" if known else " (its game lists none)"))
    names = {e.name for e in base.entrants}
    unknown = sorted(set(settings.target) - names)
    if unknown:
        raise ConfigError(f"{source}: search.target: {', '.join(unknown)} is not an entrant")
    for bound in ("low", "high"):  # each corner of the box must make a game
        values = {n: getattr(r, bound) for n, r in settings.parameters.items()}
        try:
            base.model_copy(update={"options": _options(base.game_options(), values)}).load_game()
        except Exception as exc:  # noqa: BLE001 - the game's own one-line reason
            raise ConfigError(f"{source}: search.parameters: at {bound} {values}: {exc}") from None
    return SearchConfig(base, settings, tournament)


def load_search(path: str | Path, overrides: dict[str, Any] | None = None) -> SearchConfig:
    return parse_search(read_yaml(path), str(path), overrides)


def objective(b: Balance, settings: SearchSettings) -> float:
    """Lower is better: the spread of win rates, or the RMS gap to the wanted shares."""
    if settings.objective == "spread":
        return b.spread
    rest = [e for e in b.win_rates if e not in settings.target]
    left = max(0.0, 1.0 - sum(settings.target.values()))
    wanted = {**{e: left / len(rest) for e in rest}, **settings.target} if rest else dict(settings.target)
    return math.sqrt(sum((b.win_rates[e] - wanted[e]) ** 2 for e in b.win_rates) / len(b.win_rates))


def play_cell(config: SearchConfig, values: dict[str, int], seed: int, games: int) -> pd.DataFrame:
    """The entrants' games under ``values`` (serially, in this process): a results frame."""
    cell = config.base.model_copy(update={"options": _options(config.base.game_options(), values),
                                          "seed": seed, "games": games})
    rows = play_match([e.model_dump() for e in cell.entrants], list(plan_games(cell)), cell.load_game())
    return pd.DataFrame(rows)


def trial(config: SearchConfig, values: dict[str, int]) -> dict[str, Any]:
    frame = play_cell(config, values, config.base.seed, config.base.games)
    b = balance(frame)
    return {"params": values, "objective": objective(b, config.settings), "spread": b.spread, "win_rates": b.win_rates}


def _ray_trial(params: dict[str, Any], config: SearchConfig) -> None:
    from ray import tune

    tune.report(trial(config, {k: int(v) for k, v in params.items()}))


@dataclass
class SearchResult:
    trials: list[dict[str, Any]]
    best: dict[str, Any]
    shipped: Balance
    tuned: Balance
    comparison: Comparison
    options: dict[str, Any]
    folder: Path
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        lines = [f"{len(self.trials)} trials; best {self.best['params']} (objective {self.best['objective']:.3f} on the search deals)",
                 f"validation on {self.comparison.games} fresh games: spread of win rates {100 * self.shipped.spread:.1f} "
                 f"points with the shipped rules, {100 * self.tuned.spread:.1f} with the best "
                 f"({self.comparison.changed_winner} games changed winner)"]
        for _, r in self.comparison.wins.iterrows():
            lines.append(f"  {r['entrant']}: {100 * r['a']:.1f}% -> {100 * r['b']:.1f}% ({100 * r['delta']:+.1f} points, "
                         f"95% [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}])")
        lines.append(f"options block: {self.folder / 'best-options.yaml'}")
        return "\n".join(lines + self.notes)


def _stored(folder: Path) -> list[dict[str, Any]]:
    path = folder / TRIALS_FILE
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue  # a line cut by a kill: that trial runs again
    return out


def _store(folder: Path, outcome: dict[str, Any]) -> None:
    with open(folder / TRIALS_FILE, "a", encoding="utf-8") as f:
        f.write(json.dumps(outcome, default=str) + "\n")


def run_search(config: SearchConfig, console: Console | None = None) -> SearchResult:
    """Run the trials not yet stored, then validate the best on fresh deals."""
    import optuna

    console = console or Console()
    folder = config.output
    folder.mkdir(parents=True, exist_ok=True)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    space: dict[str, Any] = {n: optuna.distributions.IntDistribution(r.low, r.high)
                             for n, r in config.settings.parameters.items()}
    done = [t for t in _stored(folder) if set(t["params"]) == set(space)]
    todo = config.settings.trials - len(done)
    sampler = optuna.samplers.TPESampler(seed=config.base.seed, n_startup_trials=min(5, config.settings.trials))
    if todo > 0:
        console.print(f"balance search: {len(done)} trials stored, {todo} to run ({config.base.backend})", markup=False)
        if config.base.backend == "ray":
            _run_ray(config, space, sampler, done, todo, folder)
        else:
            study = optuna.create_study(direction="minimize", sampler=sampler)
            for t in done:
                study.add_trial(optuna.trial.create_trial(params=t["params"], distributions=space, value=t["objective"]))
            for _ in range(todo):
                proposal = study.ask(space)
                outcome = trial(config, {k: int(v) for k, v in proposal.params.items()})
                _store(folder, outcome)
                study.tell(proposal, outcome["objective"])
    trials = [t for t in _stored(folder) if set(t["params"]) == set(space)]
    best = min(trials, key=lambda t: t["objective"])
    shipped_values: dict[str, int] = {}
    games = config.settings.validation_games
    shipped = play_cell(config, shipped_values, config.settings.validation_seed, games)
    tuned = play_cell(config, best["params"], config.settings.validation_seed, games)
    comparison = compare(shipped, tuned, config.base.load_game().metrics, paired=True)
    options = _options(config.base.game_options(), best["params"])
    (folder / "best-options.yaml").write_text(_options_yaml(config, best, shipped, tuned), encoding="utf-8")
    result = SearchResult(trials, best, balance(shipped), balance(tuned), comparison, options, folder)
    (folder / "validation.json").write_text(json.dumps({
        "best": best, "shipped_spread": result.shipped.spread, "tuned_spread": result.tuned.spread,
        "changed_winner": comparison.changed_winner, "games": comparison.games,
        "wins": comparison.wins.to_dict(orient="records")}, indent=2, default=str), encoding="utf-8")
    return result


def _options_yaml(config: SearchConfig, best: dict[str, Any], shipped: pd.DataFrame, tuned: pd.DataFrame) -> str:
    import yaml

    b_shipped, b_tuned = balance(shipped), balance(tuned)
    head = (f"# The most balanced rules the search found ({config.settings.objective}), for a tournament config.\n"
            f"# Validated on {b_tuned.games} fresh games (seed {config.settings.validation_seed}): spread of win rates "
            f"{100 * b_shipped.spread:.1f} points with the shipped rules, {100 * b_tuned.spread:.1f} with these.\n")
    return head + yaml.safe_dump({"game": config.base.game, "options": _options(config.base.game_options(), best["params"])},
                                 sort_keys=False)


def _run_ray(config: SearchConfig, space: dict[str, Any], sampler: Any, done: list[dict[str, Any]], todo: int,
             folder: Path) -> None:
    import os

    os.environ.setdefault("RAY_AIR_NEW_OUTPUT", "0")  # no Ray Tune banner and trial tables
    from ray import tune
    from ray.tune.search.optuna import OptunaSearch

    # The tournament's Ray start-up (a local Ray stopped with the driver even after a kill -9).
    backend = make_backend("ray", config.base.address, config.base.workers, config.base.runtime_env)
    backend.start()
    try:
        _tune(config, space, sampler, done, todo, folder, tune, OptunaSearch)
    finally:
        backend.close()


def _tune(config: SearchConfig, space: dict[str, Any], sampler: Any, done: list[dict[str, Any]], todo: int,
          folder: Path, tune: Any, OptunaSearch: Any) -> None:
    searcher = OptunaSearch(space=space, metric="objective", mode="min", sampler=sampler,
                            points_to_evaluate=[t["params"] for t in done] or None,
                            evaluated_rewards=[t["objective"] for t in done] or None)
    tuner = tune.Tuner(
        tune.with_resources(tune.with_parameters(_ray_trial, config=config), {"cpu": 1}),
        tune_config=tune.TuneConfig(search_alg=searcher, num_samples=todo, metric="objective", mode="min",
                                    max_concurrent_trials=config.base.workers),
        run_config=tune.RunConfig(name="balance", storage_path=str((folder / "ray").resolve()), verbose=0),
    )
    grid = tuner.fit()
    for r in (grid[i] for i in range(len(grid))):
        if r.metrics and "objective" in r.metrics:
            _store(folder, {k: r.metrics[k] for k in ("params", "objective", "spread", "win_rates")})
