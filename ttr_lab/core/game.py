"""What a game is, for the platform: the ``Game`` and ``State`` protocols, in the spirit of
OpenSpiel, and the registry that finds games by name.

A ``Game`` is an immutable, parameterised definition (Ticket to Ride on the USA map, say): it
has a registered ``name``, a player-count range, the ``metrics`` it records per player, and
makes seeded states with ``new_game(num_players, seed)``. Its ``options`` (plain JSON) rebuild it
with ``load_game(name, **options)``, so a record or a results row names the exact game played.

A ``State`` is one position: ``current_player``, ``legal_actions()`` in a stable order,
``apply(action)`` (raises ``IllegalActionError`` naming the reason), ``clone()``,
``is_terminal()``, ``observation(player)`` (the player's information set only),
``outcome()`` and ``returns()`` once terminal, ``snapshot()`` (everything, hidden parts
included, as JSON) and ``last_event()``. Actions are frozen values whose ``str()`` is their text
form; ``game.parse_action(text)`` reads it back, and ``game.action_space`` gives each a stable
integer id (``id_of``, ``action_of``, ``size``, ``mask``) for tools that speak integers
(OpenSpiel, RL libraries).

What a search needs is on the rules: ``game.determinize(observation, rng)`` samples a full
state the observing player cannot rule out, ``state.returns()`` scores an end per seat, and
``game.restore(state.snapshot())`` rebuilds a state. What a report or a replay needs is not:
it is on ``game.views`` (a ``ttr_lab.core.views.GameViews``), so the rules never load plotting.

Games are found by name among the packages of ``ttr_lab.games`` (each exposes ``GAME``, the
factory ``load_game`` calls) and among the ``ttr_lab.games`` entry points of installed
distributions, so adding a game touches nothing outside its own package.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import random
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence, TypeGuard, runtime_checkable

from ttr_lab.core.actions import ActionSpace
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.outcome import Metric, Outcome

if TYPE_CHECKING:
    from ttr_lab.core.views import GameViews


@runtime_checkable
class State(Protocol):
    @property
    def current_player(self) -> int: ...

    @property
    def num_players(self) -> int: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> None: ...

    def clone(self) -> "State": ...

    def is_terminal(self) -> bool: ...

    def observation(self, player: int) -> Any: ...

    def outcome(self) -> Outcome: ...

    def returns(self) -> tuple[float, ...]:
        """Per seat, its reward for the game: at the end its win share (1 for a sole winner, 1/k
        each for k tied winners, else 0; they sum to 1), before the end 0 for every seat, as
        OpenSpiel's ``returns()`` is (the game's rewards come at the end)."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """Everything about the position, hidden parts included, as plain JSON;
        ``game.restore(snapshot)`` rebuilds it."""
        ...

    def result_data(self) -> dict[str, Any]:
        """The game's own account of the end as plain JSON (what a record stores as ``result``)."""
        ...

    def action_text(self, action: Any) -> str:
        """The text form a record stores for ``action`` (a legal action at this state)."""
        ...

    def last_event(self) -> tuple[Any, ...]:
        """The last action applied as every player saw it: ``(player, public_action, card)``,
        the arguments of a strategy's ``on_event`` hook. ``public_action`` hides what others
        cannot know (a kept ticket or luggage card shows only as kept); ``card`` is the card the
        action moved into sight (a face-up card taken, say), in the game's own terms, or None
        when it moved none. ``()`` before any action."""
        ...


