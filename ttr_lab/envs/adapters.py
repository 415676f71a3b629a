"""Adapters for RL libraries that read the action mask from the observation.

RLlib's action-masking RL module (``ActionMaskingTorchRLModule`` in its examples) takes a ``Dict``
observation with the keys ``"observations"`` and ``"action_mask"``::

    from ttr_lab.envs import gym_env
    from ttr_lab.envs.adapters import MaskInObservation
    env = MaskInObservation(gym_env("trans_orient", players=2))   # obs: {"observations", "action_mask"}

Gymnasium only (no RLlib import): the wrapper is plain Gymnasium, usable by any library with the
same convention (``obs_key`` / ``mask_key`` rename the keys).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

OBS_KEY, MASK_KEY = "observations", "action_mask"  # RLlib's action-masking module reads these


class MaskInObservation(gymnasium.ObservationWrapper):
    """A masked ttr-lab env's observation as ``{obs_key: tensor, mask_key: float32 0/1 mask}``."""

    def __init__(self, env: gymnasium.Env, obs_key: str = OBS_KEY, mask_key: str = MASK_KEY) -> None:
        super().__init__(env)
        self.obs_key, self.mask_key = obs_key, mask_key
        n = int(env.action_space.n)  # type: ignore[attr-defined]
        self.observation_space = spaces.Dict({
            obs_key: env.observation_space,
            mask_key: spaces.Box(0.0, 1.0, shape=(n,), dtype=np.float32),
        })

    def observation(self, observation: Any) -> dict[str, np.ndarray]:
        mask = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        return {self.obs_key: observation, self.mask_key: mask.astype(np.float32)}

    def action_masks(self) -> np.ndarray:
        """The legal ids now, as booleans (what sb3-contrib calls), through this wrapper."""
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
