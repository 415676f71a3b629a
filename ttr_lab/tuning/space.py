"""The search space of a tuning run: which constructor parameters vary, and over what.

A strategy documents the ranges worth searching in a ``TUNABLE`` class attribute (plain data,
so strategies need not import the tuner)::

    TUNABLE = {"ticket_bonus": {"low": 0.0, "high": 15.0},      # a float range
               "min_points": {"low": 1, "high": 7},              # ints when both bounds are ints
               "locomotive_weight": {"low": 0.2, "high": 3.0, "log": True},
               "mode": {"choices": ["fast", "careful"]}}

A tuning config may use those ranges (``search_space`` omitted, or a list of names) or give its
own in the same form. Each becomes an Optuna distribution, which both backends sample from.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Mapping

from ttr_lab.core.errors import ConfigError


@dataclass(frozen=True)
class ParamRange:
    name: str
    low: float | int | None = None
    high: float | int | None = None
    log: bool = False
    choices: tuple[Any, ...] | None = None

    @property
    def is_int(self) -> bool:
        return self.choices is None and isinstance(self.low, int) and isinstance(self.high, int)

    def describe(self) -> str:
        if self.choices is not None:
            return f"{self.name} in {{{', '.join(map(repr, self.choices))}}}"
        kind = "int" if self.is_int else "float"
        return f"{self.name}: {kind} {self.low}..{self.high}{' (log)' if self.log else ''}"

    @property
    def bounds(self) -> tuple[float | int, float | int]:
        """``(low, high)`` of a numeric range (a range of choices has none)."""
        if self.low is None or self.high is None:
            raise ValueError(f"{self.name}: a range of choices has no bounds")
        return self.low, self.high

    def distribution(self) -> Any:
        import optuna

        if self.choices is not None:
            return optuna.distributions.CategoricalDistribution(list(self.choices))
        if self.is_int:
            return optuna.distributions.IntDistribution(int(self.bounds[0]), int(self.bounds[1]), log=self.log)
        return optuna.distributions.FloatDistribution(float(self.bounds[0]), float(self.bounds[1]), log=self.log)

    def contains(self, value: Any) -> bool:
        if self.choices is not None:
            return value in self.choices
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not self.bounds[0] <= value <= self.bounds[1]:
            return False
        return not self.is_int or float(value).is_integer()

    def suggest(self, trial: Any) -> Any:
        """This parameter's value for an Optuna trial."""
        if self.choices is not None:
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.is_int:
            return trial.suggest_int(self.name, int(self.bounds[0]), int(self.bounds[1]), log=self.log)
        return trial.suggest_float(self.name, float(self.bounds[0]), float(self.bounds[1]), log=self.log)

    def grid(self, points: int) -> list[Any]:
        """``points`` values spread over the range (geometrically when ``log``), ends included."""
        if self.choices is not None:
            return list(self.choices)
        low, high = float(self.bounds[0]), float(self.bounds[1])
        if points == 1:
            values = [(low + high) / 2]
        elif self.log:
            values = [low * (high / low) ** (i / (points - 1)) for i in range(points)]
        else:
            values = [low + (high - low) * i / (points - 1) for i in range(points)]
        if self.is_int:
            return list(dict.fromkeys(int(round(v)) for v in values))
        return [round(v, 6) for v in values]


def parse_range(name: str, spec: Any, where: str) -> ParamRange:
    """One range from config data: ``{low, high[, log]}``, ``{choices: [...]}`` or ``[low, high]``."""
    if isinstance(spec, (list, tuple)) and len(spec) == 2 and all(isinstance(v, (int, float)) for v in spec):
        spec = {"low": spec[0], "high": spec[1]}
    if not isinstance(spec, Mapping):
        raise ConfigError(f"{where}: {name}: give {{low: .., high: ..}}, [low, high] or {{choices: [..]}}, got {spec!r}")
    unknown = set(spec) - {"low", "high", "log", "choices"}
    if unknown:
        raise ConfigError(f"{where}: {name}: unknown key {', '.join(sorted(map(str, unknown)))} (use low, high, log or choices)")
    if "choices" in spec:
        choices = spec["choices"]
        if set(spec) != {"choices"} or not isinstance(choices, list) or not choices:
            raise ConfigError(f"{where}: {name}: 'choices' must be a non-empty list, alone")
        return ParamRange(name, choices=tuple(choices))
    low: Any = spec.get("low")
    high: Any = spec.get("high")
    log = spec.get("log", False)
    for label, value in (("low", low), ("high", high)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where}: {name}: '{label}' must be a number, got {value!r}")
    if not isinstance(log, bool):
        raise ConfigError(f"{where}: {name}: 'log' must be true or false")
    if not low < high:
        raise ConfigError(f"{where}: {name}: low ({low}) must be below high ({high})")
    if log and low <= 0:
        raise ConfigError(f"{where}: {name}: a log range needs low > 0, got {low}")
    return ParamRange(name, low, high, log)


