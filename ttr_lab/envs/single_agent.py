"""A Gymnasium environment: one learner against ttr-lab strategies.

    env = gym_env("trans_orient", players=3, opponents=["random", "greedy"], seat="rotate")
    obs, info = env.reset(seed=1)
    while True:
        action = policy(obs, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated: break

The masked-discrete contract: the action space is ``Discrete(game.action_space.size)`` and
``info["action_mask"]`` (int8, 1 at the legal ids) says which ids are legal now; an id outside
the mask ends the episode as the learner's forfeit (reward ``illegal_reward``, info
``"illegal_action": True``). ``env.action_masks()`` gives the same mask as booleans, the method
sb3-contrib's ``MaskablePPO`` looks for, so it takes the env unwrapped. Opponents are strategy names, or ``{"strategy": name, "params":
{...}}`` as a tournament's entrants give them (e.g. a cheaper ``mcts``); their parameters are
checked when the env is made. They are built fresh each episode and play as in a tournament:
their own seeded ``random.Random`` and the ``on_game_start`` / ``on_event`` / ``on_game_end``
hooks.

``seat="rotate"``: episode k after ``reset(seed=s)`` seats the learner at k mod players (0 first);
an int fixes the seat. Opponents fill the other seats in order, their list repeated as needed.
The reward comes at the end (``table.Table``: win share or score margin).
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game, TensorGame
from ttr_lab.core.registry import StrategySpec
from ttr_lab.envs.multi_agent import RENDER_MODES
from ttr_lab.envs.table import Table, make_game


class GameGymEnv(gymnasium.Env):
    """Any ttr-lab game with an observation tensor, one seat learning (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(self, game: TensorGame, players: int, opponents: Sequence[str | Mapping[str, Any]],
                 seat: str | int = "rotate", reward: str = "rank", illegal_reward: float = -1.0,
                 render_mode: str | None = None, seed: int | None = None) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)}")
        if seat != "rotate" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise ConfigError(f"seat must be 'rotate' or a seat 0..{players - 1}, not {seat!r}")
        if isinstance(opponents, (str, Mapping)):  # one opponent given bare
            opponents = [opponents]
        # An unknown or foreign strategy, or a bad parameter, is refused now, not mid-episode.
        makers = [StrategySpec.of(o).factory(game.name) for o in opponents or ["random"]]
        for make in makers:
            make()
        self.table = Table(game, players, reward, illegal_reward)
        self.opponents = makers
        self.seat_rule = seat
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, np.inf, shape=self.table.shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.table.size)
        self.episode = 0
        self._first_seed = seed  # the first reset()'s, if it is given none (as vector_env takes it)
        self.seat = 0
        self._seats: list[Any] = []
        self._rngs: list[random.Random] = []

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        if seed is None:
            seed = self._first_seed
        self._first_seed = None
        super().reset(seed=seed)
        if seed is not None:
            self.episode = 0
            self.action_space.seed(seed)
        else:
            self.episode += 1
        table = self.table
        table.new_game(int(self.np_random.integers(2**63 - 1)))
        n = table.players
        self.seat = self.episode % n if self.seat_rule == "rotate" else int(self.seat_rule)
        others = iter(self.opponents * n)
        self._seats = [None if s == self.seat else next(others)() for s in range(n)]
        self._rngs = [random.Random(table.strategy_rng_seed(s)) for s in range(n)]
        for s, strategy in enumerate(self._seats):
            if strategy is not None and hasattr(strategy, "on_game_start"):
                strategy.on_game_start(table.state.observation(s))
        self._opponents_play()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        table = self.table
        if not table.dealt:
            raise ConfigError("step() before reset(): call reset() first")
        if table.over:
            raise ConfigError("step() after the episode ended: call reset()")
        legal = table.apply_id(action)
        if legal:
            self._tell_event()
            self._opponents_play()
        if not table.over:
            return self._observe(), 0.0, False, False, self._info()
        self._game_end()
        info = self._info()
        if not legal:
            info["illegal_action"] = True
        return self._observe(), table.rewards()[self.seat], True, False, info

    def _opponents_play(self) -> None:
        table = self.table
        while not table.over and table.to_move != self.seat:
            s = table.to_move
            legal = table.state.legal_actions()
            table.apply(self._seats[s].act(table.state.observation(s), legal, self._rngs[s]))
            self._tell_event()

    def _tell_event(self) -> None:
        event = self.table.state.last_event()
        for strategy in self._seats:
            if strategy is not None and hasattr(strategy, "on_event"):
                strategy.on_event(*event)

    def _game_end(self) -> None:
        if self.table.forfeit_by is not None:
            return
        outcome = self.table.state.outcome()
        for s, strategy in enumerate(self._seats):
            if strategy is not None and hasattr(strategy, "on_game_end"):
                strategy.on_game_end(self.table.state.observation(s), outcome)

    def _observe(self) -> np.ndarray:
        return self.table.tensor(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.table.mask(self.seat), "seat": self.seat}

    def action_masks(self) -> np.ndarray:
        """The legal ids now, as booleans (``info["action_mask"]``): what sb3-contrib's
        ``MaskablePPO`` calls. All False once the episode is over: reset first (under gymnasium's
        vector envs use ``autoreset_mode=SAME_STEP``, see docs/rl.md)."""
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> Any:
        names = ["learner" if s is None else getattr(s, "name", type(s).__name__.lower()) for s in self._seats]
        if self.render_mode == "rgb_array":
            return self.table.render_rgb(names)
        if self.render_mode == "ansi":
            return self.table.render_text(names)
        return None


def gym_env(game: str | Game | None = None, players: int = 4,
            opponents: Sequence[str | Mapping[str, Any]] = ("random",),
            seat: str | int = "rotate", reward: str = "rank", illegal_reward: float = -1.0,
            render_mode: str | None = None, seed: int | None = None, **options: Any) -> GameGymEnv:
    """A Gymnasium env of ``game`` (name with ``options``, or a ``Game``; None: the house game): the learner at ``seat``
    against ``opponents`` (strategy names, or ``{"strategy": name, "params": {...}}``); ``seed``: the
    first ``reset()``'s if it is given none. See the module docstring for the mask contract."""
    built = make_game(game, options, players)
    return GameGymEnv(built, players, opponents, seat=seat, reward=reward, illegal_reward=illegal_reward,
                      render_mode=render_mode, seed=seed)
