"""A study's configuration: a tournament config (every key of one) plus the factors to vary.
Every mistake is a one-line ConfigError.

    name: longest-bonus
    players: 5
    entrants: [...]                 # as in a tournament
    games: 150                      # per cell; every cell plays the same deals
    seed: 2026
    output: results/study-longest-bonus   # the study folder: one results folder per cell inside
    factors:
      - {rule: longest_path_bonus, levels: [0, 5, 10, 15, 20, 25]}    # a rule parameter
      - {rule: trains_per_player, range: {low: 35, high: 55, step: 10}}
      - {edit: remove_track, levels: [null, "Denver-Kansas City black"]}  # map edits (null: none)
      - {edit: track_length, target: "Portland-Seattle gray#1", levels: [1, 2, 3]}
      - {edit: remove_track, levels: each}   # "what if this track did not exist?": every one in turn
      - {option: map, levels: [usa, usa_1910, legendary_asia]}   # a game option: the board or USA ticket deck
      - {setting: players, levels: [2, 4]}             # a tournament setting: the player count
    baseline: {longest_path_bonus: 10}   # the cell the others are compared with (default: the
                                         # game's own value of each factor, else its first level)

A rule factor names one of the game's rule parameters (the game lists them with the optional
``rule_parameters()`` hook; a cell passes its value in the game's ``ruleset`` option); an edit
factor names a kind of the game's ``edits`` option (for Ticket to Ride: ``edits.py``).

An option factor (another board) or a setting factor (another player count) deals other cards
from the same seed, so its cells are not paired: each combination of their levels is a
*stratum*, and a cell is paired only with its stratum's baseline (the cell there with the
baseline's levels of the other factors). A board that cannot seat a player count leaves that
cell out (``StudyConfig.skipped`` says which and why), so a 2-3 player board joins a grid of
2 and 4 players as one more level.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game, config_shorthands, load_game
from ttr_lab.tournament.config import TournamentConfig, parse_config
from ttr_lab.tournament.config_files import read_yaml, validate, wrong_kind

TARGETED = ("track_length", "ticket_points")  # edits that change one named track or ticket
SETTINGS = ("players",)  # the tournament keys a setting factor may vary
KINDS = ("rule", "edit", "option", "setting")  # what a factor names: one of these
MAX_CELLS = 2_000
STUDY_FILE = "study.json"  # in the study folder: the factors, levels, baseline and cells as run


class RangeConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    low: float
    high: float
    step: float = Field(gt=0)

    def values(self) -> list[Union[int, float]]:
        if self.high < self.low:
            raise ValueError(f"range: high {self.high} is below low {self.low}")
        n = int(round((self.high - self.low) / self.step)) + 1
        out = [self.low + i * self.step for i in range(n) if self.low + i * self.step <= self.high + 1e-9]
        whole = all(float(v).is_integer() for v in (self.low, self.step))
        return [int(round(v)) if whole else round(v, 10) for v in out]


class FactorConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rule: Optional[str] = None
    edit: Optional[str] = None
    option: Optional[str] = None  # a game option (Ticket to Ride's ``map``): its cells are not paired
    setting: Optional[Literal["players"]] = None  # a tournament key: its cells are not paired
    target: Any = None
    levels: Optional[Union[list[Any], Literal["each"]]] = None
    range: Optional[RangeConfig] = None

    @model_validator(mode="after")
    def _one_of_each(self) -> "FactorConfig":
        if sum(getattr(self, kind) is not None for kind in KINDS) != 1:
            raise ValueError("a factor names either 'rule' (a rule parameter), 'edit' (a map edit), 'option' "
                             "(a game option, e.g. map) or 'setting' (players): one of them")
        if (self.levels is None) == (self.range is None):
            raise ValueError(f"factor {self.name}: give either 'levels' or 'range'")
        if self.levels == "each" and self.edit is None:
            raise ValueError(f"factor {self.name}: 'levels: each' is for map edits (remove_track, remove_ticket)")
        if isinstance(self.levels, list) and not self.levels:
            raise ValueError(f"factor {self.name}: levels is empty")
        if self.edit in TARGETED and self.target is None:
            raise ValueError(f"factor {self.name}: edit {self.edit} needs a 'target' (the track or ticket to change)")
        return self

    @property
    def paired(self) -> bool:
        """Whether its levels play the same deals (a rule or an edit), so cells are paired by deal."""
        return self.option is None and self.setting is None

    @property
    def name(self) -> str:
        for named in (self.rule, self.option, self.setting):
            if named is not None:
                return named
        return f"{self.edit}[{self.target}]" if self.target is not None else str(self.edit)

    def values(self) -> list[Any]:
        if self.range is not None:
            return list(self.range.values())
        assert isinstance(self.levels, list)
        return list(self.levels)


class StudySettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    factors: list[FactorConfig] = Field(min_length=1)
    baseline: dict[str, Any] = Field(default_factory=dict)


class Cell(BaseModel):
    """One combination of factor levels, and the tournament that plays it."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    key: str  # the cell's folder name inside the study folder's cells/
    levels: dict[str, Any]
    config: TournamentConfig


