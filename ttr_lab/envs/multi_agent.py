"""A PettingZoo AEC environment: every seat is an agent (``player_0`` ... ``player_{n-1}``).

    env = pettingzoo_env("ticket_to_ride", map="usa", players=4)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(obs["observation"], obs["action_mask"])
        env.step(action)

Observations are ``{"observation": float32 tensor, "action_mask": int8 mask}``; the mask is all
zeros for an agent not to move. Turns follow the game (a Ticket to Ride draw-two turn is two
steps of the same agent), so the next agent is the state's ``current_player``, not a cycle.
Rewards come once, when the game ends (see ``table.Table``); nothing is truncated (every game
ends by its rules, a stalled one included).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ttr_lab.core.game import Game, TensorGame
from ttr_lab.core.errors import ConfigError
from ttr_lab.envs.table import Table, make_game

RENDER_MODES = ("ansi", "rgb_array")


def observation_space(table: Table) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(0.0, np.inf, shape=table.shape, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(table.size,), dtype=np.int8),
    })


class GameAECEnv(AECEnv):
    """Any ttr-lab game with an observation tensor, as a PettingZoo AEC environment."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "ttr_lab", "is_parallelizable": False}

    def __init__(self, game: TensorGame, players: int, seed: int | None = None, reward: str = "rank",
                 illegal_reward: float = -1.0, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)}")
        self.table = Table(game, players, reward, illegal_reward)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"{game.name}_{game.variant}_{players}p"}
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = observation_space(self.table)
        self._action_spaces = {a: spaces.Discrete(self.table.size) for a in self.possible_agents}
        self._obs_spaces = {a: self._obs_space for a in self.possible_agents}
        self._seeds = random.Random(seed)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
            for i, agent in enumerate(self.possible_agents):
                self._action_spaces[agent].seed(seed + i)
        self.table.new_game(self._seeds.getrandbits(63))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        return {"observation": self.table.tensor(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: Any) -> None:
        if not self.table.dealt:
            raise ConfigError("step() before reset(): call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        legal = table.apply_id(action)
        self._cumulative_rewards[agent] = 0.0
        if table.over:
            final = table.rewards()
            for a in self.agents:
                self.rewards[a] = final[self._seat[a]]
                self.terminations[a] = True
                if not legal:
                    self.infos[a] = {"forfeit_by": agent}
            # agent_selection stays on the agent that ended the game: each agent then steps None
            self._accumulate_rewards()
        else:  # rewards are all 0 until the end: nothing to accumulate
            self.agent_selection = self.possible_agents[table.to_move]

    def render(self) -> Any:
        names = list(self.possible_agents)
        if self.render_mode == "rgb_array":
            return self.table.render_rgb(names)
        if self.render_mode == "ansi":
            return self.table.render_text(names)
        return None

    def close(self) -> None:
        pass


def pettingzoo_env(game: str | Game | None = None, players: int = 4, seed: int | None = None,
                   reward: str = "rank", illegal_reward: float = -1.0, render_mode: str | None = None,
                   **options: Any) -> GameAECEnv:
    """A PettingZoo AEC env of ``game`` (a registered name with its ``options``, e.g.
    ``map="legendary_asia"``, or a ``Game``; None: the house game) at ``players`` seats. ``seed`` seeds the sequence
    of games played by ``reset()`` without a seed; ``reset(seed=s)`` restarts it at ``s``.
    ``reward``: ``"rank"`` (win share) or ``"margin"`` (score minus the best opponent's)."""
    built = make_game(game, options, players)
    return GameAECEnv(built, players, seed=seed, reward=reward, illegal_reward=illegal_reward,
                      render_mode=render_mode)
