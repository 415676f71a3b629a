"""Reading YAML configs into pydantic models, every mistake a one-line ConfigError (shared by
tournaments and tuning)."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, TypeVar

import pydantic
import yaml

from ttr_lab.core.errors import ConfigError

Model = TypeVar("Model", bound=pydantic.BaseModel)

# A config is a page of settings: far fewer values than this, even with aliases expanded.
MAX_YAML_VALUES = 100_000


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader that refuses a key given twice in one mapping (the last would win
    silently) and a document whose aliases expand to more than ``MAX_YAML_VALUES`` values (an
    alias bomb: a few hundred bytes that expand to billions)."""

    def get_single_node(self) -> Any:
        node = super().get_single_node()
        if node is not None:
            _count_values(node)
        return node

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, Any] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.setdefault(key, key_node)
                except TypeError:  # an unhashable key: PyYAML's own error names it
                    continue
                if first is not key_node:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"key {key!r} given twice (first at line {first.start_mark.line + 1})",
                        key_node.start_mark)
        return super().construct_mapping(node, deep)


def _count_values(root: Any) -> None:
    """Raise a YAML error when the document under ``root`` holds more than ``MAX_YAML_VALUES``
    values once every alias is expanded (counted per node, each node once)."""
    sizes: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:  # iterative: a deeply nested document must not hit the recursion limit here
        node, done = stack.pop()
        if id(node) in sizes:
            continue
        children = [c for pair in node.value for c in pair] if isinstance(node, yaml.MappingNode) else \
            node.value if isinstance(node, yaml.SequenceNode) else []
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
            continue
        sizes[id(node)] = 1 + sum(sizes.get(id(c), 1) for c in children)
        if sizes[id(node)] > MAX_YAML_VALUES:
            raise yaml.composer.ComposerError(
                None, None, f"more than {MAX_YAML_VALUES:,} values once its aliases are expanded", node.start_mark)


# The key that marks each kind of config, and the command that takes it: a config given to the
# wrong command is named by the first of these it holds that the command's model lacks.
CONFIG_KINDS = (
    ("factors", "a study config", "ttr-lab study"),
    ("search", "a balance search config", "ttr-lab study"),
    ("search_space", "a tuning config", "ttr-lab tune"),
    ("entrants", "a tournament config", "ttr-lab tournament"),
)


def wrong_kind(data: Any, fields: Any, source: str) -> ConfigError | None:
    """The one-line error for a config of another kind than the command's (``fields``: the keys
    the command takes), naming the command the file is for; None when it is not one."""
    if not isinstance(data, dict):
        return None
    for key, kind, command in CONFIG_KINDS:
        # tuning's own ``search`` is a sampler's name; a balance search's is a block of settings
        if key == "search" and not isinstance(data.get(key), dict):
            continue
        if key in data and (key not in fields or key == "search"):
            return ConfigError(f"{source}: this is {kind} (it has '{key}:'): run it with `{command} {source}`")
    return None


def _fields_at(model: type[pydantic.BaseModel], loc: tuple[Any, ...]) -> dict[str, Any] | None:
    """The fields of the (nested) model whose key sits at ``loc``, or None when not a model."""
    for part in loc[:-1]:
        if isinstance(part, int):
            continue
        field = model.model_fields.get(str(part))
        if field is None:
            return None
        candidates = [field.annotation, *getattr(field.annotation, "__args__", ())]
        nested = [c for c in candidates if isinstance(c, type) and issubclass(c, pydantic.BaseModel)]
        if not nested:
            return None
        model = nested[0]
    return dict(model.model_fields)


def _given_at(data: Any, loc: tuple[Any, ...]) -> Any:
    for part in loc[:-1]:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def did_you_mean(key: str, fields: dict[str, Any], given: Any) -> str:
    """`` (did you mean 'games'?)`` for a key close to a field not given beside it, else ''."""
    names = [n for n in fields if not (isinstance(given, dict) and n in given)]
    names += [f.alias for f in fields.values() if f.alias and f.alias not in names]
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


# A value of the right kind out of its range was meant for its own key: no other key to suggest
# (``value_weight: .inf`` is not a misspelt ``answer_weight``).
_RANGE_ERRORS = ("finite_number", "greater_than", "less_than", "too_long", "too_short", "multiple_of")


