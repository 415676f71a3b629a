"""Every ttr-lab game as an OpenSpiel game (``pyspiel``), for OpenSpiel's bots and evaluators.

    import pyspiel, ttr_lab.envs.openspiel  # registers python_ttr_lab (only if pyspiel imports)
    game = pyspiel.load_game("python_ttr_lab", {"game": "trans_orient", "players": 3})

Parameters: ``game`` (a registered ttr-lab game), ``players``, ``map`` (Ticket to Ride; ``""``:
the game's default), ``seed`` (the first deal; each ``new_initial_state`` deals the next one)
and ``max_game_length`` (the bound the game declares; an engine game longer than it is an error).

What OpenSpiel is told, and why:

- **No chance nodes** (declared ``DETERMINISTIC``): the deal and every later draw come from the
  engine's seeded generator inside the state, so from a state on the game is deterministic; the
  deal is fixed when the state is made (``new_initial_state()`` deals the next one of the game's
  ``seed`` stream). Declared ``SAMPLED_STOCHASTIC`` it could not be serialized: OpenSpiel then
  serializes the game's generator through ``GetRNGState``, which a Python game cannot implement.
  A state pickles and serializes as its seed and its action ids; a game pickles with the position
  of its deal stream. A ``clone`` holds the same future draws, so an algorithm that
  searches clones of the true state (``MCTSBot``) plays with the deck order in sight: a
  perfect-information baseline, not a fair player. ``ISMCTSBot`` resamples the unknowns from the
  player's information (``resample_from_infostate``, the game's own ``determinize``) and is fair.
  Algorithms that walk the whole tree or need explicit chance (CFR, exact best response,
  exploitability, sequence-form methods) do not apply (the trees are far too large anyway).
- **Returns** are the outcome's win share (1 for a sole winner, 1/k each for k tied, 0 for the
  others): constant-sum 1, paid at the end.
- **Legal action ids** are the game's fixed action ids (``game.action_space``), in ascending order.
- **The information-state string** is complete for perfect recall: per decision of the player,
  its whole observation then (its observation tensor's non-zero entries) and the action it
  chose, and every other player's action as the public history shows it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ttr_lab.core.game import fold_shorthands, game_for_shorthands, load_game
from ttr_lab.core.rng import derive_seed

SHORT_NAME = "python_ttr_lab"
DEFAULT_MAX_GAME_LENGTH = 2000  # random play, 60 deals a variant: at most 513 actions (4-player Trans-Orient)
# game "": the games catalogue's house game; map "": the game's own (for a game declaring a map).
_DEFAULTS = {"game": "", "players": 2, "map": "", "seed": 0, "max_game_length": DEFAULT_MAX_GAME_LENGTH}


def _digest(tensor: np.ndarray) -> str:
    """An observation as text: its tensor's non-zero entries, ``index:value``."""
    nonzero = np.flatnonzero(tensor)
    return " ".join(f"{i}:{tensor[i]:g}" for i in nonzero)


class _Seen:
    """A player's own decision in its information-state history: what it observed (the tensor's
    non-zero entries) and what it chose, as text only when a string is asked for (searches and
    play-outs apply many actions and read few information states)."""

    __slots__ = ("index", "values", "action", "_text")

    def __init__(self, tensor: np.ndarray, action: str) -> None:
        self.index = np.flatnonzero(tensor)
        self.values = tensor[self.index]
        self.action = action
        self._text: str | None = None

    def __str__(self) -> str:
        if self._text is None:
            seen = " ".join(f"{i}:{v:g}" for i, v in zip(self.index.tolist(), self.values.tolist()))
            self._text = f"[{seen}] me: {self.action}"
        return self._text

    def __getstate__(self) -> tuple:
        return (self.index, self.values, self.action)

    def __setstate__(self, state: tuple) -> None:
        self.index, self.values, self.action = state
        self._text = None


def _determinizer(game: Any) -> Any:
    """The game's ``determinize(observation, rng)``: its own method, else its package's module."""
    own = getattr(game, "determinize", None)
    if own is not None:
        return own
    import importlib

    return importlib.import_module(f"ttr_lab.games.{game.name}.determinize").determinize


def _load(params: dict[str, Any]) -> Any:
    given = {"map": params["map"]} if params["map"] else {}
    name = game_for_shorthands(str(params["game"]) or None, list(given))
    return load_game(name, **fold_shorthands(name, given, {}))


try:
    import pyspiel  # type: ignore[import-not-found]
except ImportError:  # OpenSpiel is optional: without it this module defines nothing more
    pyspiel = None  # noqa: N816


