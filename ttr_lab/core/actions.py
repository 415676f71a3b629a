"""A game's action space: every action the game can ever offer, each with a stable integer id.

OpenSpiel's games speak integers (``num_distinct_actions``, a legal-action mask); ttr-lab's
states offer frozen action values with a text form. ``ActionSpace`` joins the two: the game lists
its actions once, in a documented order fixed by its data (board, deck, ruleset), and an action's
id is its position in that list. Same game and options, same ids, on every machine and run.
"""

from __future__ import annotations

import dataclasses
import operator
from typing import Any, Hashable, Iterable, Sequence, cast

from ttr_lab.core.errors import IllegalActionError


class ActionSpace:
    """The ids of a game's actions: ``id_of(action)`` and ``action_of(id)`` are inverse, ids run
    from 0 to ``size - 1``. Actions compare by value, so a parsed action has the id of the one a
    state offers."""

    __slots__ = ("_actions", "_ids", "_by_object", "name")

    def __init__(self, actions: Iterable[Hashable], name: str = "game") -> None:
        self._actions: tuple[Any, ...] = tuple(actions)
        self._ids: dict[Any, int] = {}
        for i, action in enumerate(self._actions):
            if self._ids.setdefault(action, i) != i:
                raise ValueError(f"{name}: the action {action} is listed twice in its action space")
        # Games hand out shared action objects (their action tables), so the ids of a legal list
        # are looked up by object first: an int key instead of hashing a dataclass's fields. The
        # objects live in ``_actions`` as long as the space, so their ``id()``s are never reused.
        self._by_object: dict[int, int] = {id(a): i for i, a in enumerate(self._actions)}
        self.name = name

    @property
    def size(self) -> int:
        """How many distinct actions the game has (OpenSpiel's ``num_distinct_actions``)."""
        return len(self._actions)

    def __len__(self) -> int:
        return len(self._actions)

    def __iter__(self):
        return iter(self._actions)

    def id_of(self, action: Any) -> int:
        try:
            return self._ids[action]
        except (KeyError, TypeError):
            raise IllegalActionError(f"{action!s} is not an action of {self.name}") from None

    def own(self, action: Any) -> tuple[Any, str]:
        """``(the space's own object for action, "")``; ``(None, why)`` for a value equal to one of
        them that differs in a field ``==`` does not compare (``forgery``); ``(None, "")`` for
        what the space does not hold at all (the game's rules then say why)."""
        index = self._by_object.get(id(action))
        if index is not None:
            return self._actions[index], ""
        try:
            index = self._ids.get(action)
        except TypeError:  # unhashable: no action
            return None, ""
        if index is None:
            return None, ""
        own = self._actions[index]
        lie = forgery(action, own)
        return (None, lie) if lie else (own, "")

    def action_of(self, action_id: Any) -> Any:
        """The action with this id. An id is an integer: Python's, numpy's or a 0-d integer
        array (what policies return); a bool, a float (even 11.0: truncating 11.5 would play
        another action), a string or a list is not one."""
        try:
            index = operator.index(action_id) if not isinstance(action_id, bool) else -1
        except TypeError:
            index = -1
        if not 0 <= index < len(self._actions):
            raise IllegalActionError(f"{action_id!r} is not an action id of {self.name} (ids 0..{len(self._actions) - 1})")
        return self._actions[index]

    def ids(self, actions: Sequence[Any]) -> list[int]:
        """The ids of ``actions`` (e.g. a state's legal actions), in their order."""
        out = list(map(self._by_object.get, map(id, actions)))  # C loops: no bytecode per action
        if None in out:  # an equal action that is not the space's own object (parsed, rebuilt)
            ids = self._ids
            return [ids[a] for a in actions]
        return cast("list[int]", out)

    def mask(self, actions: Sequence[Any]) -> list[bool]:
        """A ``size``-long list, True at the ids of ``actions`` (a legal-action mask)."""
        out = [False] * len(self._actions)
        for i in self.ids(actions):
            out[i] = True
        return out


def check_whole_numbers(action: Any, *names: str) -> None:
    """``IllegalActionError`` unless each named field of ``action`` is an ``int`` (a bool, a float
    such as ``3.0`` or an int subclass is not): the rules count cards with them."""
    for name in names:
        value = getattr(action, name)
        if type(value) is not int:
            raise IllegalActionError(f"{type(action).__name__}.{name} must be a whole number (int), "
                                     f"not {type(value).__name__} {value!r}")


def forgery(action: Any, own: Any) -> str:
    """Why ``action`` is not the game's own action ``own`` in every field, or "" when it is.

    Actions compare by their rule fields only (a claim's text label takes no part in ``==``), so
    an equal value may still lie in its text: a claim labelled "1 green" on a 3-track would be
    applied as the legal claim and recorded as the lie, and its record would not replay. Here
    each field must have exactly the game's type and value; a field that takes no part in
    equality may instead be left at its default (the game's own fills it in, as for a claim
    built by hand)."""
    if action is own:
        return ""
    if type(action) is not type(own):
        return f"a {type(action).__name__} is not the game's {type(own).__name__}"
    try:
        fields = dataclasses.fields(own)
    except TypeError:  # not a dataclass: equality is all there is to compare
        return "" if action == own else "it is not the game's action"
    for f in fields:
        mine, theirs = getattr(action, f.name, None), getattr(own, f.name)
        if _plain_equal(mine, theirs) or (not f.compare and _plain_equal(mine, f.default)):
            continue
        if type(mine) is not type(theirs):
            return f"its {f.name} is a {type(mine).__name__}, not the game's {type(theirs).__name__}"
        return f"its {f.name} {mine!r} is not the game's {theirs!r}"
    return ""


def _plain_equal(a: Any, b: Any) -> bool:
    """``a == b`` with the same built-in type at every level: an int or str subclass may say
    anything from its ``__eq__`` or ``__str__``."""
    if type(a) is not type(b):
        return False
    if type(a) is tuple:
        return len(a) == len(b) and all(map(_plain_equal, a, b))
    return bool(a == b)
