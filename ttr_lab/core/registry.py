"""Strategy names for configs and the command line: a short registered name or an import path.

A registered name may stand for a ``Preset``: another strategy (its base) with some parameters
fixed and the others open, as data. The registry checks a preset against its base's signature
and makes it a class of its own (``preset_class``): its parameters are the open ones, with the
preset's defaults, so a config, the tuner and ``describe_parameters`` see it as any strategy.

A strategy's tunable parameters are its constructor's keyword arguments, each with a type
annotation and a default. ``build("greedy", {"ticket_weight": 2.0})`` checks the names and
values against that signature (with pydantic) and says what is valid when something is not.

``StrategySpec`` is a strategy with its parameters wherever one is named (a tournament's
entrants, tuning's opponents, an environment's opponents). ``StrategySpec.validated(game)``
checks it once and fills in every default, so its identity (``params_hash``) is that of the
strategy it builds: greedy with ``{ticket_bonus: 3}``, ``{ticket_bonus: 3.0}`` and ``{}`` is one
strategy.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import inspect
import json
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

import pydantic

from ttr_lab.core.errors import ConfigError

# A module, not the package's __init__: a test folder named "strategies" on the path would
# shadow the package as a namespace package, and submodule imports still resolve.
SHIPPED_TABLE = "ttr_lab.strategies.shipped"


@dataclass(frozen=True)
class Preset:
    """A strategy that is ``base`` (``package.module:Class``) with ``fixed`` parameters; a config
    may set the ``open`` ones (None: every parameter of the base not fixed), whose defaults are
    ``defaults`` where given, else the base's. ``tunable``: the ranges worth tuning (None: the
    base's ``TUNABLE`` over the open parameters). ``about``: what it is, one paragraph."""

    base: str
    fixed: Mapping[str, Any] = field(default_factory=dict)
    open: tuple[str, ...] | None = None
    defaults: Mapping[str, Any] = field(default_factory=dict)
    tunable: Mapping[str, Any] | None = None
    about: str = ""


# Names registered with register_strategy: the user's, for every game.
REGISTRY: dict[str, str | Preset] = {}
_ANY = "any"  # the game key of the presets registered with register_strategy


def register_strategy(name: str, path: str | Preset) -> None:
    """Make ``name`` stand for ``path`` (``package.module:Class``, or a ``Preset``) in configs
    and on the command line, in every game."""
    REGISTRY[name] = path
    preset_class.cache_clear()


def _shipped() -> dict[str, dict[str, str | Preset]]:
    """Each game's shipped names (``GAME_REGISTRY`` of ``strategies/shipped.py``), looked up by
    name when first needed: the core imports no strategy."""
    return importlib.import_module(SHIPPED_TABLE).GAME_REGISTRY


def game_strategies(game: str | None) -> dict[str, str | Preset]:
    """The names ``game`` registers for itself (``{}`` for a game that ships none, or no game),
    then the names registered with ``register_strategy``."""
    return {**(_shipped().get(game, {}) if game else {}), **REGISTRY}


def resolve(name: str, game: str | None = None) -> type:
    """The strategy class for ``name``: a registered name (``greedy``) or ``package.module:Class``.

    A registered name means what ``game`` (a game's registered name) registers. Without a game,
    a name every game that registers it gives the same class (``random``) needs none; another
    (``greedy``) is refused, naming the games."""
    path = _path_of(name, game)
    if isinstance(path, Preset):
        tables = [(_ANY, REGISTRY), *_shipped().items()]
        return preset_class(*next((g, n) for g, table in tables for n, p in table.items() if p is path))
    module_name, _, attr = path.partition(":")
    try:
        module = _import_strategy_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"strategy {name!r}: cannot import {module_name!r} ({exc})") from None
    except Exception as exc:  # noqa: BLE001 - a module that fails while importing: a syntax error, a raise
        where = f" (line {exc.lineno})" if isinstance(exc, SyntaxError) and exc.lineno else ""
        raise ConfigError(f"strategy {name!r}: importing {module_name!r} failed{where}: "
                          f"{type(exc).__name__}: {exc}") from None
    try:
        cls = getattr(module, attr)
    except AttributeError:
        raise ConfigError(f"strategy {name!r}: module {module_name!r} has no {attr!r}") from None
    if not inspect.isclass(cls) or not callable(getattr(cls, "act", None)):
        raise ConfigError(f"strategy {name!r}: {path} is not a class with an act() method")
    return cls


