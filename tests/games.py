"""Every registered game and every shipped variant of it, for tests that must cover them all.

A new game package (or a new Ticket to Ride map folder) is picked up here with no change to
the tests (of Ticket to Ride's ticket-deck variants, one: ``MAP_VARIANTS_COVERED``): games come from ``available_games()``, their variants from the game's optional
``variants()`` (the options of each shipped variant; without it, the game's defaults only).

    from games import VARIANTS, per_variant, per_map, per_map_and_count

    @per_variant
    def test_something(variant):          # variant.game is the loaded Game
        ...

    @per_map_and_count                    # Ticket to Ride: every map, every player count
    def test_else(map_name, n):
        ...

A game's tests may register extra checks that need its insides (its own invariants) here, by
game name, in ``_HOOKS``; the generic contract, the hidden-information check included, runs
without them.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest

from ttr_lab.core.game import Game, available_games, load_game
from ttr_lab.games.ticket_to_ride.board import available_maps, load_board
from ttr_lab.games.ticket_to_ride.map_variants import shipped_variants


@dataclass(frozen=True)
class Variant:
    """One (game, options) pair: a game as ``load_game(name, **options)`` builds it."""

    name: str
    options: dict[str, Any] = field(hash=False)

    @property
    def id(self) -> str:
        if not self.options:
            return self.name
        values = [str(v) if isinstance(v, (str, int, float, bool)) else json.dumps(v, sort_keys=True)
                  for _, v in sorted(self.options.items())]
        return "-".join([self.name, *values])

    @property
    def game(self) -> Game:
        return _load(self.name, json.dumps(self.options, sort_keys=True))

    @property
    def player_counts(self) -> range:
        return range(self.game.min_players, self.game.max_players + 1)

    def __str__(self) -> str:
        return self.id


@functools.lru_cache(maxsize=None)
def _load(name: str, options: str) -> Game:
    return load_game(name, **json.loads(options))


# A map variant (another ticket deck on a shipped board) shares its board's kernels and tables:
# the per-map tests run on one of them, the Mega Game (the largest offer, both end bonuses); the
# others' decks, counts and bonuses have their own tests (tests/rules/test_usa_1910.py) and golden
# records. Keeps the suite's time in bounds as decks are added.
MAP_VARIANTS_COVERED = ("usa_mega",)


def _per_map(name: str) -> bool:
    return name not in shipped_variants() or name in MAP_VARIANTS_COVERED


def variants_of(name: str) -> list[Variant]:
    """The shipped variants of one registered game (its defaults if it lists none)."""
    listing = getattr(load_game(name), "variants", None)
    options = list(listing()) if listing is not None else [{}]
    options = [o for o in options if _per_map(str(o.get("map", "")))]
    return [Variant(name, dict(o)) for o in options]


def all_variants() -> list[Variant]:
    return [v for name in available_games() for v in variants_of(name)]


VARIANTS = all_variants()
per_variant = pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])

# Ticket to Ride's own tests (they use its state's insides) run on every shipped map, at every
# player count the map allows.
TTR_MAPS = [m for m in available_maps() if _per_map(m)]
per_map = pytest.mark.parametrize("map_name", TTR_MAPS)


def player_counts(map_name: str) -> range:
    board = load_board(map_name)
    return range(board.min_players, board.max_players + 1)


per_map_and_count = pytest.mark.parametrize(
    "map_name, n", [pytest.param(m, n, id=f"{m}-{n}p") for m in TTR_MAPS for n in player_counts(m)])


@dataclass(frozen=True)
class Hooks:
    """Game-specific extras the generic contract calls when a game's tests provide them.

    ``invariants(state)``: assertions every reachable state satisfies. The hidden-information
    check needs no extra: it is built on the game's own ``determinize``.
    """

    invariants: Callable[[Any], None] | None = None


def _ticket_to_ride_hooks() -> Hooks:
    from invariants import check_invariants

    return Hooks(invariants=check_invariants)


_HOOKS: dict[str, Callable[[], Hooks]] = {"ticket_to_ride": _ticket_to_ride_hooks}


def hooks_for(name: str) -> Hooks:
    make = _HOOKS.get(name)
    return make() if make is not None else Hooks()
