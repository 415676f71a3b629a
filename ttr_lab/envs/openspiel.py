"""Every ttr-lab game as an OpenSpiel game (``pyspiel``), for OpenSpiel's bots and evaluators.

    import pyspiel, ttr_lab.envs.openspiel  # registers python_ttr_lab (only if pyspiel imports)
    game = pyspiel.load_game("python_ttr_lab", {"game": "trans_orient", "players": 3})

Parameters: ``game`` (a registered ttr-lab game), ``players``, ``map`` (Ticket to Ride; ``""``:
the game's default), ``seed`` (the first deal; each ``new_initial_state`` deals the next one)
and ``max_game_length`` (the bound the game declares; an engine game longer than it is an error).

What OpenSpiel is told, and why:

- **Chance is sampled, not explicit** (``SAMPLED_STOCHASTIC``): the deal and every later draw
  come from the engine's seeded generator inside the state; there are no chance nodes and
  ``chance_outcomes`` is empty. A ``clone`` holds the same future draws, so an algorithm that
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
            chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
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
            info = pyspiel.GameInfo(num_distinct_actions=self.ttr_game.action_space.size, max_chance_outcomes=0,
                                    num_players=players, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                                    max_game_length=self.max_length)
            super().__init__(_game_type(), info, merged)

        def new_initial_state(self, seed: int | None = None) -> "TTRLabState":
            """The next deal (or the deal of ``seed``)."""
            return TTRLabState(self, self._deals.getrandbits(63) if seed is None else seed)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "TTRLabObserver":
            if params:
                raise ValueError(f"observation parameters are not supported: {params}")
            perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            return TTRLabObserver(self, perfect_recall)

    class TTRLabState(pyspiel.State):
        """One ttr-lab game in progress; the engine's state is ``self.engine``."""

        def __init__(self, game: "TTRLabGame", seed: int, engine: Any = None,
                     histories: list[list[str]] | None = None) -> None:
            super().__init__(game)
            self.ttr_game: Any = game.ttr_game  # a game with an observation tensor
            self.seed = seed
            self.max_length = game.max_length
            self.engine = engine if engine is not None else self.ttr_game.new_game(game.players, seed)
            # What each player has seen, one entry per action: the information-state strings.
            self.histories = histories if histories is not None else [[] for _ in range(game.players)]

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
            seen = _digest(self.ttr_game.observation_tensor(engine.observation(seat)))
            engine.apply(chosen)
            full = engine.action_text(chosen)
            _, public, card = engine.last_event()
            public_text = f"{public}" + (f" ({card})" if isinstance(card, int) and card >= 0 else "")
            for p, history in enumerate(self.histories):
                history.append(f"[{seen}] me: {full}" if p == seat else f"seat {seat}: {public_text}")
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
            return f"seat {player}\n" + "\n".join(self.histories[player]) + f"\nnow [{now}]"

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
            rng = random.Random(derive_seed(self.seed, len(self.histories[0]), player, 0x05D1E))
            engine = _determinizer(self.ttr_game)(self.engine.observation(player), rng)
            return TTRLabState(self.get_game(), self.seed, engine, [list(h) for h in self.histories])

        def clone(self) -> "TTRLabState":
            # The engine's own clone: a deep copy would walk its history list and be slow.
            return TTRLabState(self.get_game(), self.seed, self.engine.clone(), [list(h) for h in self.histories])

        def __deepcopy__(self, memo: dict) -> "TTRLabState":
            return self.clone()

        def __str__(self) -> str:
            where = "game over" if self.engine.is_terminal() else f"seat {self.engine.current_player} to play"
            return f"{self.ttr_game.title}, seed {self.seed}, {len(self.histories[0])} actions, {where}"

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
