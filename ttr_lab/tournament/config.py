"""Tournament configuration: YAML checked by pydantic; every mistake is a one-line ConfigError.

    name: four-strategies
    game: ticket_to_ride   # a registered game (ttr-lab games); default: the games catalogue's house game
    map: usa               # a shorthand the game declares (Ticket to Ride's: options: {map: usa})
    options: {}            # the game's options, e.g. {map: legendary_asia}
    players: 4
    entrants:
      - {name: random, strategy: random}
      - {name: greedy, strategy: greedy, params: {ticket_bonus: 3.0}}
      - {name: planner, strategy: ticket_planner}
      - {name: mcts, strategy: mcts, params: {iterations: 16}}
    design: fixed          # fixed | round_robin | one_vs_field
    rotation: cyclic       # cyclic (n rotations) | all (n! permutations)
    games: 400             # rounded up to whole deals (a deal: one seed at every table and seating)
    seed: 2026
    move_time_limit: 10    # seconds per decision; slower loses the game (null: no limit)
    build_time_limit: 60   # seconds to import and build a strategy (its process's start-up included
                           # when isolated): at config time a config error, in a game a forfeit
    output: results/4p
    backend: ray           # ray | serial
    address: null          # null: start a local Ray; else an existing cluster ("host:port", "auto")
    workers: null          # null: every CPU
    records: false         # also keep every game record (JSON lines, gzip)
    isolation: none        # none (strategies in the worker's process) | process (each in its own)
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from ttr_lab.core.text import first_unprintable
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game, load_game
from ttr_lab.core.registry import StrategySpec
from ttr_lab.tournament.alarm import built_within
from ttr_lab.tournament.config_files import check_game, read_yaml, validate, with_game


MAX_GAMES = 10_000_000
# A move may think for at most a day: a limit beyond what a timer can hold (.inf, 1e300) is no
# limit at all, and overflowed into a forfeit of every move.
MAX_MOVE_TIME = 86_400.0
# A strategy's constructor (a policy loading its model, say) gets a minute by default: one that
# sleeps must not hold the config check or a game forever.
BUILD_TIME = 60.0


def printable_name(name: str) -> str:
    """``name`` when it prints as itself: a control character (an escape code, a newline) would
    reach the terminal raw, or break a report's table row."""
    at = first_unprintable(name)
    if at >= 0:
        raise ValueError(f"{name!r} holds the control character {name[at]!r}; names are printed as they are")
    return name


class TournamentConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _named_game(cls, data: Any) -> Any:
        return with_game(cls, data)

    name: str = "tournament"
    # Named before validation (with_game): the one game declaring the shorthands given (``map``),
    # else the games catalogue's house game.
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    players: int = Field(ge=1)
    entrants: list[StrategySpec] = Field(min_length=1)
    design: Literal["fixed", "round_robin", "one_vs_field"] = "fixed"
    focus: Optional[str] = None  # one_vs_field: the entrant that plays against the field
    rotation: Optional[Literal["cyclic", "all"]] = None  # default: all at 2-3 players, cyclic at 4-5
    # Bounded: the schedule is planned whole before the first game (a million games plan in seconds).
    games: int = Field(default=100, ge=1, le=MAX_GAMES)
    seed: int = 0
    move_time_limit: Optional[float] = Field(default=None, gt=0, le=MAX_MOVE_TIME, allow_inf_nan=False)
    build_time_limit: float = Field(default=BUILD_TIME, gt=0, le=MAX_MOVE_TIME, allow_inf_nan=False)
    output: str = "results/tournament"
    backend: Literal["ray", "serial"] = "ray"
    address: Optional[str] = None
    workers: Optional[int] = Field(default=None, ge=1)
    records: bool = False
    # How the games run, not which games: outside identity(), like backend and workers.
    isolation: Literal["none", "process"] = "none"
    runtime_env: Optional[dict[str, Any]] = None  # passed to ray.init (e.g. {working_dir: .})

    _printable_name = field_validator("name")(lambda cls, name: printable_name(name))

    @field_validator("entrants")
    @classmethod
    def _unique_names(cls, entrants: list[StrategySpec]) -> list[StrategySpec]:
        unnamed = [str(i) for i, e in enumerate(entrants) if not e.name]
        if unnamed:
            raise ValueError(f"every entrant needs a name (the results and the report call it by it); "
                             f"entrants {', '.join(unnamed)} have none")
        for e in entrants:
            printable_name(e.label)
        names = [e.label for e in entrants]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"entrant names must be unique; repeated: {', '.join(duplicates)}")
        return entrants

    @model_validator(mode="after")
    def _design_fits(self) -> "TournamentConfig":
        n, k = self.players, len(self.entrants)
        try:
            game = self.load_game()
        except Exception:  # noqa: BLE001 - a game that does not load is reported by parse_config
            game = None
        if game is not None and not game.min_players <= n <= game.max_players:
            raise ValueError(f"players: {game.title} is for {game.min_players}-{game.max_players} players, not {n}")
        if self.design == "fixed" and k != n:
            raise ValueError(f"design 'fixed' seats every entrant at one table: {k} entrants for {n} players")
        if self.design == "round_robin" and k < n:
            raise ValueError(f"design 'round_robin' needs at least {n} entrants for {n}-player tables, got {k}")
        if self.design == "one_vs_field":
            if self.focus is None:
                raise ValueError("design 'one_vs_field' needs 'focus': the entrant that plays against the field")
            if self.focus not in {e.label for e in self.entrants}:
                raise ValueError(f"focus {self.focus!r} is not an entrant; entrants: {', '.join(e.label for e in self.entrants)}")
            if k < 2:
                raise ValueError("design 'one_vs_field' needs the focus and at least one other entrant")
        if self.rotation is None:
            self.rotation = "all" if n <= 3 else "cyclic"
        planned = self.planned_games()
        if planned > MAX_GAMES:
            raise ValueError(f"games: {self.games} rounded up to whole deals of {self.games_per_deal():,} games "
                             f"({self.design}, {k} entrants at {n} players) is {planned:,} games; at most {MAX_GAMES:,}")
        return self

    def games_per_deal(self) -> int:
        """Games in one deal (every table under every seating), counted without listing them."""
        n, k = self.players, len(self.entrants)
        # The entrants at a table are distinct, except one_vs_field's (focus, other, other...),
        # whose distinct seatings are the focus's n places either way.
        tables = {"fixed": 1, "round_robin": math.comb(k, n), "one_vs_field": k - 1}[self.design]
        if self.design == "one_vs_field" or self.rotation == "cyclic":
            return tables * n
        return tables * math.factorial(n)

    def planned_games(self) -> int:
        """The games this config plays: ``games`` rounded up to whole deals."""
        per_deal = self.games_per_deal()
        return math.ceil(self.games / per_deal) * per_deal

    def game_options(self) -> dict[str, Any]:
        """The options the game is built with (the game's config shorthands folded in)."""
        return dict(self.options)

    def load_game(self) -> Game:
        return load_game(self.game, **self.game_options())

    def identity(self) -> dict[str, Any]:
        """What defines the games (not how or where they run): a rerun must match it to resume."""
        return {
            "game": self.game, "options": self.game_options(), "players": self.players, "design": self.design, "focus": self.focus,
            "rotation": self.rotation, "seed": self.seed, "move_time_limit": self.move_time_limit,
            # Validated: the parameters as the strategy takes them, defaults filled in, so that
            # {ticket_bonus: 3}, {ticket_bonus: 3.0} and {} (its default) are one tournament.
            "entrants": [self.entrant(i).model_dump(mode="json") for i in range(len(self.entrants))],
            # Only when not the default: the identity of every folder written before it existed.
            **({"build_time_limit": self.build_time_limit} if self.build_time_limit != BUILD_TIME else {}),
        }

    def entrant(self, i: int) -> StrategySpec:
        """Entrant ``i`` checked for the game (``parse_config`` has already done so); isolated,
        as a child validated it (the engine's process never imports a strategy)."""
        if self.isolation == "process":
            return self.entrants[i]
        return self.entrants[i].validated(self.game)

    def identity_hash(self) -> str:
        text = json.dumps(self.identity(), sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def parse_config(data: Any, source: str = "config", overrides: dict[str, Any] | None = None) -> TournamentConfig:
    """A checked config from plain data (e.g. parsed YAML), with command-line ``overrides``."""
    config = validate(TournamentConfig, data, source, overrides)
    _check_strategies(config, source)
    return config


def _check_strategies(config: TournamentConfig, source: str) -> None:
    """Every entrant checked once: its name, its parameters (converted, defaults filled in, kept
    as the config's entrants) and its constructor (built once, so one that rejects its
    parameters is a config error)."""
    check_game(config.game, config.game_options(), config.players, source)
    if config.isolation == "process":
        # Isolated, the engine never imports a strategy: a child checks it, and sends back the
        # parameters validated (JSON), so the identity is the same as in-process.
        _check_isolated(config, source)
        return
    checked = []
    limit = config.build_time_limit
    for i, e in enumerate(config.entrants):
        where = f"{source}: entrants.{i} ({e.name})"
        try:
            spec = built_within(lambda: e.validated(config.game), limit)  # imports its module
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - too slow to import
            raise ConfigError(f"{where}: strategy {e.strategy!r}: {type(exc).__name__}: {exc}") from None
        try:
            built_within(spec.factory(config.game), limit)
        except Exception as exc:  # noqa: BLE001 - whatever the constructor raises
            raise ConfigError(f"{where}: strategy {e.strategy!r} cannot be built with "
                              f"params {e.params}: {type(exc).__name__}: {exc}") from None
        checked.append(spec)
    config.entrants = checked


def _check_isolated(config: TournamentConfig, source: str) -> None:
    """The same checks, in a child process: isolated, the engine never imports a strategy."""
    from ttr_lab.core.isolation import check_strategies

    answers = check_strategies([(e.strategy, e.params, config.game) for e in config.entrants], config.build_time_limit)
    checked = []
    for i, (e, (params, problem)) in enumerate(zip(config.entrants, answers)):
        if problem is None:
            # The child's validated parameters: the identity, as the worker's child builds it.
            checked.append(e.model_copy(update={"params": params}))
            continue
        kind, text = problem
        if kind == "ConfigError":
            raise ConfigError(f"{source}: entrants.{i} ({e.name}): {text}")
        raise ConfigError(f"{source}: entrants.{i} ({e.name}): strategy {e.strategy!r} cannot be built with "
                          f"params {e.params}: {kind}: {text}")
    config.entrants = checked


def load_config(path: str | Path, overrides: dict[str, Any] | None = None) -> TournamentConfig:
    """Read and check a YAML tournament config."""
    data = read_yaml(path)
    return parse_config(data, str(path), overrides)