@runtime_checkable
class Game(Protocol):
    """A game definition (see the module docstring).

    ``determinize(observation, rng) -> State``: a full state consistent with ``observation``
    (any seat's), built from the observation alone, its unknowns (opponents' secrets, deck
    order, future chance) sampled with ``rng`` (a ``random.Random``); that seat's observation of
    it equals ``observation``. For search under hidden information (information-set MCTS).

    ``restore(snapshot) -> State``: the state a ``state.snapshot()`` describes (same snapshot,
    same legal actions, plays on identically), for tools that store or hand-build positions.

    ``views``: the game's ``GameViews`` (``ttr_lab.core.views``): report tables and figures,
    score parts, summary columns, the ``ttr-lab play`` summary, replay descriptions, drawings
    and pages. Built lazily, with defaults for what a game does not show.

    Optional hooks, not part of the protocol check: tools look them up and work without them.

    ``determinizer(observation)``: ``observation``'s determinizations prepared once, an object
    whose ``sample(rng)`` draws one (the distribution of ``determinize``): a search samples one
    observation many times (``strategies/search.py``'s ``sampler``); without it a search calls
    ``determinize`` per sample.

    ``config_shorthands``: a class attribute mapping top-level config keys to the options they
    stand for (Ticket to Ride's ``{"map": "map"}``: ``map: usa`` in a tournament or tuning config
    is ``options: {map: usa}``); read from the factory ``GAME``, before any game is built.

    ``variants()``: a static or class method returning the options of every shipped variant
    (for Ticket to Ride, one ``{"map": ...}`` per map), so tests and tools can cover each with
    ``load_game(name, **options)``; without it, the defaults only.

    ``observation_shape`` and ``observation_tensor(observation) -> numpy.ndarray``: an
    ``observation(player)`` as a float32 vector of that fixed shape (the same at every player
    count), built from the information set only, with a documented layout of named slices
    (``ttr_lab.core.tensor_layout.TensorLayout``; docs/rl.md). With ``action_space`` it makes the
    game an RL environment (``ttr_lab.envs``). Optional, for speed: ``tensor_writer(player)``, a
    callable ``state -> tensor`` (the same tensor straight from the state) that keeps its
    slow-changing blocks between calls (``core.tensor_template``); an environment keeps one per
    seat. A state may offer it as ``state.observation_tensor(player)`` (OpenSpiel's name).
    """

    name: str  # the registered name, e.g. "ticket_to_ride"
    min_players: int
    max_players: int

    @property
    def title(self) -> str: ...

    @property
    def options(self) -> dict[str, Any]:
        """Plain JSON that rebuilds this game with ``load_game(name, **options)``."""
        ...

    @property
    def variant(self) -> str:
        """A short name for the variant played (a map, a deck), for tables and file names."""
        ...

    @property
    def metrics(self) -> tuple[Metric, ...]: ...

    def new_game(self, num_players: int, seed: int) -> State: ...

    def parse_action(self, text: str) -> Any: ...

    @property
    def action_space(self) -> ActionSpace:
        """Every action of this game with its integer id (see ``ttr_lab.core.actions``)."""
        ...

    def determinize(self, observation: Any, rng: random.Random) -> State: ...

    def restore(self, snapshot: dict[str, Any]) -> State: ...

    @property
    def views(self) -> "GameViews": ...


class TensorGame(Game, Protocol):
    """A game with the optional observation tensor (see ``Game``): what an RL environment or a
    policy over tensors needs. ``has_tensor(game)`` tells one."""

    @property
    def observation_shape(self) -> tuple[int, ...]: ...

    def observation_tensor(self, observation: Any) -> Any:
        """``observation`` as a float32 ``numpy.ndarray`` of ``observation_shape``."""
        ...


def has_tensor(game: Game) -> TypeGuard[TensorGame]:
    """Whether ``game`` offers an observation tensor. A look-up of the one method, not
    ``isinstance`` against the protocol, which would read (and build) every property."""
    return callable(getattr(game, "observation_tensor", None))


GameFactory = Callable[..., Game]

_GAMES: dict[str, GameFactory] = {}
GAMES_PACKAGE = "ttr_lab.games"


def register_game(name: str, factory: GameFactory) -> None:
    """Make ``load_game(name, **options)`` call ``factory(**options)``."""
    _GAMES[name] = factory


@functools.lru_cache(maxsize=1)
def _discover() -> None:
    # Plug-in discovery by name at run time (as entry points are): the core depends on no game's
    # code, it only looks for packages in the games namespace.
    package = importlib.import_module(GAMES_PACKAGE)
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        factory = getattr(module, "GAME", None)
        if factory is not None:
            _GAMES.setdefault(info.name, factory)
    from importlib.metadata import entry_points

    for entry in entry_points(group="ttr_lab.games"):
        _GAMES.setdefault(entry.name, entry.load())