if pyspiel is not None:

    def _game_type() -> Any:
        return pyspiel.GameType(
            short_name=SHORT_NAME, long_name="ttr-lab games (Ticket to Ride, Trans-Orient Express)",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.CONSTANT_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=5, min_num_players=2,
            provides_information_state_string=True, provides_information_state_tensor=False,
            provides_observation_string=True, provides_observation_tensor=True,
            parameter_specification=dict(_DEFAULTS))

    class TTRLabGame(pyspiel.Game):
        """A ttr-lab game at a player count, for OpenSpiel (see the module docstring)."""

        def __init__(self, params: dict[str, Any] | None = None) -> None:
            merged = {**_DEFAULTS, **(params or {})}
            self.ttr_game = _load(merged)
            players = int(merged["players"])
            if not self.ttr_game.min_players <= players <= self.ttr_game.max_players:
                raise ValueError(f"{self.ttr_game.title} is for {self.ttr_game.min_players}-"
                                 f"{self.ttr_game.max_players} players, not {players}")
            self.players = players
            self.max_length = int(merged["max_game_length"])
            self._deals = random.Random(int(merged["seed"]))
            self.params = merged
            info = pyspiel.GameInfo(num_distinct_actions=self.ttr_game.action_space.size, max_chance_outcomes=0,
                                    num_players=players, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                                    max_game_length=self.max_length)
            super().__init__(_game_type(), info, merged)

        def new_initial_state(self, seed: int | None = None) -> "TTRLabState":
            """The next deal (or the deal of ``seed``)."""
            return TTRLabState(self, seed)

        def next_seed(self) -> int:
            return self._deals.getrandbits(63)

        def __reduce__(self) -> tuple:
            # OpenSpiel's own pickling keeps the parameters only: the deal stream would start again.
            return (_game_at, (self.params, self._deals.getstate()))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "TTRLabObserver":
            if params:
                raise ValueError(f"observation parameters are not supported: {params}")
            perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            return TTRLabObserver(self, perfect_recall)

    class TTRLabState(pyspiel.State):
        """One ttr-lab game in progress; the engine's state is ``self.engine``. Everything the
        Python side holds is one ``_Play`` (OpenSpiel's C++ ``Clone`` deep-copies each attribute,
        and its ``Serialize`` pickles them)."""

        def __init__(self, game: "TTRLabGame", seed: int | None = None, play: "_Play | None" = None) -> None:
            super().__init__(game)
            self._play = play if play is not None else _Play(game, seed)

        @property
        def engine(self) -> Any:
            return self._play.get().engine

        @property
        def histories(self) -> list[list[Any]]:
            return self._play.get().histories

        @property
        def seed(self) -> int | None:
            return self._play.get().seed

        @property
        def ttr_game(self) -> Any:
            return self._play.game.ttr_game

        @property
        def max_length(self) -> int:
            return self._play.game.max_length

        def current_player(self) -> int:
            return pyspiel.PlayerId.TERMINAL if self.engine.is_terminal() else self.engine.current_player

        def _legal_actions(self, player: int) -> list[int]:
            if self.engine.is_terminal() or player != self.engine.current_player:
                return []
            return sorted(self.ttr_game.action_space.ids(self.engine.legal_actions()))

        def _apply_action(self, action: int) -> None:
            engine = self.engine
            seat = engine.current_player
            chosen = self.ttr_game.action_space.action_of(action)
            self._play.actions.append(action)
            seen = self.ttr_game.observation_tensor(engine.observation(seat))
            engine.apply(chosen)
            full = engine.action_text(chosen)
            _, public, card = engine.last_event()
            public_text = f"{public}" + (f" ({card})" if isinstance(card, int) and card >= 0 else "")
            for p, history in enumerate(self.histories):
                history.append(_Seen(seen, full) if p == seat else f"seat {seat}: {public_text}")
            if len(self.histories[0]) > self.max_length:
                raise RuntimeError(f"the game passed its declared maximum length of {self.max_length} actions "
                                   "(raise the max_game_length parameter)")

        def _action_to_string(self, player: int, action: int) -> str:
            return str(self.ttr_game.action_space.action_of(action))

        def is_terminal(self) -> bool:
            return self.engine.is_terminal()

        def returns(self) -> list[float]:
            if not self.engine.is_terminal():
                return [0.0] * self.engine.num_players
            return list(self.engine.outcome().win_shares())

        def information_state_string(self, player: int | None = None) -> str:
            player = self._seat(player)
            now = "" if self.engine.is_terminal() else _digest(self.ttr_game.observation_tensor(self.engine.observation(player)))
            return f"seat {player}\n" + "\n".join(map(str, self.histories[player])) + f"\nnow [{now}]"

        def observation_string(self, player: int | None = None) -> str:
            player = self._seat(player)
            return f"seat {player} [{_digest(self.ttr_game.observation_tensor(self.engine.observation(player)))}]"

        def _seat(self, player: int | None) -> int:
            seat = self.current_player() if player is None else player
            if not 0 <= seat < len(self.histories):
                raise ValueError(f"no player {seat} to observe (the game is over, or not a seat)")
            return seat

        def resample_from_infostate(self, player: int, probability_sampler: Any = None) -> "TTRLabState":
            """A state ``player`` cannot tell from this one: the unknowns drawn again (the game's
            ``determinize``); its histories are this state's."""
            # An unseeded game resamples from seed 0: still reproducible, as OpenSpiel expects.
            rng = random.Random(derive_seed(self.seed or 0, len(self.histories[0]), player, 0x05D1E))
            engine = _determinizer(self.ttr_game)(self.engine.observation(player), rng)
            state = self.clone()  # OpenSpiel's: its history (the action ids) too
            state._play = self._play.copy(engine)
            return state

        # ``clone`` is OpenSpiel's own: a new state whose ``_play`` is this one's deep copy
        # (``_Play.copy``), with the history OpenSpiel keeps of the action ids.

        def __deepcopy__(self, memo: dict) -> "TTRLabState":
            return self.clone()

        def __str__(self) -> str:
            where = "game over" if self.engine.is_terminal() else f"seat {self.engine.current_player} to play"
            return f"{self.ttr_game.title}, seed {self.seed}, {len(self.histories[0])} actions, {where}"

    class _Play:
        """A state's game in progress: its seed (drawn from the game's deal stream when first
        needed, so the states OpenSpiel makes only to overwrite in ``Clone`` and ``Deserialize``
        draw none), engine, information-state histories and action ids. A deep copy clones the
        engine (sharing the immutable game); a pickle is the seed and the action ids, replayed."""

        def __init__(self, game: "TTRLabGame", seed: int | None) -> None:
            self.game = game
            self.seed = seed
            self.engine: Any = None
            self.histories: list[list[Any]] = [[] for _ in range(game.players)]  # text, or _Seen
            self.actions: list[int] = []
            self.replayable = True  # False once resampled: its engine is no replay of its seed

        def get(self) -> "_Play":
            if self.engine is None:
                if self.seed is None:
                    self.seed = self.game.next_seed()
                self.engine = self.game.ttr_game.new_game(self.game.players, self.seed)
            return self

        def copy(self, engine: Any = None) -> "_Play":
            self.get()
            other = _Play(self.game, self.seed)
            other.engine = engine if engine is not None else self.engine.clone()
            other.histories = [list(h) for h in self.histories]
            other.actions = list(self.actions)
            other.replayable = self.replayable and engine is None
            return other

        def __deepcopy__(self, memo: dict) -> "_Play":
            return self.copy()

        def __reduce__(self) -> tuple:
            self.get()
            if not self.replayable:
                return (_restored, (self.game, self.seed, self.engine, self.histories, self.actions))
            return (_replayed, (self.game, self.seed, list(self.actions)))

    def _replayed(game: "TTRLabGame", seed: int, actions: list[int]) -> "_Play":
        state = TTRLabState(game, seed)
        for action in actions:
            state.apply_action(action)
        return state._play

    def _restored(game: "TTRLabGame", seed: int, engine: Any, histories: list[list[Any]],
                  actions: list[int]) -> "_Play":
        play = _Play(game, seed)
        play.engine, play.histories, play.actions, play.replayable = engine, histories, actions, False
        return play

    def _game_at(params: dict[str, Any], deals: Any) -> "TTRLabGame":
        game = TTRLabGame(params)
        game._deals.setstate(deals)
        return game

    class TTRLabObserver:
        """OpenSpiel's observer: the player's observation tensor, and as text the observation or
        (perfect recall) the information state."""

        def __init__(self, game: "TTRLabGame", perfect_recall: bool) -> None:
            self.perfect_recall = perfect_recall
            self.ttr_game = game.ttr_game
            first = game.ttr_game.observation_tensor(game.ttr_game.new_game(game.players, 0).observation(0))
            self.tensor = np.zeros(first.size, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state: "TTRLabState", player: int) -> None:
            self.tensor[:] = self.ttr_game.observation_tensor(state.engine.observation(player)).ravel()

        def string_from(self, state: "TTRLabState", player: int) -> str:
            if self.perfect_recall:
                return state.information_state_string(player)
            return state.observation_string(player)

    pyspiel.register_game(_game_type(), TTRLabGame)
