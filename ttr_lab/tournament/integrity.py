"""The game's shared values stay as they were: a strategy that changes them (``object.__setattr__``
on the ruleset or the board an observation hands it) cannot change the next game.

In-process, strategies receive the very objects the engine plays with (copying a map per game
would cost more than the game). So the worker keeps a snapshot of everything reachable from the
``Game`` (its attributes, their attributes, the items of their tuples and mappings), checks it
after every game (tens of microseconds: each object's attributes compared by identity), puts it
back when it changed, and replays that game checking after every call into a strategy, to name
the seat that did it (which forfeits). Isolated strategies (``isolation: process``) only ever
hold copies, so this is for the in-process mode."""

from __future__ import annotations

import functools
import operator
from enum import Enum
from types import BuiltinFunctionType, FunctionType, MappingProxyType, MethodType, ModuleType
from typing import Any

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
        names = [s for c in type(value).__mro__ for s in getattr(c, "__slots__", ()) if s not in ("__dict__", "__weakref__")]
        names = tuple(n for n in names if hasattr(value, n))
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
        for obj, _, getter, saved in self._slots:
            try:
                if getter(obj) != saved:  # tuple equality: identical values compare in C
                    out.append(type(obj).__name__)
            except AttributeError:  # a slot emptied with object.__delattr__
                out.append(type(obj).__name__)
        for obj, saved in self._containers:
            if obj != saved:
                out.append(type(obj).__name__)
        return out

    def restore(self) -> None:
        for obj, saved in self._dicts:
            now = obj.__dict__
            now.clear()
            now.update(saved)
        for obj, names, _, saved in self._slots:
            for name, value in zip(names, saved):
                object.__setattr__(obj, name, value)
        for obj, saved in self._containers:
            obj.clear()
            obj.update(saved) if isinstance(obj, (dict, set)) else obj.extend(saved)


def _only_cached(cls: type, now: dict[str, Any], saved: dict[str, Any]) -> bool:
    if any(k not in now or now[k] is not v for k, v in saved.items()):
        return False
    return all(isinstance(getattr(cls, k, None), functools.cached_property) for k in now.keys() - saved.keys())