def available_games() -> list[str]:
    """The registered game names, sorted."""
    _discover()
    return sorted(_GAMES)


def load_game(name: str | Game, **options: Any) -> Game:
    """A game by registered name with its options (or a ``Game`` itself, returned as it is)."""
    if not isinstance(name, str):
        if options:
            raise ConfigError("options are given with a game name, not with a Game")
        return name
    _discover()
    factory = _GAMES.get(name)
    if factory is None:
        raise ConfigError(f"unknown game {name!r}; registered games: {', '.join(sorted(_GAMES))}")
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin or C factory: let it check its own options
        signature = None
    if signature is not None:
        try:
            signature.bind(**options)
        except TypeError:
            # A misspelt or foreign option (``map=`` for a game without maps): name the valid ones.
            valid = ", ".join(signature.parameters) or "none"
            wrong = [k for k in options if k not in signature.parameters] or list(options)
            raise ConfigError(f"game {name!r} takes the options {valid}, not {', '.join(wrong)}") from None
    return factory(**options)


def game_from_record(data: Mapping[str, Any]) -> Game:
    """The game a record or a results row names (``game`` and ``options``)."""
    return load_game(data["game"], **dict(data.get("options") or {}))


def catalogue_entry(name: str, default: Any = None) -> Any:
    """``name`` of the games catalogue (the ``ttr_lab.games`` package: ``DEFAULT``,
    ``FORMAT_1_GAME``, ``BENCHMARKED``...), or ``default`` when it declares none: the layers
    above the games read what they need to know of one there, and name none themselves."""
    return getattr(importlib.import_module(GAMES_PACKAGE), name, default)


def default_game() -> str:
    """The game played when a config or a command names none: the catalogue's house game, else
    the first registered game."""
    name = catalogue_entry("DEFAULT")
    if name is None:
        games = available_games()
        if not games:
            raise ConfigError("no game is registered; install one (ttr-lab games lists them)")
        name = games[0]
    return str(name)


def config_shorthands(name: str) -> dict[str, str]:
    """The top-level config keys game ``name`` takes for its options, each with the option it
    stands for (Ticket to Ride's ``map: usa`` for ``options: {map: usa}``): the
    ``config_shorthands`` its ``Game`` declares; ``{}`` for a game that declares none."""
    _discover()
    factory = _GAMES.get(name)
    if factory is None:
        raise ConfigError(f"unknown game {name!r}; registered games: {', '.join(sorted(_GAMES))}")
    return dict(getattr(factory, "config_shorthands", None) or {})


def declared_shorthands() -> dict[str, list[str]]:
    """Every config shorthand some registered game declares, with the games declaring it."""
    out: dict[str, list[str]] = {}
    for name in available_games():
        for key in config_shorthands(name):
            out.setdefault(key, []).append(name)
    return out


def game_for_shorthands(game: str | None, keys: Sequence[str]) -> str:
    """The game a config plays: ``game`` if it names one (each of its shorthand ``keys`` must be
    one that game declares), else the one game declaring every key (the house game if it is one
    of several), else the house game; a ConfigError names a key the game does not declare."""
    if game is not None:
        own = config_shorthands(game)
        for key in keys:
            if key not in own:
                takes = ", ".join(own) or "none"
                raise ConfigError(f"{key}: game {game!r} declares no config shorthand {key!r} "
                                  f"(its shorthands: {takes}); give it in options")
        return game
    if not keys:
        return default_game()
    declared = declared_shorthands()
    games = [g for g in available_games() if all(g in declared.get(k, ()) for k in keys)]
    if len(games) == 1:
        return games[0]
    house = default_game()
    if house in games:
        return house
    if games:
        raise ConfigError(f"{', '.join(keys)}: a shorthand of each of {', '.join(games)}; name the game (game: ...)")
    raise ConfigError(f"{', '.join(keys)}: no one game declares all of these shorthands; name the game (game: ...)")


def fold_shorthands(game: str, values: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with game ``game``'s shorthands in ``values`` folded in (a shorthand given as
    None is not given)."""
    own = config_shorthands(game)
    return {**options, **{own[k]: v for k, v in values.items() if v is not None}}
