"""Tuning configuration: YAML checked by pydantic; every mistake is a one-line ConfigError.

    name: tune-greedy
    strategy: greedy               # registered name or module:Class
    params: {}                     # fixed constructor arguments (not searched)
    search_space:                  # omitted: every range the strategy documents (TUNABLE)
      ticket_bonus: {low: 0.0, high: 15.0}
      min_points: default          # the documented range
    players: 2
    opponents: [greedy]            # the field; seats after the tuned one are filled in turn
    games_per_trial: 200           # seeded, seat-rotated; rounded up to whole deals
    objective: win_rate            # win_rate | score_margin (own total minus the best other)
    trials: 24
    search: tpe                    # tpe (Bayesian, Optuna) | random | grid
    grid_points: 3                 # grid: values per numeric parameter
    include_default: true          # the first proposal is the default parameters (the baseline)
    validation_games: 400          # fresh seeds: tuned against default, and each against the field
    seed: 1
    output: results/tune-greedy
    backend: ray                   # ray (Ray Tune) | serial
    address: null                  # an existing Ray cluster, else a local Ray
    workers: null                  # trials at once (default: every CPU)
    ray_storage: null              # Ray Tune's experiment folder (default <output>/ray); on a
                                   # multi-node cluster, storage every node reaches (NFS, s3://...)
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any, Literal, Optional, Union

import pydantic
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ttr_lab.core.game import Game, load_game
from ttr_lab.tournament.config_files import check_game, check_strategy, read_yaml, validate, with_game
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.registry import StrategySpec
from ttr_lab.tuning.space import ParamRange, corners, grid_size, resolve_space


class TuneConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _named_game(cls, data: Any) -> Any:
        return with_game(cls, data)

    name: str = "tune"
    strategy: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)
    search_space: Union[dict[str, Any], list[str], None] = None
    # Named before validation (with_game): the one game declaring the shorthands given (``map``),
    # else the games catalogue's house game.
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    players: int = Field(default=2, ge=1)
    opponents: list[Union[str, StrategySpec]] = Field(min_length=1)
    games_per_trial: int = Field(default=200, ge=1)
    objective: Literal["win_rate", "score_margin"] = "win_rate"
    trials: int = Field(default=20, ge=1)
    search: Literal["tpe", "random", "grid"] = "tpe"
    grid_points: int = Field(default=3, ge=1, le=20)
    include_default: bool = True
    validation_games: int = Field(default=400, ge=1)
    seed: int = 0
    output: str = "results/tune"
    backend: Literal["ray", "serial"] = "ray"
    address: Optional[str] = None
    workers: Optional[int] = Field(default=None, ge=1)
    runtime_env: Optional[dict[str, Any]] = None
    ray_storage: Optional[str] = None  # Ray Tune's storage_path (default <output>/ray; shared storage on a multi-node cluster)

    @field_validator("opponents")
    @classmethod
    def _as_specs(cls, items: list[Any]) -> list[StrategySpec]:
        return [StrategySpec.of(i) for i in items]

    # Filled in by parse_config once the strategy is resolved.
    _space: dict[str, ParamRange] = pydantic.PrivateAttr(default_factory=dict)
    # The fixed parameters validated (defaults filled in, the searched ones left out): the
    # tuned strategy's part of the identity, whatever spelling of a value or default is written.
    _fixed: Optional[dict[str, Any]] = pydantic.PrivateAttr(default=None)

    @property
    def space(self) -> dict[str, ParamRange]:
        return self._space

    @property
    def opponent_specs(self) -> list[StrategySpec]:
        """The opponents, each a ``StrategySpec`` (as ``_as_specs`` made them)."""
        return [StrategySpec.of(o) for o in self.opponents]

    def opponent_entrants(self) -> list[dict[str, Any]]:
        """The field as tournament entrants, with unique names."""
        out, seen = [], set()
        for o in self.opponent_specs:
            base = o.name or o.strategy.rsplit(":", 1)[-1]
            name, k = base, 2
            while name in seen or name in ("tuned", "default", "candidate"):
                name, k = f"{base}-{k}", k + 1
            seen.add(name)
            out.append({"name": name, "strategy": o.strategy, "params": dict(o.params)})
        return out

    def seats(self) -> tuple[int, ...]:
        """The table before rotation: the tuned strategy (entrant 0), then the field in turn."""
        k = len(self.opponents)
        return (0,) + tuple(1 + i % k for i in range(self.players - 1))

    def deals(self, games: int) -> int:
        return max(1, math.ceil(games / self.players))

    def effective_trials(self) -> int:
        if self.search == "grid":
            return min(self.trials, grid_size(self.space, self.grid_points))
        return self.trials

    def game_options(self) -> dict[str, Any]:
        """The options the game is built with (the game's config shorthands folded in)."""
        return dict(self.options)

    def load_game(self) -> Game:
        return load_game(self.game, **self.game_options())

    def identity(self) -> dict[str, Any]:
        """What defines the trials (not how many, nor where they run): a rerun must match to resume."""
        return {
            "strategy": self.strategy, "params": self.params if self._fixed is None else self._fixed,
            "game": self.game, "options": self.game_options(),
            "players": self.players,
            "opponents": self.opponent_entrants(), "games_per_trial": self.games_per_trial,
            "objective": self.objective, "search": self.search, "grid_points": self.grid_points,
            "include_default": self.include_default, "seed": self.seed,
            "space": {n: r.describe() for n, r in self.space.items()},
        }

    def identity_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.identity(), sort_keys=True, default=str).encode()).hexdigest()[:16]

    def defines(self, stored: Any) -> bool:
        """Whether ``stored`` (the identity a run's ``tune.json`` holds) defines these trials:
        it is this identity, or one an earlier ttr-lab wrote with the parameters as written
        (not validated) that reads the same once they are validated."""
        if self._fixed is None or not isinstance(stored, dict):
            return False
        try:
            old = dict(stored)
            old["params"] = _fixed_params(self.strategy, self.game, old.get("params") or {}, self.space)
            old["opponents"] = [{**o, "params": StrategySpec(strategy=o["strategy"], params=o.get("params") or {})
                                 .validated(self.game).params} for o in old.get("opponents") or []]
        except (ConfigError, KeyError, TypeError, AttributeError, pydantic.ValidationError):
            return False
        return _plain(old) == _plain(self.identity())


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _fixed_params(strategy: str, game: str, params: dict[str, Any], space: dict[str, Any]) -> dict[str, Any]:
    """``params`` validated for the strategy, every default filled in except the searched ones."""
    from ttr_lab.core.registry import resolve, validate_parameters

    checked = validate_parameters(strategy, resolve(strategy, game), params)
    return {k: v for k, v in checked.items() if k not in space}


