"""The game's shared values stay as they were: a strategy that changes them (``object.__setattr__``
on the ruleset or the board an observation hands it, or a name of a module everyone uses such as
``numpy.sum``) cannot change the next game, nor a report.

In-process, strategies receive the very objects the engine plays with (copying a map per game
would cost more than the game). So the worker keeps a snapshot of everything reachable from the
``Game`` (its attributes, their attributes, the items of their tuples and mappings) and from its
action space (the action objects every legal-action list hands out), checks it
after every game (tens of microseconds: each object's attributes compared by identity), puts it
back when it changed, and replays that game checking after every call into a strategy, to name
the seat that did it (which forfeits). Isolated strategies (``isolation: process``) only ever
hold copies, so this is for the in-process mode."""

from __future__ import annotations

import functools
import operator
import sys
from enum import Enum
from types import BuiltinFunctionType, FunctionType, MappingProxyType, MethodType, ModuleType
from typing import Any

# Modules every in-process strategy shares with the engine and its reports: a strategy that
# replaced ``np.sum`` or ``np.argmax`` left results intact and a report failing much later, naming
# nobody. Their names are compared by identity like the game's values (names added later, such
# as a submodule imported on first use, are not a change).
SHARED_MODULES = ("builtins", "math", "random", "operator", "functools", "itertools", "json", "numpy", "numpy.random",
                  "numpy.linalg", "pandas", "scipy.stats")

_SKIP = (int, float, complex, str, bytes, bool, type(None), type, ModuleType, FunctionType,
         BuiltinFunctionType, MethodType, Enum, functools.partial)


class SharedValues:
    def __init__(self, root: Any) -> None:
        self._dicts: list[tuple[Any, dict[str, Any]]] = []  # (object, its __dict__ as it was)
        # (object, its slot names, a getter of them all, their values as they were)
        self._slots: list[tuple[Any, tuple[str, ...], Any, tuple[Any, ...]]] = []
        self._containers: list[tuple[Any, Any]] = []  # (dict or list, a copy)
        self._seen: set[int] = set()
        self._walk(root)
        # The actions a state offers are shared objects too (a game's action space lists each
        # one; a state hands out the same objects): a strategy handed them may only read them.
        space = getattr(root, "action_space", None)
        if space is not None:
            self._walk(space)
        # Checked a class at a time (one C-level map and one list comparison per class): the
        # action space holds a thousand objects, checked after every game.
        groups: dict[tuple[type, tuple[str, ...]], tuple[Any, list[Any], list[Any]]] = {}
        for obj, names, getter, saved in self._slots:
            group = groups.setdefault((type(obj), names), (getter, [], []))
            group[1].append(obj)
            group[2].append(saved)
        self._groups = [(cls.__name__, *group) for (cls, _), group in groups.items()]
        self._modules = [(module, dict(vars(module))) for module in map(sys.modules.get, SHARED_MODULES)
                         if module is not None]

    def _walk(self, value: Any) -> None:
        if isinstance(value, _SKIP) or id(value) in self._seen:
            return
        self._seen.add(id(value))
        if isinstance(value, (tuple, frozenset)):
            for item in value:
                self._walk(item)
            return
        if isinstance(value, MappingProxyType):
            for item in value.values():
                self._walk(item)
            return
        if isinstance(value, (dict, list, set)):
            self._containers.append((value, value.copy()))
            for item in (value.values() if isinstance(value, dict) else value):
                self._walk(item)
            return
        state = getattr(value, "__dict__", None)
        if isinstance(state, dict):
            self._dicts.append((value, dict(state)))
            for item in state.values():
                self._walk(item)
        declared = [s for c in type(value).__mro__ for s in getattr(c, "__slots__", ()) if s not in ("__dict__", "__weakref__")]
        names = tuple(n for n in declared if hasattr(value, n))
        if names:
            getter = operator.attrgetter(*names) if len(names) > 1 else (lambda o, n=names[0]: (getattr(o, n),))
            saved = getter(value)
            self._slots.append((value, names, getter, saved))
            for item in saved:
                self._walk(item)

    def changed(self) -> list[str]:
        """What changed since the snapshot (type names), empty when nothing did. Attributes a
        ``cached_property`` adds on first use are not a change."""
        out = []
        for obj, saved in self._dicts:
            now = obj.__dict__
            if now != saved and not _only_cached(type(obj), now, saved):
                out.append(type(obj).__name__)
        for name, getter, objects, values in self._groups:
            try:
                if list(map(getter, objects)) != values:  # tuple equality: identical values compare in C
                    out.append(name)
            except AttributeError:  # a slot emptied with object.__delattr__
                out.append(name)
        for obj, saved in self._containers:
            if not _same(obj, saved):
                out.append(type(obj).__name__)
        for module, kept in self._modules:
            now = vars(module)
            if not all(map(operator.is_, map(now.get, kept), kept.values())):
                out += [f"{module.__name__}.{k}" for k, v in kept.items() if now.get(k) is not v]
        return out

    def restore(self) -> None:
        for obj, saved in self._dicts:
            now = obj.__dict__
            now.clear()
            now.update(saved)
        for obj, names, _, values in self._slots:
            for name, value in zip(names, values):
                object.__setattr__(obj, name, value)
        for obj, saved in self._containers:
            obj.clear()
            obj.update(saved) if isinstance(obj, (dict, set)) else obj.extend(saved)
        for module, kept in self._modules:
            vars(module).update(kept)


def _same(container: Any, saved: Any) -> bool:
    """Whether a dict, list or set holds what it held: by identity, in order, for dicts and
    lists (an action space's dict of a thousand actions, without hashing them again)."""
    if len(container) != len(saved):
        return False
    if isinstance(container, dict):
        return all(map(operator.is_, container, saved)) and all(map(operator.is_, container.values(), saved.values()))
    if isinstance(container, list):
        return all(map(operator.is_, container, saved))
    return container == saved


def _only_cached(cls: type, now: dict[str, Any], saved: dict[str, Any]) -> bool:
    if any(k not in now or now[k] is not v for k, v in saved.items()):
        return False
    return all(isinstance(getattr(cls, k, None), functools.cached_property) for k in now.keys() - saved.keys())
