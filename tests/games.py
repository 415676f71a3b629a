"""Every registered game and every shipped variant of it, for tests that must cover them all.

A new game package (or a new Ticket to Ride map folder) is picked up here with no change to
the tests: games come from ``available_games()``, their variants from the game's optional
``variants()`` (the options of each shipped variant; without it, the game's defaults only).

    from games import VARIANTS, per_variant, per_map, per_map_and_count

    @per_variant
    def test_something(variant):          # variant.game is the loaded Game
        ...

    @per_map_and_count                    # Ticket to Ride: every map, every player count
    def test_else(map_name, n):
        ...

Some checks need to know a game's insides (how to hide what a player cannot see, its own
invariants); a game's tests register those here, by game name, in ``HOOKS``. The generic
contract runs without them.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest

from ttr_lab.core.game import Game, available_games, load_game
from ttr_lab.games.ticket_to_ride.board import available_maps, load_board


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


def variants_of(name: str) -> list[Variant]:
    """The shipped variants of one registered game (its defaults if it lists none)."""
    listing = getattr(load_game(name), "variants", None)
    options = list(listing()) if listing is not None else [{}]
    return [Variant(name, dict(o)) for o in options]


def all_variants() -> list[Variant]:
    return [v for name in available_games() for v in variants_of(name)]


VARIANTS = all_variants()
per_variant = pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])

# Ticket to Ride's own tests (they use its state's insides) run on every shipped map, at every
# player count the map allows.
TTR_MAPS = available_maps()
per_map = pytest.mark.parametrize("map_name", TTR_MAPS)


def player_counts(map_name: str) -> range:
    board = load_board(map_name)
    return range(board.min_players, board.max_players + 1)


per_map_and_count = pytest.mark.parametrize(
    "map_name, n", [pytest.param(m, n, id=f"{m}-{n}p") for m in TTR_MAPS for n in player_counts(m)])


@dataclass(frozen=True)
class Hooks:
    """Game-specific checks the generic contract calls when a game provides them.

    ``hidden_twin(state, viewer, rng)``: a state that differs from ``state`` only in what
    ``viewer`` cannot know (opponents' secrets, deck order): ``viewer``'s observation must not
    change. ``invariants(state)``: assertions every reachable state satisfies.
    """

    hidden_twin: Callable[[Any, int, Any], Any] | None = None
    invariants: Callable[[Any], None] | None = None


def _ticket_to_ride_hooks() -> Hooks:
    from invariants import check_invariants, hidden_shuffle

    return Hooks(hidden_twin=hidden_shuffle, invariants=check_invariants)


def _toe_hidden_shuffle(state: Any, viewer: int, rng: Any) -> Any:
    """A clone of a Trans-Orient Express state with what ``viewer`` cannot know redrawn: the order
    of the draw deck's shuffled part, which unseen luggage cards the opponents hold, choose
    between or left in the luggage deck (positions ``viewer`` put a card in stay), and the bag's
    future draws. Built from the state itself, not from the observation, so an observation that
    leaked any of these would differ from the original's."""
    twin = state.clone()
    known = state.deck_known
    deck = list(state.deck)
    top = deck[:len(deck) - known] if known else deck
    rng.shuffle(top)
    twin.deck = tuple(top + (deck[len(deck) - known:] if known else []))
    n = state.num_players
    offer_hidden = state.player != viewer and bool(state.offer)
    pool = [x for p in range(n) if p != viewer for x in state.luggage[p]]
    pool += [x for x, by in zip(state.lug_deck, state.lug_by) if by != viewer]
    if offer_hidden:
        pool += list(state.offer)
    rng.shuffle(pool)
    luggage = list(state.luggage)
    for p in range(n):
        if p != viewer:
            luggage[p], pool = tuple(sorted(pool[:len(state.luggage[p])])), pool[len(state.luggage[p]):]
    twin.luggage = luggage
    lug_deck = []
    for x, by in zip(state.lug_deck, state.lug_by):
        if by == viewer:
            lug_deck.append(x)
        else:
            lug_deck.append(pool.pop(0))
    twin.lug_deck = tuple(lug_deck)
    if offer_hidden:
        twin.offer = tuple(sorted(pool[:len(state.offer)]))
        pool = pool[len(state.offer):]
    assert not pool
    twin.rng = rng.getrandbits(64)  # the engine's rng is a seed it advances
    return twin


def _trans_orient_hooks() -> Hooks:
    return Hooks(hidden_twin=_toe_hidden_shuffle)


_HOOKS: dict[str, Callable[[], Hooks]] = {"ticket_to_ride": _ticket_to_ride_hooks,
                                          "trans_orient": _trans_orient_hooks}


def hooks_for(name: str) -> Hooks:
    make = _HOOKS.get(name)
    return make() if make is not None else Hooks()