class StudyConfig(BaseModel):
    """A checked study: its base tournament, factors (levels resolved) and cells."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    name: str
    output: Path
    base: TournamentConfig
    factors: list[FactorConfig]
    levels: dict[str, list[Any]]  # per factor name, its levels in order
    baseline: dict[str, Any]
    cells: list[Cell]

    @property
    def baseline_cell(self) -> Cell:
        return next(c for c in self.cells if c.levels == self.baseline)

    @property
    def each(self) -> Optional[FactorConfig]:
        """The factor of a "remove each" study, if this is one."""
        return next((f for f in self.factors if f.levels == "each"), None)

    skipped: list[tuple[str, str]] = []  # (cell key, why): combinations a board cannot seat

    def identity(self) -> dict[str, Any]:
        """What a rerun into the same folder must match."""
        return {"cells": {c.key: c.config.identity_hash() for c in self.cells}, "baseline": self.baseline}


def _key(levels: dict[str, Any]) -> str:
    text = ",".join(f"{k}={'none' if v is None else v}" for k, v in levels.items())
    return re.sub(r"[^A-Za-z0-9_.=,+#-]+", "_", text)[:120]


def _cell_options(base: dict[str, Any], factors: list[FactorConfig], levels: dict[str, Any]) -> dict[str, Any]:
    options: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
                               for k, v in base.items()}
    for f in factors:
        value = levels[f.name]
        if f.rule is not None:
            options.setdefault("ruleset", {})[f.rule] = value
        elif f.option is not None:
            options[f.option] = value
        elif f.edit is not None and value is not None:
            options.setdefault("edits", []).append({f.edit: [f.target, value] if f.target is not None else value})
    return options


def _check_option(f: FactorConfig, values: list[Any], base: TournamentConfig, where: str) -> None:
    """Each level of an option factor builds the game (an unknown board is named here, in one line)."""
    for value in values:
        try:
            load_game(base.game, **{**base.game_options(), str(f.option): value})
        except ConfigError as exc:
            raise ConfigError(f"{where}: level {value!r}: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - the game's own error on a bad option, named in one line
            raise ConfigError(f"{where}: level {value!r}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None


def _resolve_levels(f: FactorConfig, game: Game, where: str) -> list[Any]:
    if f.rule is not None:
        rules = getattr(game, "rule_parameters", None)
        if rules is None:
            raise ConfigError(f"{where}: {game.title} lists no rule parameters (its game has no rule_parameters hook)")
        known = rules()
        if f.rule not in known:
            raise ConfigError(f"{where}: {game.title} has no rule parameter {f.rule!r}; it has: {', '.join(known)}")
    if f.levels == "each":
        targets = getattr(game, "edit_targets", None)
        if targets is None:
            raise ConfigError(f"{where}: {game.title} has no map edits to list (its game has no edit_targets hook)")
        try:
            return [None] + [value for value, _label in targets(f.edit)]
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    try:
        values = f.values()
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    repeated = [v for i, v in enumerate(values) if v in values[:i]]
    if repeated:
        raise ConfigError(f"{where}: level {repeated[0]!r} is listed twice: its cells would play the same games")
    return values


def _default_baseline(f: FactorConfig, values: list[Any], game: Game, base: TournamentConfig) -> Any:
    current: Any = None
    if f.rule is not None:
        current = game.rule_parameters().get(f.rule)  # type: ignore[attr-defined]
    elif f.option is not None:
        current = base.game_options().get(f.option)
    elif f.setting is not None:
        current = getattr(base, f.setting)
    if current is not None and current in values:
        return current
    if f.edit is not None and None in values:
        return None
    return values[0]


def parse_study(data: Any, source: str = "study", overrides: dict[str, Any] | None = None) -> StudyConfig:
    """A checked study from plain data (e.g. parsed YAML), with command-line ``overrides`` of
    tournament keys (games, backend, workers, output...)."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of settings, got {type(data).__name__}")
    mistaken = wrong_kind(data, {"factors", "baseline", "entrants"}, source)
    if mistaken is not None:
        raise mistaken
    if "factors" not in data and "entrants" in data:
        raise ConfigError(f"{source}: this is a tournament config (it has no 'factors:'): run it with "
                          f"`ttr-lab tournament {source}`, or add factors (a rule or a map edit to vary)")
    if "factors" not in data:
        raise ConfigError(f"{source}: factors: a study needs at least one factor (a rule or a map edit to vary)")
    settings = validate(StudySettings, {k: data[k] for k in ("factors", "baseline") if k in data}, source)
    tournament = {k: v for k, v in data.items() if k not in ("factors", "baseline")}
    for f in settings.factors:  # a varied setting needs no value of its own: its first level stands in
        if f.setting is not None and f.setting not in tournament and isinstance(f.levels, list):
            tournament[f.setting] = f.levels[0]
    base = parse_config(tournament, source, overrides)
    game = base.load_game()
    names = [f.name for f in settings.factors]
    if len(set(names)) != len(names):
        raise ConfigError(f"{source}: factors: each factor once; repeated: {', '.join(sorted({n for n in names if names.count(n) > 1}))}")
    if any(f.levels == "each" for f in settings.factors) and len(settings.factors) > 1:
        raise ConfigError(f"{source}: factors: a 'levels: each' factor must be the study's only factor")
    levels = {f.name: _resolve_levels(f, game, f"{source}: factors.{i} ({f.name})") for i, f in enumerate(settings.factors)}
    for i, f in enumerate(settings.factors):
        where = f"{source}: factors.{i} ({f.name})"
        if f.option is not None:
            _check_option(f, levels[f.name], base, where)
        bad = [v for v in levels[f.name] if f.setting is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1)]
        if bad:
            raise ConfigError(f"{where}: level {bad[0]!r} is not a player count (a whole number, 1 or more)")
    unknown = sorted(set(settings.baseline) - set(names))
    if unknown:
        raise ConfigError(f"{source}: baseline: {', '.join(unknown)} is not a factor; factors: {', '.join(names)}")
    baseline = {}
    for f in settings.factors:
        if f.name in settings.baseline:
            if settings.baseline[f.name] not in levels[f.name]:
                raise ConfigError(f"{source}: baseline: {f.name}={settings.baseline[f.name]!r} is not one of its levels "
                                  f"{levels[f.name]}")
            baseline[f.name] = settings.baseline[f.name]
        else:
            baseline[f.name] = _default_baseline(f, levels[f.name], game, base)
    combos = list(itertools.product(*levels.values()))
    if len(combos) > MAX_CELLS:
        raise ConfigError(f"{source}: factors: {len(combos)} cells; at most {MAX_CELLS}")
    output = Path(base.output)
    cells: list[Cell] = []
    skipped: list[tuple[str, str]] = []
    keys: set[str] = set()
    for combo in combos:
        cell_levels = dict(zip(names, combo))
        key = _key(cell_levels)
        if key in keys:
            key = f"{key}-{len(cells)}"
        keys.add(key)
        data_cell = {**tournament, **{k: v for k, v in (overrides or {}).items() if v is not None}}
        for shorthand in config_shorthands(base.game):  # folded into the base's options
            data_cell.pop(shorthand, None)
        data_cell.update(name=f"{base.name} {key}", output=str(output / "cells" / key), game=base.game,
                         options=_cell_options(base.game_options(), settings.factors, cell_levels))
        for f in settings.factors:
            if f.setting is not None:
                data_cell[f.setting] = cell_levels[f.name]
        unseated = _unseated(data_cell, settings.factors)
        if unseated:
            skipped.append((key, unseated))
            continue
        try:
            config = parse_config(data_cell, f"{source}: cell {key}")
        except ConfigError as exc:
            raise ConfigError(str(exc)) from None
        cells.append(Cell(key=key, levels=cell_levels, config=config))
    if not any(c.levels == baseline for c in cells):
        why = next(w for k, w in skipped if k == _key(baseline))
        raise ConfigError(f"{source}: baseline: the cell {_key(baseline)} cannot be played ({why}); "
                          "give another baseline")
    return StudyConfig(name=base.name, output=output, base=base, factors=settings.factors, levels=levels,
                       baseline=baseline, cells=cells, skipped=skipped)


def _unseated(data_cell: dict[str, Any], factors: list[FactorConfig]) -> str:
    """Why a cell of a study over boards or player counts is left out ("" if it is played): its
    board does not seat its player count. In a study over neither, such a cell is a mistake the
    cell's own check names."""
    if all(f.paired for f in factors):
        return ""
    game = load_game(data_cell["game"], **data_cell["options"])
    n = int(data_cell["players"])
    if game.min_players <= n <= game.max_players:
        return ""
    return f"{game.title} is for {game.min_players}-{game.max_players} players, not {n}"


def load_study(path: str | Path, overrides: dict[str, Any] | None = None) -> StudyConfig:
    """Read and check a YAML study config."""
    return parse_study(read_yaml(path), str(path), overrides)