# Strategies of every game, whatever it registers: they use the protocol alone.
ANY_GAME = {"random": "ttr_lab.core.testing:RandomPlayer"}


def _path_of(name: str, game: str | None) -> str | Preset:
    if ":" in name:
        return _retired(name) or name
    if game:
        own = game_strategies(game)
        if name in own:
            return own[name]
        if name in ANY_GAME:
            return ANY_GAME[name]
        elsewhere = sorted(g for g, table in _shipped().items() if name in table)
        where = f" (a strategy of {', '.join(elsewhere)}, not of {game})" if elsewhere else ""
        raise ConfigError(f"unknown strategy {name!r}{where}; registered: "
                          f"{', '.join(own) or 'none'} (or give module:Class)")
    if name in REGISTRY:
        return REGISTRY[name]
    paths = {g: table[name] for g, table in _shipped().items() if name in table}
    if len({id(p) for p in paths.values()}) == 1:
        return next(iter(paths.values()))
    if paths:
        raise ConfigError(f"strategy {name!r} is a different player in each of {', '.join(sorted(paths))}: "
                          "name the game (resolve(name, game))")
    known = sorted({n for table in _shipped().values() for n in table} | set(REGISTRY))
    raise ConfigError(f"unknown strategy {name!r}; registered: {', '.join(known)} (or give module:Class)")


# The shipped strategies' import name before they became ttr_lab.strategies.
OLD_PACKAGE, NEW_PACKAGE = "strategies", "ttr_lab.strategies"


def _retired(path: str) -> Preset | None:
    """The preset a class of an earlier release became (``shipped.RETIRED``), with a
    DeprecationWarning naming it; None for any other path."""
    root, dot, rest = path.partition(".")
    module, _, attr = (NEW_PACKAGE + dot + rest if root == OLD_PACKAGE else path).partition(":")
    shipped = importlib.import_module(SHIPPED_TABLE)
    module = getattr(shipped, "MOVED", {}).get(module, module)
    name = getattr(shipped, "RETIRED", {}).get(f"{module}:{attr}")
    if name is None:
        return None
    preset = next(table[name] for table in _shipped().values() if name in table)
    warnings.warn(f"strategy path {path!r} is deprecated: it is the registered name {name!r} now",
                  DeprecationWarning, stacklevel=4)
    return preset if isinstance(preset, Preset) else None


def _moved_to(module_name: str) -> str | None:
    """Where a shipped strategy's module of an earlier release lives now (under its old package
    name, ``strategies.greedy``, or moved, as the shipped table's ``MOVED`` says), or None."""
    root, dot, rest = module_name.partition(".")
    name = NEW_PACKAGE + dot + rest if root == OLD_PACKAGE else module_name
    moved = getattr(importlib.import_module(SHIPPED_TABLE), "MOVED", {})
    for _ in range(len(moved)):  # a module may have moved twice (into a game's folder, then a package)
        if name not in moved:
            break
        name = moved[name]
    if name == module_name:
        return None
    try:
        return name if importlib.util.find_spec(name) is not None else None
    except ImportError:
        return None


def _import_strategy_module(module_name: str) -> Any:
    """The module ``module_name``; a shipped strategy's old path (``strategies.greedy``,
    ``ttr_lab.strategies.greedy``) that no longer imports is its module now, with a DeprecationWarning."""
    try:
        return importlib.import_module(module_name)
    except ImportError:
        new_name = _moved_to(module_name)
        if new_name is None:
            raise
    warnings.warn(f"strategy path {module_name!r} is deprecated: the shipped strategies are "
                  f"{new_name!r} now", DeprecationWarning, stacklevel=3)
    return importlib.import_module(new_name)


_PRESET_PREFIX = "preset__"