def one_line(exc: pydantic.ValidationError, source: str, model: type[pydantic.BaseModel] | None = None,
             data: Any = None) -> str:
    """pydantic's errors as one line: ``source: where: what; where: what``. With the ``model``
    and the ``data`` it checked, a misspelt key (unknown, or a field given the value of another
    it is close to, ``game: 4``) names the key it is close to."""
    problems = []
    for e in exc.errors():
        where = ".".join(str(p) for p in e["loc"]) or "config"
        message = e["msg"].removeprefix("Value error, ")
        given = _given_at(data, e["loc"])
        known = _fields_at(model, e["loc"]) if model is not None and e["loc"] else None
        key = e["loc"][-1] if e["loc"] else None
        hint = did_you_mean(key, {k: v for k, v in known.items() if k != key}, given) \
            if known is not None and isinstance(key, str) and isinstance(given, dict) and key in given \
            and e["type"] != "missing" and not e["type"].startswith(_RANGE_ERRORS) else ""
        if e["type"] == "extra_forbidden":
            message = "unknown key"
        problems.append(f"{where}: {message}{hint}")
    return f"{source}: " + "; ".join(problems)


def with_game(model: type[pydantic.BaseModel], data: Any) -> Any:
    """A config's raw settings ``data`` with its ``game`` named and that game's config shorthands
    (top-level keys a game declares for its options, e.g. Ticket to Ride's ``map``) folded into
    ``options``: no game named, the one game declaring them, else the games catalogue's house
    game. A key that is no field and no game's shorthand is left for ``model`` to refuse."""
    from ttr_lab.core.game import declared_shorthands, fold_shorthands, game_for_shorthands

    if not isinstance(data, dict):
        return data
    named = data.get("game")
    declared = declared_shorthands()
    shorthands = {k for k in data if k not in model.model_fields and k in declared}
    # A shorthand given as null is not given (a config.yaml an earlier ttr-lab wrote has ``map: null``).
    given = {k: data[k] for k in shorthands if data[k] is not None}
    # A game that is no name (``game: 4``, meant for ``games``) is left for the model to refuse,
    # its shorthands folded as if no game were named, so the one error is that key.
    game = game_for_shorthands(named if isinstance(named, (str, type(None))) else None, list(given))
    out = {k: v for k, v in data.items() if k not in shorthands}
    out["game"] = game if isinstance(named, (str, type(None))) else named
    if given and isinstance(named, (str, type(None))) and isinstance(data.get("options") or {}, dict):
        out["options"] = fold_shorthands(game, given, data.get("options") or {})
    return out


def validate(model: type[Model], data: Any, source: str, overrides: dict[str, Any] | None = None) -> Model:
    """``data`` (e.g. parsed YAML) with the non-None ``overrides`` on top, checked by ``model``."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of settings, got {type(data).__name__}")
    merged = dict(data)
    merged.update({k: v for k, v in (overrides or {}).items() if v is not None})
    mistaken = wrong_kind(merged, model.model_fields, source)
    if mistaken is not None:
        raise mistaken
    if "game" in model.model_fields:
        try:
            merged = with_game(model, merged)
        except ConfigError as exc:
            raise ConfigError(f"{source}: {exc}") from None
    try:
        return model.model_validate(merged)
    except pydantic.ValidationError as exc:
        raise ConfigError(one_line(exc, source, model, merged)) from None


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
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader, with two more checks
    except RecursionError:
        raise ConfigError(f"{path}: not valid YAML: nested too deeply") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"{path}: not valid YAML{where}: {getattr(exc, 'problem', exc)}") from None


def read_yaml_extending(path: str | Path, chain: tuple[Path, ...] = ()) -> Any:
    """The parsed YAML at ``path`` over the settings of the config its ``extends:`` names (a path
    relative to the file, which may extend another in turn): the file's own top-level keys win.
    A missing base or a cycle is a one-line ConfigError."""
    path = Path(path)
    data = read_yaml(path)
    if not isinstance(data, dict) or "extends" not in data:
        return data
    base = data.pop("extends")
    if not isinstance(base, str) or not base:
        raise ConfigError(f"{path}: extends: give the path of a config file (relative to this one), not {base!r}")
    target = path.parent / base
    chain = (*chain, path.resolve())
    if target.resolve() in chain:
        raise ConfigError(f"{path}: extends: {base} extends back to {chain[0]} (a cycle)")
    if not target.is_file():
        raise ConfigError(f"{path}: extends: no config file {target}")
    return {**read_yaml_extending(target, chain), **data}


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
    try:  # a ruleset that cannot deal this many players (too few cards or tickets) says so now
        game.new_game(players, 0)
    except ConfigError as exc:
        raise ConfigError(f"{source}: options: {exc}") from None


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
