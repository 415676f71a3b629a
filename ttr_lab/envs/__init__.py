"""Reinforcement-learning environments for every ttr-lab game (the ``[rl]`` extra: pettingzoo,
gymnasium, numpy): ``pettingzoo_env`` (an AEC env, every seat an agent), ``gym_env`` (one
learner against ttr-lab strategies), and the batched Gymnasium vector envs of Ticket to Ride,
``vector_env`` (a learner per sub-game against compiled opponents) and ``self_play_vector_env``
(every sub-game's player to move). See docs/rl.md.

They are imported on first use, so ``import ttr_lab.envs`` works without the extra and a
missing one is named in a one-line ``ConfigError``. Importing it registers Gymnasium ids
(``REGISTERED``) where gymnasium is installed: ``gym.make("ttr_lab/TicketToRide-v0", players=2)``,
``gym.make_vec("ttr_lab/TicketToRide-v0", num_envs=64)`` (the batched env), and the same through
``"ttr_lab.envs:ttr_lab/TicketToRide-v0"`` without importing it first.
"""

from __future__ import annotations

from typing import Any

from ttr_lab.core.errors import ConfigError

__all__ = ["REGISTERED", "gym_env", "pettingzoo_env", "self_play_vector_env", "vector_env"]

# Gymnasium id -> (game, the batched vector env's entry point, or None: SyncVectorEnv over gym_env)
REGISTERED = {
    "ttr_lab/TicketToRide-v0": ("ticket_to_ride", "ttr_lab.envs.vector:vector_env"),
    "ttr_lab/TransOrient-v0": ("trans_orient", None),
}


def _need(module: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise ConfigError(f"{module} is not installed: pip install 'ttr-lab[rl]'")


def pettingzoo_env(game: Any = None, players: int = 4, seed: int | None = None, **options: Any) -> Any:
    """A PettingZoo AEC env (``ttr_lab.envs.multi_agent.pettingzoo_env``)."""
    _need("pettingzoo")
    _need("gymnasium")
    from ttr_lab.envs.multi_agent import pettingzoo_env as make

    return make(game, players=players, seed=seed, **options)


def gym_env(game: Any = None, players: int = 4, **options: Any) -> Any:
    """A Gymnasium env (``ttr_lab.envs.single_agent.gym_env``)."""
    _need("gymnasium")
    from ttr_lab.envs.single_agent import gym_env as make

    return make(game, players=players, **options)


def vector_env(game: Any = None, num_envs: int = 256, players: int = 4, **options: Any) -> Any:
    """A batched Gymnasium vector env, a learner per sub-game (``ttr_lab.envs.vector.vector_env``)."""
    _need("gymnasium")
    from ttr_lab.envs.vector import vector_env as make

    return make(game, num_envs=num_envs, players=players, **options)


def self_play_vector_env(game: Any = None, num_envs: int = 256, players: int = 4, **options: Any) -> Any:
    """The batched self-play form (``ttr_lab.envs.vector.self_play_vector_env``)."""
    _need("gymnasium")
    from ttr_lab.envs.vector import self_play_vector_env as make

    return make(game, num_envs=num_envs, players=players, **options)


def _register() -> None:
    """The Gymnasium ids, so ``gym.make`` and ``gym.make_vec`` build the envs and set ``env.spec``."""
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # without the extra there is nothing to register with
        return
    for env_id, (game, vector_entry) in REGISTERED.items():
        if env_id not in registry:
            register(env_id, entry_point="ttr_lab.envs.single_agent:gym_env", vector_entry_point=vector_entry,
                     kwargs={"game": game})


_register()
