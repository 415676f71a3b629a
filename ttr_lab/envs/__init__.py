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
from ttr_lab.core.rng import derive_seed

__all__ = ["REGISTERED", "gym_env", "make_vec_env", "pettingzoo_env", "self_play_vector_env", "vector_env"]



def _env_id(game: str) -> str:
    """A game's Gymnasium id: ``ticket_to_ride`` -> ``ttr_lab/TicketToRide-v0``."""
    return "ttr_lab/" + "".join(word.capitalize() for word in game.split("_")) + "-v0"


def _registered() -> dict[str, str]:
    from ttr_lab.games import INSTALLED

    return {_env_id(game): game for game in INSTALLED}


# Gymnasium id -> game: every installed game (Ticket to Ride: ttr_lab/TicketToRide-v0)
REGISTERED = _registered()


def make_vec_env(num_envs: int = 16, game: Any = None, players: int = 4, autoreset_mode: Any = None,
                 **options: Any) -> Any:
    """``gym.make_vec``'s entry point: the batched env where the game has compiled rules, else a
    ``SyncVectorEnv`` over ``gym_env``; same-step autoreset unless ``autoreset_mode`` says."""
    _need("gymnasium")
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    from ttr_lab.envs.table import make_game

    mode = AutoresetMode.SAME_STEP if autoreset_mode is None else AutoresetMode(autoreset_mode)
    rl_options: dict[str, Any] = {k: options.pop(k) for k in ("opponents", "seat", "reward", "illegal_reward", "seed",
                                              "render_mode") if k in options}
    built = make_game(game, options, players)
    if getattr(built, "batch", None) is not None:
        return vector_env(built, num_envs=num_envs, players=players, autoreset_mode=mode, **rl_options)
    seed = rl_options.pop("seed", None)
    # sub-env i's first reset() is seeded derive_seed(seed, i), as the batched env seeds sub-game i
    seeds = [None if seed is None else derive_seed(int(seed), i) for i in range(num_envs)]
    return SyncVectorEnv([_maker(built, players, rl_options, s) for s in seeds], autoreset_mode=mode)


def _maker(game: Any, players: int, options: dict[str, Any], seed: int | None) -> Any:
    return lambda: gym_env(game, players=players, seed=seed, **options)


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
    for env_id, game in REGISTERED.items():
        if env_id not in registry:
            register(env_id, entry_point="ttr_lab.envs.single_agent:gym_env",
                     vector_entry_point="ttr_lab.envs:make_vec_env", kwargs={"game": game})


_register()
