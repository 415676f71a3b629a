"""The envs as RL clients take them, unchanged or through the shipped adapters: gymnasium's
observation wrappers on the batched env (next-step autoreset), its SyncVectorEnv-style methods,
masks reachable through wrappers, the Gymnasium registry, SB3's VecEnv with MaskablePPO, RLlib's
mask-in-observation keys. A client that is not installed skips its test, saying so."""

from __future__ import annotations

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")

from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers import vector as vector_wrappers  # noqa: E402

from ttr_lab.envs import gym_env, self_play_vector_env, vector_env  # noqa: E402


def _legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


def test_gymnasiums_observation_wrappers_take_the_batched_env_in_next_step_mode():
    envs = vector_env("ticket_to_ride", num_envs=3, players=2, seed=0, autoreset_mode=AutoresetMode.NEXT_STEP)
    wrapped = vector_wrappers.DtypeObservation(vector_wrappers.NormalizeObservation(envs), np.float64)
    wrapped = vector_wrappers.TransformObservation(wrapped, lambda o: o * 1.0)
    obs, info = wrapped.reset(seed=0)
    assert obs.dtype == np.float64 and obs.shape == (3, 708)
    rng, ended = np.random.default_rng(0), 0
    for _ in range(150):
        masks = envs.action_masks()
        assert masks.any(axis=1).all()  # never empty: a finished game's step takes any id
        obs, rewards, terminated, truncated, info = wrapped.step(_legal(masks, rng))
        ended += int(terminated.sum())
    assert ended >= 3


def _streams(envs, steps):
    """Per sub-game, what it showed, step by step: (observation bytes, reward, mask bytes), each
    sub-game playing its lowest legal id; a same-step game's end shows its final observation and
    then (the step after, as next-step shows it) the next game's first one."""
    n = envs.num_envs
    obs, info = envs.reset()
    shown = [[(obs[i].tobytes(), 0.0, info["action_mask"][i].tobytes())] for i in range(n)]
    for _ in range(steps):
        obs, rewards, terminated, _, info = envs.step(envs.action_masks().argmax(axis=1))
        for i in range(n):
            if "final_obs" in info and info["_final_obs"][i]:
                everything = np.ones_like(info["action_mask"][i])  # next-step's mask there: any id
                shown[i].append((info["final_obs"][i].tobytes(), rewards[i], everything.tobytes()))
                shown[i].append((obs[i].tobytes(), 0.0, info["action_mask"][i].tobytes()))
            else:
                shown[i].append((obs[i].tobytes(), rewards[i], info["action_mask"][i].tobytes()))
    return shown


@pytest.mark.parametrize("make", [vector_env, self_play_vector_env], ids=["learner", "self_play"])
def test_next_step_shows_the_same_games_as_same_step_with_one_step_between(make):
    same = make("ticket_to_ride", num_envs=2, players=2, seed=4)
    nxt = make("ticket_to_ride", num_envs=2, players=2, seed=4, autoreset_mode="NextStep")
    assert nxt.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert same.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    a, b = _streams(same, 260), _streams(nxt, 300)
    for i in range(2):
        ends = sum(1 for _, r, m in a[i] if r != 0.0 or np.frombuffer(m, dtype=bool).all())
        assert ends >= 1  # at least one game ended in the stretch compared
        k = min(len(a[i]), len(b[i]))
        assert a[i][:k] == b[i][:k]


def test_the_batched_env_has_syncvectorenvs_methods_and_masks_through_wrappers():
    envs = vector_env("ticket_to_ride", num_envs=3, players=3, seed=2, render_mode="ansi", autoreset_mode="NextStep")
    wrapped = vector_wrappers.RecordEpisodeStatistics(vector_wrappers.DtypeObservation(envs, np.float64))
    obs, info = wrapped.reset(seed=2)
    # gymnasium's vector wrappers forward neither call nor attributes: unwrapped reaches the env
    assert np.array_equal(wrapped.unwrapped.action_masks(), info["action_mask"])
    masks = wrapped.unwrapped.call("action_masks")
    assert len(masks) == 3 and all(np.array_equal(m, row) for m, row in zip(masks, info["action_mask"]))
    assert envs.get_attr("players") == (3, 3, 3)
    assert tuple(envs.get_attr("seats")) == tuple(info["seat"])
    envs.set_attr("illegal_reward", -2.0)
    assert envs.illegal_reward == -2.0
    texts = wrapped.render()
    assert len(texts) == 3 and texts[0].startswith("sub-game 0, game 0: Ticket to Ride")


