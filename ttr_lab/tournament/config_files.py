"""Reading YAML configs into pydantic models, every mistake a one-line ConfigError (shared by
tournaments and tuning)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import pydantic
import yaml

from ttr_lab.core.errors import ConfigError

Model = TypeVar("Model", bound=pydantic.BaseModel)


def one_line(exc: pydantic.ValidationError, source: str) -> str:
    """pydantic's errors as one line: ``source: where: what; where: what``."""
    problems = []
    for e in exc.errors():
        where = ".".join(str(p) for p in e["loc"]) or "config"
        message = e["msg"].removeprefix("Value error, ")
        if e["type"] == "extra_forbidden":
            message = "unknown key"
        problems.append(f"{where}: {message}")
    return f"{source}: " + "; ".join(problems)


def validate(model: type[Model], data: Any, source: str, overrides: dict[str, Any] | None = None) -> Model:
    """``data`` (e.g. parsed YAML) with the non-None ``overrides`` on top, checked by ``model``."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of settings, got {type(data).__name__}")
    merged = dict(data)
    merged.update({k: v for k, v in (overrides or {}).items() if v is not None})
    try:
        return model.model_validate(merged)
    except pydantic.ValidationError as exc:
        raise ConfigError(one_line(exc, source)) from None


def read_yaml(path: str | Path) -> Any:
    """The parsed YAML at ``path``; unreadable or invalid files are one-line ConfigErrors."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start}); "
                          "save it as UTF-8") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"{path}: not valid YAML{where}: {getattr(exc, 'problem', exc)}") from None


def check_game(name: str, options: dict[str, Any], players: int, source: str) -> None:
    """The game loads with its options and seats ``players``, or a ConfigError says why."""
    from ttr_lab.core.game import load_game

    try:
        game = load_game(name, **options)
    except TypeError as exc:  # an option the game does not take
        raise ConfigError(f"{source}: options: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - any failure to load is a config problem
        where = "map" if "map" in options and "map" in str(exc) else "game"
        raise ConfigError(f"{source}: {where}: {exc}") from None
    if not game.min_players <= players <= game.max_players:
        raise ConfigError(f"{source}: players: {game.title} is for {game.min_players}-{game.max_players} players, "
                          f"not {players}")


def check_strategy(strategy: str, params: dict[str, Any], where: str, game: str | None = None) -> type:
    """The strategy class, once its name (as ``game`` resolves it) and parameters check out;
    else a ConfigError naming ``where``."""
    from ttr_lab.core.registry import resolve, validate_parameters

    try:
        cls = resolve(strategy, game)
        validate_parameters(strategy, cls, params)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    return cls
