"""Stable-Baselines3's ``VecEnv`` over a batched env (``vector_env`` / ``self_play_vector_env``),
with ``action_masks`` where sb3-contrib's ``MaskablePPO`` looks for them::

    from sb3_contrib import MaskablePPO
    from ttr_lab.envs.sb3 import sb3_vec_env
    envs = sb3_vec_env(vector_env("ticket_to_ride", num_envs=64, players=2, opponents="greedy"))
    MaskablePPO("MlpPolicy", envs, n_steps=128).learn(100_000)

SB3 resets as the batched env does in ``SAME_STEP`` mode: the step that ends a game returns the
next game's first observation, the last one in ``infos[i]["terminal_observation"]``. Needs
``stable-baselines3`` (and ``sb3-contrib`` for masks): the ``[sb3]`` extra, which brings torch.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from ttr_lab.core.errors import ConfigError


class BatchedVecEnv(VecEnv):
    """An SB3 ``VecEnv`` whose sub-envs are the sub-games of one batched env (see the module)."""

    def __init__(self, env: Any) -> None:
        base = env.unwrapped
        if base.metadata.get("autoreset_mode") != AutoresetMode.SAME_STEP:
            raise ConfigError("sb3_vec_env needs the batched env in SAME_STEP autoreset mode (SB3 resets that way)")
        self.env = env
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        obs, info = self.env.reset(seed=seed)
        self._reset_seeds()
        self.reset_infos = self._infos(info, np.zeros(self.num_envs, dtype=bool))
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = np.logical_or(terminated, truncated)
        return obs, rewards.astype(np.float32), dones, self._infos(info, dones)

    def _infos(self, info: dict[str, Any], dones: np.ndarray) -> list[dict[str, Any]]:
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for key, value in info.items():
            if key.startswith("_") or key in ("final_obs", "final_info", "action_mask"):
                continue
            present = info.get(f"_{key}", np.ones(self.num_envs, dtype=bool))
            for i in np.flatnonzero(present):
                infos[i][key] = value[i]
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = info["final_obs"][i]
            infos[i]["TimeLimit.truncated"] = False  # every game ends by its rules
        return infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, n_actions)`` bool: the legal ids of every sub-game now."""
        return self.env.unwrapped.action_masks()

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        values = self.env.unwrapped.get_attr(attr_name)
        return [values[i] for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        self.env.unwrapped.set_attr(attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        # The batched env answers for every sub-game in one call (``action_masks``: one row each).
        values = self.env.unwrapped.call(method_name, *method_args, **method_kwargs)
        return [values[i] for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def close(self) -> None:
        self.env.close()


def sb3_vec_env(env: Any) -> BatchedVecEnv:
    """``env`` (a batched env, ``vector_env`` or ``self_play_vector_env``) as an SB3 ``VecEnv``."""
    return BatchedVecEnv(env)
