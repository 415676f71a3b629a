"""Batched Gymnasium vector envs: many Ticket to Ride games stepped by one native call.

    envs = vector_env("ticket_to_ride", num_envs=256, players=4, opponents="random", seed=0, map="usa")
    obs, info = envs.reset()                      # obs (256, obs_dim) float32
    while training:
        actions = policy(obs, info["action_mask"])  # masks (256, n_actions) bool
        obs, rewards, terminated, truncated, info = envs.step(actions)

``vector_env``: one learner per sub-game against compiled opponents (``"random"``: uniform over the
legal ids; ``"planner"``: the ticket planner compiled, ``strategies/ticket_to_ride/planner_decisions.py``, the
choice of a fresh ``TicketPlanner`` at every decision). ``planner_actions()`` gives that planner's
choice for every sub-game's player to move, a teacher to imitate. ``self_play_vector_env``: no opponents; every sub-game shows its player to move
(``info["to_move"]``) and ``step`` takes each game's mover's action. Both are
``gymnasium.vector.VectorEnv``\\s with **same-step autoreset** (``metadata["autoreset_mode"]``):
the step that ends a game already returns the next game's first observation and mask, the last
ones of the ended game in ``info["final_obs"]`` / ``info["final_info"]`` (object arrays, set where
``info["_final_obs"]``), as gymnasium's ``SyncVectorEnv`` gives them in that mode. So a masked
policy never meets an empty mask. Nothing is truncated: every game ends by its rules.

Rewards, illegal ids and observations are the per-game envs' (``gym_env`` / ``pettingzoo_env``;
``envs.table.Table``): ``reward="rank"`` the win share at the end, ``"margin"`` own score minus the
best opponent's; an id that is not legal ends the game as the mover's forfeit
(``illegal_reward``, ``info["illegal_action"]``). The tensors and masks are bit for bit those envs'
(the tests check, same seeds, same games).

Seeds: ``reset(seed=s)`` gives sub-game ``i`` the seed ``b_i = derive_seed(s, i)`` (``reset(seed=[b_0,
...])`` sets them directly; ``reset()`` draws a fresh ``s`` from the env's generator). Game ``k``
of sub-game ``i`` (0 first) has the seed ``derive_seed(b_i, k)`` (``env.game_seed(i, k)``): it is
the game ``game.new_game(players, that seed)`` deals, its opponents draw from ``derive_seed(that
seed, STRATEGY_KEY)``, and with ``seat="rotate"`` the learner sits at ``(i + k) % players``.

Ticket to Ride only: its rules are compiled kernels over one state array, so a batch is one
array and one call. Trans-Orient Express's rules are Python objects (not compiled): batching
them would only loop over per-game envs, as ``gymnasium.vector.SyncVectorEnv`` over ``gym_env``
already does.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game, TensorGame
from ttr_lab.core.record import GameRecord
from ttr_lab.core.rng import derive_seed
from ttr_lab.envs import vector_kernels as K
from ttr_lab.envs.table import REWARDS, check_ids, make_game
from ttr_lab.strategies.ticket_to_ride.greedy_kernel import PLAN_PARAMS
from ttr_lab.strategies.ticket_to_ride.planner_decisions import DEFAULT_PARAMS, tables_of

OPPONENTS = {"random": K.RANDOM, "planner": K.PLANNER, "greedy": K.GREEDY}


AUTORESET_MODES = (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)
RENDER_MODES = ("ansi",)


class _Batched(VectorEnv):
    """What both forms share: the game's batch, the spaces, seeds, actions in, infos out."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": list(RENDER_MODES)}

    def __init__(self, game: TensorGame, num_envs: int, players: int, reward: str, illegal_reward: float,
                 seed: int | None, autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
                 render_mode: str | None = None) -> None:
        batch_of = getattr(game, "batch", None)
        if batch_of is None:
            raise ConfigError(f"{game.title} has no compiled rules to batch: use gym_env with "
                              f"gymnasium.vector.SyncVectorEnv")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive integer, not {num_envs!r}")
        if reward not in REWARDS:
            raise ConfigError(f"reward {reward!r} is not one of {', '.join(REWARDS)}")
        modes = {m.value: m for m in AUTORESET_MODES}
        mode = autoreset_mode.value if isinstance(autoreset_mode, AutoresetMode) else autoreset_mode
        if mode not in modes:
            raise ConfigError(f"autoreset_mode {autoreset_mode!r} is not one of {', '.join(modes)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)}")
        # Per instance: gymnasium's wrappers read the mode from env.metadata.
        self.metadata = {**self.metadata, "autoreset_mode": modes[mode]}
        self.next_step = modes[mode] == AutoresetMode.NEXT_STEP
        self.render_mode = render_mode
        self.game = game
        self.batch = batch_of(players)
        self.num_envs = num_envs
        self.players = players
        self.reward_kind = REWARDS.index(reward)
        self.illegal_reward = float(illegal_reward)
        self.single_observation_space = spaces.Box(0.0, np.inf, shape=(self.batch.tensor_size,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.batch.n_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._first_seed = seed
        self.states = np.zeros((num_envs, self.batch.state_size), dtype=np.int64)
        self.bases = np.zeros(num_envs, dtype=np.uint64)
        self.games = np.zeros(num_envs, dtype=np.int64)
        self.masks = np.zeros((num_envs, self.batch.n_actions), dtype=np.bool_)
        self.pending = np.zeros(num_envs, dtype=np.bool_)  # next-step autoreset: ended at the last step
        self._all = np.ones(num_envs, dtype=np.bool_)
        self._dealt = False  # no game before the first reset(): stepping the zeroed states would play one
        self.planner = tables_of(self.batch.g)  # the compiled planner's tables and buffers
        self.seat_rule = 0  # the self-play form's; the learner form sets its own

    def _rules(self) -> K.Rules:
        # built at each call: set_attr may have changed a setting since the last
        b = self.batch
        return K.Rules(b.g, b.plan, b.scales, self.seat_rule, self.reward_kind, self.illegal_reward, self.next_step)

    def _rows(self, seats: np.ndarray, rngs: np.ndarray) -> K.Batch:
        return K.Batch(self.states, self.bases, self.games, seats, rngs, self.pending)

    def _seed_bases(self, seed: int | Sequence[int] | None) -> None:
        self.pending[:] = False
        if seed is None and self._first_seed is not None:
            seed = self._first_seed
        self._first_seed = None
        if seed is None:
            seed = int(self.np_random.integers(2**63 - 1))
        if isinstance(seed, bool):
            raise ConfigError(f"seed must be an int or {self.num_envs} ints (one per sub-game), not {seed!r}")
        if isinstance(seed, (int, np.integer)):
            super().reset(seed=int(seed))
            self.action_space.seed(int(seed))
            bases = [derive_seed(int(seed), i) for i in range(self.num_envs)]
        else:
            bases = list(seed)
            if len(bases) != self.num_envs or not all(isinstance(b, (int, np.integer)) for b in bases):
                raise ConfigError(f"seed must be an int or {self.num_envs} ints (one per sub-game), not {seed!r}")
        self.bases[:] = [int(b) & (2**64 - 1) for b in bases]
        self._dealt = True

    def game_seed(self, i: int, k: int | None = None) -> int:
        """The seed of game ``k`` of sub-game ``i`` (its current game by default)."""
        return derive_seed(int(self.bases[i]), int(self.games[i]) if k is None else k)

    def _actions(self, actions: Any) -> np.ndarray:
        if not self._dealt:
            raise ConfigError("step() before reset(): call reset() first")
        check_ids(actions, (self.num_envs,))
        return np.asarray(actions).astype(np.int64, copy=False)

    def _buffers(self) -> K.Views:
        # fresh arrays each step: a learner may keep what it was handed
        n, b = self.num_envs, self.batch
        self.masks = np.empty((n, b.n_actions), dtype=np.bool_)
        return K.Views(np.empty((n, b.tensor_size), dtype=np.float32), self.masks)

    def _outcome(self) -> K.Outcome:
        n = self.num_envs
        return K.Outcome(np.empty(n), np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_),
                         np.empty((n, self.batch.tensor_size), dtype=np.float32), np.empty(n, dtype=np.int64))

    def _finals(self, info: dict[str, Any], ended: np.ndarray, final_obs: np.ndarray,
                extra: dict[str, np.ndarray]) -> None:
        """Gymnasium's same-step keys for the ended sub-games, as ``SyncVectorEnv`` writes them
        (next-step autoreset has none: the step's own observation is the last one)."""
        if self.next_step or not ended.any():
            return
        obs_of = np.full(self.num_envs, None, dtype=object)
        info_of = np.full(self.num_envs, None, dtype=object)
        no_actions = np.zeros(self.batch.n_actions, dtype=np.bool_)
        for i in np.flatnonzero(ended):
            obs_of[i] = final_obs[i]
            info_of[i] = {"action_mask": no_actions, **{key: value[i] for key, value in extra.items()}}
        info.update(final_obs=obs_of, _final_obs=ended, final_info=info_of, _final_info=ended)

    def planner_actions(self) -> np.ndarray:
        """The compiled ticket planner's choice for every sub-game's player to move (the learner,
        in ``vector_env``), one native call: a teacher to imitate. ``(num_envs,)`` int64 ids."""
        out = np.empty(self.num_envs, dtype=np.int64)
        K.planner_ids(self.batch.g, self.states, self.planner[0], DEFAULT_PARAMS, self.planner[1], out)
        return out

    def action_masks(self) -> np.ndarray:
        """The legal ids of every sub-game now, ``(num_envs, n_actions)`` bool (``info["action_mask"]``)."""
        return self.masks

    def state(self, i: int) -> Any:
        """Sub-game ``i``'s position as a ``GameState`` (a copy; without its public history)."""
        return self.batch.state(self.states[i])

    # -- what gymnasium's SyncVectorEnv offers besides reset and step, over the sub-games ----------

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """The env's attribute ``name`` (called with the arguments if it is a method), one entry per
        sub-game as ``SyncVectorEnv.call`` gives them: an array with a row per sub-game is split
        into its rows (``call("action_masks")``: each sub-game's mask), anything else repeated."""
        value = getattr(self, name)
        if callable(value):
            value = value(*args, **kwargs)
        if isinstance(value, np.ndarray) and value.ndim and value.shape[0] == self.num_envs:
            return tuple(value)
        return (value,) * self.num_envs

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """The attribute ``name``, one entry per sub-game (``call`` without calling)."""
        value = getattr(self, name)
        if isinstance(value, np.ndarray) and value.ndim and value.shape[0] == self.num_envs:
            return tuple(value)
        return (value,) * self.num_envs

    def set_attr(self, name: str, values: Any) -> None:
        """Set ``name`` on the env. The sub-games are rows of shared arrays, not objects: one value
        for them all, or a list of equal ones (as ``SyncVectorEnv`` is given one per sub-env)."""
        if isinstance(values, (list, tuple)):
            if len(values) != self.num_envs or any(v != values[0] for v in values):
                raise ConfigError(f"set_attr({name!r}) takes one value for every sub-game (they share the "
                                  f"env), not {len(values)} different ones")
            values = values[0]
        setattr(self, name, values)

    def render(self) -> tuple[str, ...] | None:
        """``render_mode="ansi"``: each sub-game's position as the game describes it (every hand)."""
        if self.render_mode != "ansi":
            return None
        texts = []
        for i in range(self.num_envs):
            names = tuple(self._seat_name(i, p) for p in range(self.players))
            record = GameRecord(game=self.game.name, options=self.game.options, num_players=self.players,
                                seed=self.game_seed(i), strategies=names, actions=(), result={})
            # the batch keeps no history: the text has no action count and no last actions
            text = self.game.views.describe_state(self.state(i), record, 0).replace("after 0 actions, ", "", 1)
            texts.append(f"sub-game {i}, game {int(self.games[i])}: {text}")
        return tuple(texts)

    def _seat_name(self, i: int, seat: int) -> str:
        return "player"


class LearnerVectorEnv(_Batched):
    """One learner per sub-game against compiled opponents (see the module docstring)."""

    def __init__(self, game: TensorGame, num_envs: int, players: int, opponents: str = "random", seat: str | int = "rotate",
                 reward: str = "rank", illegal_reward: float = -1.0, seed: int | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP, render_mode: str | None = None) -> None:
        if opponents not in OPPONENTS:
            raise ConfigError(f"opponents {opponents!r} is not one of {', '.join(OPPONENTS)} (compiled policies)")
        if seat != "rotate" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise ConfigError(f"seat must be 'rotate' or a seat 0..{players - 1}, not {seat!r}")
        super().__init__(game, num_envs, players, reward, illegal_reward, seed, autoreset_mode, render_mode)
        self.policy = OPPONENTS[opponents]
        self.params = PLAN_PARAMS if opponents == "greedy" else DEFAULT_PARAMS  # the opponents' knobs
        self.seat_rule = K.ROTATE if seat == "rotate" else int(seat)
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self.rngs = np.zeros(num_envs, dtype=np.uint64)
        self.decisions = 0  # every seat's, learners' and opponents', since the env was made
        self.opponents = opponents

    def _opponents(self) -> K.Opponents:
        pt, w = self.planner
        return K.Opponents(self.policy, pt, self.params, w)

    def _seat_name(self, i: int, seat: int) -> str:
        return "learner" if seat == self.seats[i] else self.opponents

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        self._seed_bases(seed)
        obs, masks = views = self._buffers()
        K.reset_learners(self._rules(), self._rows(self.seats, self.rngs), self._opponents(), views)
        return obs, {"action_mask": masks, "_action_mask": self._all, "seat": self.seats.copy(), "_seat": self._all}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        a = self._actions(actions)
        n = self.num_envs
        obs, masks = views = self._buffers()
        rewards, ended, illegal, final_obs, final_seats = out = self._outcome()
        self.decisions += K.step_learners(self._rules(), self._rows(self.seats, self.rngs), self._opponents(), a,
                                          views, out)
        info: dict[str, Any] = {"action_mask": masks, "_action_mask": self._all, "seat": self.seats.copy(),
                                "_seat": self._all}
        if illegal.any():
            info.update(illegal_action=illegal, _illegal_action=illegal)
        self._finals(info, ended, final_obs, {"seat": final_seats, "illegal_action": illegal})
        return obs, rewards, ended, np.zeros(n, dtype=np.bool_), info


class SelfPlayVectorEnv(_Batched):
    """Every seat is the caller's: each sub-game shows the view of its player to move
    (``info["to_move"]``), ``step`` plays each game's mover's action. ``rewards[i]`` is the reward
    of the seat that just played (0 until its game ends); when a game ends, every seat's reward is
    in ``info["returns"][i]`` (set where ``info["_returns"]``) and the seat that played its last
    action in ``info["final_info"][i]["mover"]``."""

    def __init__(self, game: TensorGame, num_envs: int, players: int, reward: str = "rank", illegal_reward: float = -1.0,
                 seed: int | None = None, autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
                 render_mode: str | None = None) -> None:
        super().__init__(game, num_envs, players, reward, illegal_reward, seed, autoreset_mode, render_mode)
        self.to_move = np.zeros(num_envs, dtype=np.int64)
        self._rngs = np.zeros(num_envs, dtype=np.uint64)  # the kernels' opponents' streams: none here

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        self._seed_bases(seed)
        obs, masks = views = self._buffers()
        K.reset_movers(self._rules(), self._rows(self.to_move, self._rngs), views)
        return obs, {"action_mask": masks, "_action_mask": self._all, "to_move": self.to_move.copy(),
                     "_to_move": self._all}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        a = self._actions(actions)
        n = self.num_envs
        obs, masks = views = self._buffers()
        rewards, ended, illegal, final_obs, movers = out = self._outcome()
        returns = np.zeros((n, self.players))
        K.step_movers(self._rules(), self._rows(self.to_move, self._rngs), a, views, out, returns)
        info: dict[str, Any] = {"action_mask": masks, "_action_mask": self._all, "to_move": self.to_move.copy(),
                                "_to_move": self._all}
        if illegal.any():
            info.update(illegal_action=illegal, _illegal_action=illegal)
        if ended.any():
            info.update(returns=returns, _returns=ended)
        self._finals(info, ended, final_obs, {"mover": movers, "illegal_action": illegal})
        return obs, rewards, ended, np.zeros(n, dtype=np.bool_), info


def vector_env(game: str | Game | None = None, num_envs: int = 256, players: int = 4, opponents: str = "random",
               seat: str | int = "rotate", reward: str = "rank", illegal_reward: float = -1.0,
               seed: int | None = None, autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
               render_mode: str | None = None, **options: Any) -> LearnerVectorEnv:
    """``num_envs`` games of ``game`` (a name with ``options``, e.g. ``map="usa"``, or a ``Game``),
    a learner in each against compiled ``opponents``; ``seed``: the first ``reset()``'s if it is
    given none; ``autoreset_mode``: ``SAME_STEP`` or ``NEXT_STEP``. See the module docstring."""
    return LearnerVectorEnv(make_game(game, options, players), num_envs, players, opponents, seat, reward,
                            illegal_reward, seed, autoreset_mode, render_mode)


def self_play_vector_env(game: str | Game | None = None, num_envs: int = 256, players: int = 4,
                         reward: str = "rank", illegal_reward: float = -1.0, seed: int | None = None,
                         autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
                         render_mode: str | None = None, **options: Any) -> SelfPlayVectorEnv:
    """``num_envs`` games of ``game``, every seat played by the caller (the self-play form)."""
    return SelfPlayVectorEnv(make_game(game, options, players), num_envs, players, reward, illegal_reward, seed,
                             autoreset_mode, render_mode)