@functools.lru_cache(maxsize=None)
def preset_class(game: str, name: str) -> type:
    """The class of preset ``name`` (of ``game``'s table, or ``"any"``: registered by hand): a
    subclass of its base whose constructor takes the open parameters and passes the fixed ones.
    A preset naming a parameter its base does not take is refused, naming it. Picklable by
    reference (``ttr_lab.core.registry.preset__<game>__<name>``), so process pools take it."""
    preset = REGISTRY[name] if game == _ANY else _shipped()[game][name]
    assert isinstance(preset, Preset)
    base = resolve(preset.base)
    valid = parameters(base)
    for what, names in (("fixed", preset.fixed), ("open", preset.open or ()), ("defaults", preset.defaults)):
        unknown = [k for k in names if k not in valid]
        if unknown:
            raise ConfigError(f"preset {name!r}: {what} parameter {', '.join(map(repr, unknown))} is not one of "
                              f"{preset.base}'s: {describe_parameters(base)}")
    open_names = preset.open if preset.open is not None else tuple(k for k in valid if k not in preset.fixed)
    both = [k for k in open_names if k in preset.fixed] + [k for k in preset.defaults if k not in open_names]
    if both:
        raise ConfigError(f"preset {name!r}: {', '.join(map(repr, both))} must be open and not fixed")
    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for k in open_names:
        p = valid[k]
        signature.append(p.replace(kind=p.KEYWORD_ONLY, default=preset.defaults.get(k, p.default)))
    given = {**preset.defaults, **preset.fixed}
    base_init: Callable[..., None] = getattr(base, "__init__")  # noqa: B009 - the class's, not an instance's

    def __init__(self: Any, **open_values: Any) -> None:
        base_init(self, **{**given, **open_values})

    __init__.__signature__ = inspect.Signature(signature)  # type: ignore[attr-defined]
    tunable = preset.tunable if preset.tunable is not None else {
        k: v for k, v in getattr(base, "TUNABLE", {}).items() if k in open_names}
    made = type(name, (base,), {"__init__": __init__, "name": name, "TUNABLE": dict(tunable),
                                "__doc__": preset.about or base.__doc__, "__module__": __name__,
                                "__qualname__": f"{_PRESET_PREFIX}{game}__{name}",
                                "_annotations_module": _annotations_module(base)})
    return made


def _annotations_module(cls: type) -> str:
    """The module whose names a class's postponed parameter annotations are written in."""
    return str(getattr(cls, "_annotations_module", cls.__module__))