def test_gymnasium_ids_make_the_envs_with_their_spec():
    env = gym.make("ttr_lab/TransOrient-v0", players=2, seed=0)
    assert env.spec is not None and env.spec.id == "ttr_lab/TransOrient-v0"
    obs, info = env.reset()
    assert obs.shape == (1570,) and env.unwrapped.action_masks().any()
    again = gym.make("ttr_lab.envs:ttr_lab/TicketToRide-v0", players=2)
    assert again.spec.id == "ttr_lab/TicketToRide-v0"
    batched = gym.make_vec("ttr_lab/TicketToRide-v0", num_envs=2, players=2, seed=0)
    assert type(batched.unwrapped).__name__ == "LearnerVectorEnv" and batched.spec.id == "ttr_lab/TicketToRide-v0"
    assert batched.reset()[0].shape == (2, 708)
    synced = gym.make_vec("ttr_lab/TransOrient-v0", num_envs=2, players=2, seed=1)
    assert synced.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs = synced.reset()[0]
    assert obs.shape == (2, 1570) and not np.array_equal(obs[0], obs[1])
    assert np.array_equal(obs, gym.make_vec("ttr_lab/TransOrient-v0", num_envs=2, players=2, seed=1).reset()[0])


def test_gym_env_takes_a_seed_as_the_other_envs_do():
    a, b = gym_env("trans_orient", players=2, seed=7), gym_env("trans_orient", players=2)
    assert np.array_equal(a.reset()[0], b.reset(seed=7)[0])


def test_rllibs_mask_keys_come_from_the_adapter():
    from ttr_lab.envs.adapters import MaskInObservation

    env = MaskInObservation(gym_env("trans_orient", players=2, seed=1))
    obs, info = env.reset()
    assert set(obs) == {"observations", "action_mask"} and obs in env.observation_space
    assert np.array_equal(obs["action_mask"] > 0, info["action_mask"] > 0)
    obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert obs in env.observation_space and np.array_equal(env.action_masks(), obs["action_mask"] > 0)
    try:
        from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule  # noqa: F401
    except Exception:  # noqa: BLE001 - RLlib (and dm-tree, torch) are optional
        pytest.skip("RLlib is not installed (pip install 'ray[rllib]' torch): the keys were checked, not the module")


def test_maskable_ppo_trains_on_the_batched_env_through_the_sb3_adapter():
    pytest.importorskip("torch", reason="torch is not installed (pip install 'ttr-lab[sb3]')")
    pytest.importorskip("stable_baselines3", reason="stable-baselines3 is not installed (pip install 'ttr-lab[sb3]')")
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (pip install 'ttr-lab[sb3]')")
    from sb3_contrib.common.maskable.utils import get_action_masks

    from ttr_lab.envs.sb3 import sb3_vec_env

    envs = sb3_vec_env(vector_env("ticket_to_ride", num_envs=4, players=2, seed=0))
    assert get_action_masks(envs).shape == (4, 1076)
    model = sb3_contrib.MaskablePPO("MlpPolicy", envs, n_steps=32, batch_size=64, n_epochs=1, seed=0)
    model.learn(128)
    obs = envs.reset()
    actions, _ = model.predict(obs, action_masks=get_action_masks(envs))
    assert get_action_masks(envs)[np.arange(4), actions].all()


def test_ci_runs_the_envs_at_the_declared_gymnasium_floor():
    # gymnasium 1.0.0 has no AutoresetMode, which the batched envs use: the floor is 1.1.
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    declared = set(re.findall(r'"gymnasium>=([0-9.]+)"', (root / "pyproject.toml").read_text()))
    tested = re.search(r"GYM_FLOOR=([0-9.]+)", (root / ".ci" / "run").read_text()).group(1)
    assert declared and all(tested.startswith(floor) for floor in declared)