def parse_config(data: Any, source: str = "config", overrides: dict[str, Any] | None = None) -> TuneConfig:
    """A checked tuning config from plain data (e.g. parsed YAML), with command-line ``overrides``."""
    config = validate(TuneConfig, data, source, overrides)
    _check(config, source)
    return config


def _check(config: TuneConfig, source: str) -> None:
    check_game(config.game, config.game_options(), config.players, source)
    cls = check_strategy(config.strategy, config.params, f"{source}: strategy", config.game)
    space = resolve_space(config.strategy, cls, config.search_space, f"{source}: search_space")
    fixed = set(space) & set(config.params)
    if fixed:
        raise ConfigError(f"{source}: {', '.join(sorted(fixed))} both fixed in params and searched in search_space; choose one")
    # The ends of every range must be values the strategy accepts, before any trial runs.
    for corner in corners(space):
        check_strategy(config.strategy, {**config.params, **corner}, f"{source}: search_space", config.game)
    config._space = space
    config._fixed = _fixed_params(config.strategy, config.game, config.params, space)
    for i, o in enumerate(config.opponent_specs):
        check_strategy(o.strategy, o.params, f"{source}: opponents.{i}", config.game)
    # Validated (converted, defaults filled in): the field's identity and what its games build.
    config.opponents = [o.validated(config.game) for o in config.opponent_specs]


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> TuneConfig:
    """Read and check a YAML tuning config."""
    data = read_yaml(path)
    return parse_config(data, str(path), overrides)