def __getattr__(attr: str) -> type:
    """A preset's class by its qualified name (how pickle finds it in another process)."""
    if attr.startswith(_PRESET_PREFIX) and "__" in attr[len(_PRESET_PREFIX):]:
        game, _, name = attr[len(_PRESET_PREFIX):].partition("__")
        return preset_class(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def parameters(cls: type[Any]) -> dict[str, inspect.Parameter]:
    """The tunable parameters of a strategy class: its constructor's keyword arguments."""
    signature = inspect.signature(cls.__init__)
    return {
        p.name: p for p in list(signature.parameters.values())[1:]
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }


def describe_parameters(cls: type) -> str:
    parts = []
    for p in parameters(cls).values():
        kind = getattr(p.annotation, "__name__", str(p.annotation)) if p.annotation is not p.empty else "any"
        default = "required" if p.default is p.empty else repr(p.default)
        parts.append(f"{p.name}: {kind} = {default}")
    return ", ".join(parts) or "none"


@functools.lru_cache(maxsize=None)
def _validator(cls: type) -> type[pydantic.BaseModel]:
    fields: dict[str, Any] = {}
    for p in parameters(cls).values():
        annotation = Any if p.annotation is p.empty else p.annotation
        if isinstance(annotation, str):  # postponed annotations: resolve in the class's module
            annotation = eval(annotation, vars(importlib.import_module(_annotations_module(cls))))  # noqa: S307
        fields[p.name] = (annotation, ... if p.default is p.empty else p.default)
    config = pydantic.ConfigDict(extra="forbid", strict=False, arbitrary_types_allowed=True)
    return pydantic.create_model(f"{cls.__name__}Parameters", __config__=config, **fields)


def validate_parameters(name: str, cls: type, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """Checked and converted keyword arguments for ``cls``, every parameter it takes with its
    default filled in; a ConfigError names every problem."""
    params = dict(params or {})
    valid = parameters(cls)
    unknown = [k for k in params if k not in valid]
    if unknown:
        raise ConfigError(
            f"strategy {name!r} has no parameter {', '.join(map(repr, unknown))}; its parameters: {describe_parameters(cls)}"
        )
    try:
        model = _validator(cls).model_validate(params)
    except pydantic.ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"strategy {name!r}: bad parameter value ({problems}); its parameters: {describe_parameters(cls)}") from None
    return {k: getattr(model, k) for k in valid}


def factory(name: str, params: Mapping[str, Any] | None = None, game: str | None = None) -> Callable[[], Any]:
    """A zero-argument callable that builds a fresh, validated instance (picklable); ``game``
    as for ``resolve``."""
    cls = resolve(name, game)
    return functools.partial(cls, **validate_parameters(name, cls, params))


def build(name: str, params: Mapping[str, Any] | None = None, game: str | None = None) -> Any:
    """A fresh instance of strategy ``name`` with ``params`` (``game`` as for ``resolve``)."""
    return factory(name, params, game)()


def build_strategies(names: Sequence[str], players: int, game: str | None = None) -> list[Any]:
    """One fresh strategy per seat: ``names`` gives one per seat, or one for every seat."""
    names = [n.strip() for item in names for n in item.split(",") if n.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ConfigError(f"{len(names)} strategies given for {players} players; give one, or one per seat")
    return [build(n, game=game) for n in names]


class StrategySpec(pydantic.BaseModel):
    """A strategy with its parameters, as a config or an environment's opponents list gives it:
    ``{"strategy": name, "params": {...}}`` with an optional display ``name``, or just the name.

    ``validated(game)`` gives the same spec checked, its parameters converted and complete (the
    constructor's defaults filled in); its ``params_json`` and ``params_hash`` are then the
    strategy's identity, whatever spelling of a value or omitted default the config used."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    strategy: str = pydantic.Field(min_length=1)
    params: dict[str, Any] = pydantic.Field(default_factory=dict)
    name: str | None = None
    # Set by validated(): the game the parameters were checked for (factory then builds directly).
    _checked_for: tuple[str | None] | None = pydantic.PrivateAttr(default=None)

    @classmethod
    def of(cls, value: Any) -> "StrategySpec":
        """``value`` as a spec (a name, a mapping or a spec); a ConfigError in one line if it is none."""
        if isinstance(value, cls):
            return value
        try:
            return cls(strategy=value) if isinstance(value, str) else cls.model_validate(value)
        except pydantic.ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in exc.errors())
            raise ConfigError(f"strategy {value!r} is neither a name nor {{'strategy': name, 'params': {{...}}}} "
                              f"({problems})") from None

    @property
    def label(self) -> str:
        """The display name: ``name`` if given, else the strategy's name."""
        return self.name or self.strategy

    def validated(self, game: str | None = None) -> "StrategySpec":
        """This spec checked for ``game`` (as ``resolve``), its parameters converted and complete;
        a ConfigError names what is wrong. Checking a checked spec again costs nothing."""
        if self._checked_for == (game,):
            return self
        cls = resolve(self.strategy, game)
        spec = self.model_copy(update={"params": validate_parameters(self.strategy, cls, self.params)})
        spec._checked_for = (game,)
        return spec

    def params_json(self) -> str:
        """The parameters as canonical JSON (the ``params`` column of a results row)."""
        return json.dumps(self.params, sort_keys=True, separators=(",", ":"), default=str)

    def params_hash(self) -> str:
        """The strategy's identity: its name and parameters (validate first for a canonical one)."""
        return hashlib.sha256(f"{self.strategy}|{self.params_json()}".encode()).hexdigest()[:12]

    def factory(self, game: str | None = None) -> Callable[[], Any]:
        """A maker of fresh, validated instances; a spec ``validated`` for ``game`` is not checked again."""
        if self._checked_for == (game,):
            return functools.partial(resolve(self.strategy, game), **self.params)
        return factory(self.strategy, self.params, game)
