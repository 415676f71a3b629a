"""Masks as RL libraries read them: ``action_masks()`` on the env (sb3-contrib's MaskablePPO),
and gymnasium's vector autoreset modes (docs/rl.md says which to use, and why)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")

from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from ttr_lab.envs import gym_env  # noqa: E402


def _first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_action_masks_is_the_info_mask_as_booleans_at_every_step():
    env = gym_env("trans_orient", players=3, opponents=["random"])
    obs, info = env.reset(seed=2)
    terminated = False
    while not terminated:
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (env.action_space.n,)
        assert np.array_equal(masks, info["action_mask"].astype(bool)) and masks.any()
        obs, reward, terminated, truncated, info = env.step(_first_legal(masks))
    assert not env.action_masks().any()  # over: reset first


def _empty_masks(mode: AutoresetMode, steps: int) -> int:
    envs = SyncVectorEnv([lambda: gym_env("trans_orient", players=2, opponents=["random"])] * 2, autoreset_mode=mode)
    obs, info = envs.reset(seed=3)
    empty = 0
    for _ in range(steps):
        masks = info["action_mask"]
        empty += int((~masks.astype(bool).any(axis=1)).sum())
        actions = np.array([_first_legal(m) if m.any() else 0 for m in masks])
        obs, rewards, terminated, truncated, info = envs.step(actions)
    envs.close()
    return empty


def test_same_step_autoreset_never_hands_out_an_empty_mask():
    # Long enough for both envs to finish more than one game (a 2-player game is ~60-80 steps).
    assert _empty_masks(AutoresetMode.SAME_STEP, 400) == 0
    assert _empty_masks(AutoresetMode.NEXT_STEP, 400) > 0  # what docs/rl.md warns about