def documented_ranges(cls: type) -> dict[str, ParamRange]:
    """The ranges a strategy class documents as worth tuning (empty if it documents none)."""
    tunable = getattr(cls, "TUNABLE", None) or {}
    return {name: parse_range(name, spec, f"{cls.__name__}.TUNABLE") for name, spec in tunable.items()}


def resolve_space(strategy: str, cls: type, spec: Any, where: str = "search_space") -> dict[str, ParamRange]:
    """The search space for ``strategy``: ``spec`` is None (every documented range), a list of
    parameter names (their documented ranges) or a mapping name -> range (``default`` for the
    documented one). Every name must be a parameter of the strategy."""
    from ttr_lab.core.registry import describe_parameters, parameters

    documented = documented_ranges(cls)
    valid = parameters(cls)
    if spec is None:
        if not documented:
            raise ConfigError(f"{where}: strategy {strategy!r} documents no tunable ranges; give search_space explicitly (its parameters: {describe_parameters(cls)})")
        return documented
    if isinstance(spec, list):
        spec = {name: "default" for name in spec}
    if not isinstance(spec, Mapping) or not spec:
        raise ConfigError(f"{where}: give a mapping of parameter -> range, or a list of parameter names")
    space: dict[str, ParamRange] = {}
    for name, item in spec.items():
        if name not in valid:
            raise ConfigError(f"{where}: strategy {strategy!r} has no parameter {name!r}; its parameters: {describe_parameters(cls)}")
        if item == "default" or item is None:
            if name not in documented:
                raise ConfigError(f"{where}: {name}: strategy {strategy!r} documents no range for it; give {{low: .., high: ..}}")
            space[name] = documented[name]
        else:
            space[name] = parse_range(name, item, where)
    return space


def corners(space: Mapping[str, ParamRange]) -> list[dict[str, Any]]:
    """Parameter sets at the ends of every range (for checking a space before any trial runs):
    all lows, all highs, and each choice once."""
    lows = {n: (r.choices[0] if r.choices else r.low) for n, r in space.items()}
    highs = {n: (r.choices[-1] if r.choices else r.high) for n, r in space.items()}
    out = [lows, highs]
    for n, r in space.items():
        for c in (r.choices or ())[1:-1]:
            out.append({**lows, n: c})
    return out


def grid_points(space: Mapping[str, ParamRange], points: int) -> dict[str, list[Any]]:
    return {n: r.grid(points) for n, r in space.items()}


def grid_size(space: Mapping[str, ParamRange], points: int) -> int:
    size = 1
    for values in grid_points(space, points).values():
        size *= len(values)
    return size


def grid_order(space: Mapping[str, ParamRange], points: int) -> list[dict[str, Any]]:
    """Every grid point, in a fixed order (used to label and check grid runs)."""
    values = grid_points(space, points)
    names = list(values)
    return [dict(zip(names, combo)) for combo in itertools.product(*(values[n] for n in names))]


def make_sampler(search: str, space: Mapping[str, ParamRange], seed: int, grid: int) -> Any:
    """The Optuna sampler for ``search``: ``tpe`` (Bayesian), ``random`` or ``grid``."""
    import optuna

    seed %= 2**32  # numpy's generators, under Optuna's samplers, take 32-bit seeds
    if search == "tpe":
        # A few random trials first, then the model; fewer than Optuna's default 10 because our
        # trials are expensive and the spaces small.
        return optuna.samplers.TPESampler(seed=seed, n_startup_trials=min(8, max(3, len(space) * 2)))
    if search == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    if search == "grid":
        return optuna.samplers.GridSampler(grid_points(space, grid), seed=seed)
    raise ConfigError(f"unknown search {search!r}; choose tpe, random or grid")
