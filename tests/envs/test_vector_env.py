"""The batched vector envs against the per-game envs, same seeds: the learner form against a
``Table`` (what ``gym_env`` and ``pettingzoo_env`` hand out: tensors, masks, rewards) whose
opponents replay the compiled random policy restated in Python, and the self-play form against
``pettingzoo_env`` dealt the same games; plus seeding, autoreset, forfeits and bad options."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")

from gymnasium.vector import AutoresetMode  # noqa: E402

from ttr_lab.core.errors import ConfigError  # noqa: E402
from ttr_lab.core.game import load_game  # noqa: E402
from ttr_lab.core.rng import GOLDEN, MASK, STRATEGY_KEY, derive_seed, mix64  # noqa: E402
from ttr_lab.envs import pettingzoo_env, self_play_vector_env, vector_env  # noqa: E402
from ttr_lab.envs.table import Table  # noqa: E402
from ttr_lab.strategies.ticket_to_ride.greedy import Greedy  # noqa: E402
from ttr_lab.strategies.ticket_to_ride.planner_decisions import choose_id  # noqa: E402


def _next_below(state: int, bound: int) -> tuple[int, int]:
    """The compiled random opponent's draw, restated with the engine's Python generator."""
    state = (state + GOLDEN) & MASK
    return state, (mix64(state) * bound) >> 64


class Mirror:
    """One sub-game replayed in Python: its Table, the learner's seat, the opponents' stream."""

    def __init__(self, game, players, seed, seat, reward, opponents="random"):
        self.opponents = opponents
        self.table = Table(game, players, reward)
        self.table.new_game(seed)
        self.seat = seat
        self.rng = derive_seed(seed, STRATEGY_KEY)
        self.opponents_play()

    def opponents_play(self):
        table = self.table
        while not table.over and table.to_move != self.seat:
            if self.opponents == "planner":  # the compiled planner, as its strategy plays it
                assert table.apply_id(choose_id(table.state))
                continue
            if self.opponents == "greedy":  # the Python Greedy, fresh at every decision
                state = table.state
                table.apply(Greedy().act(state.observation(state.current_player), state.legal_actions(),
                                         random.Random(0)))
                continue
            ids = table.state.legal_action_ids()
            self.rng, pick = _next_below(self.rng, len(ids))
            assert table.apply_id(ids[pick])


def _random_ids(masks, rng):
    return np.array([rng.choice(np.flatnonzero(row).tolist()) for row in masks])


# A game name below that is no map: the USA map with train stations on.
_GAMES = {"usa+stations": {"map": "usa", "ruleset": {"stations_per_player": 3}}}


@pytest.mark.parametrize("map_name,players,reward,opponents", [
    ("usa", 4, "rank", "random"), ("legendary_asia", 2, "margin", "random"), ("usa", 5, "rank", "random"),
    ("usa", 3, "margin", "planner"), ("usa", 2, "rank", "greedy"), ("legendary_asia", 4, "margin", "greedy"),
    ("europe", 2, "margin", "random"), ("europe", 5, "rank", "planner"),
    ("india", 4, "margin", "greedy"), ("india", 3, "rank", "planner"),
    ("usa+stations", 3, "rank", "random"), ("usa+stations", 2, "margin", "planner"),
    ("usa+stations", 4, "rank", "greedy")])
def test_the_learner_env_plays_the_per_game_env_s_games(map_name, players, reward, opponents):
    game = load_game("ticket_to_ride", **_GAMES.get(map_name, {"map": map_name}))
    n = 3
    env = vector_env(game, num_envs=n, players=players, reward=reward, opponents=opponents)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=11)
    games = [0] * n
    mirrors = [Mirror(game, players, derive_seed(derive_seed(11, i), 0), i % players, reward, opponents)
               for i in range(n)]
    rng = random.Random(0)
    ended_games = forfeits = 0
    for step in range(260):
        teacher = env.planner_actions()
        for i, mirror in enumerate(mirrors):
            assert teacher[i] == choose_id(mirror.table.state)
            assert info["seat"][i] == mirror.seat
            assert np.array_equal(obs[i], mirror.table.tensor(mirror.seat)), (step, i)
            assert np.array_equal(info["action_mask"][i], mirror.table.mask(mirror.seat).astype(bool)), (step, i)
        assert env.observation_space.contains(obs) and np.array_equal(env.action_masks(), info["action_mask"])
        actions = _random_ids(info["action_mask"], rng)
        if step == 40:  # an id that is not legal: sub-game 1 forfeits
            actions[1] = int(np.flatnonzero(~info["action_mask"][1])[0])
        for i, mirror in enumerate(mirrors):
            if mirror.table.apply_id(int(actions[i])):
                mirror.opponents_play()
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, mirror in enumerate(mirrors):
            table = mirror.table
            assert terminated[i] == table.over, (step, i)
            if not table.over:
                assert rewards[i] == 0.0
                continue
            ended_games += 1
            assert info["_final_obs"][i] and np.array_equal(info["final_obs"][i], table.tensor(mirror.seat))
            assert rewards[i] == table.rewards()[mirror.seat]
            forfeit = table.forfeit_by is not None
            forfeits += forfeit
            assert info["final_info"][i]["illegal_action"] == forfeit and info["final_info"][i]["seat"] == mirror.seat
            assert not info["final_info"][i]["action_mask"].any()
            games[i] += 1
            assert env.game_seed(i) == derive_seed(derive_seed(11, i), games[i])
            mirrors[i] = Mirror(game, players, env.game_seed(i), (i + games[i]) % players, reward, opponents)
    assert ended_games >= 3 and forfeits == 1


def test_the_self_play_env_deals_and_plays_the_pettingzoo_env_s_games():
    players, n = 3, 2
    env = self_play_vector_env("ticket_to_ride", num_envs=n, players=players, reward="margin", map="usa")
    obs, info = env.reset(seed=[5, 6])
    assert env.game_seed(0, 0) == derive_seed(5, 0)
    games = [0] * n
    zoos = []

    def deal(i):
        zoo = pettingzoo_env("ticket_to_ride", players=players, reward="margin", map="usa")
        zoo._seeds.getrandbits = lambda bits, seed=env.game_seed(i): seed  # the sub-game's game seed
        zoo.reset()
        return zoo

    zoos = [deal(i) for i in range(n)]
    rng = random.Random(1)
    ended = 0
    for step in range(700):
        for i, zoo in enumerate(zoos):
            seat = zoo._seat[zoo.agent_selection]
            assert info["to_move"][i] == seat
            seen = zoo.observe(zoo.agent_selection)
            assert np.array_equal(obs[i], seen["observation"]), (step, i)
            assert np.array_equal(info["action_mask"][i], seen["action_mask"].astype(bool)), (step, i)
        actions = _random_ids(info["action_mask"], rng)
        for i, zoo in enumerate(zoos):
            zoo.step(int(actions[i]))
        obs, rewards, terminated, _, info = env.step(actions)
        for i, zoo in enumerate(zoos):
            assert terminated[i] == bool(zoo.terminations[zoo.agent_selection]), (step, i)
            if terminated[i]:
                ended += 1
                final = [zoo.rewards[agent] for agent in zoo.possible_agents]
                assert info["_returns"][i] and info["returns"][i].tolist() == final
                mover = info["final_info"][i]["mover"]
                assert zoo._seat[zoo.agent_selection] == mover and rewards[i] == final[mover]
                games[i] += 1
                zoos[i] = deal(i)
    assert ended >= 1


def test_seeds_make_the_same_games_and_reset_moves_on():
    env = vector_env(num_envs=4, players=2, seed=3)
    first, _ = env.reset()
    again, _ = env.reset(seed=3)
    assert np.array_equal(first, again)
    moved, _ = env.reset()
    assert not np.array_equal(first, moved)
    other, _ = vector_env(num_envs=4, players=2, seed=3).reset()
    assert np.array_equal(first, other)
    assert not np.array_equal(first[0], first[1])  # every sub-game its own deal
    kept, info = env.reset(seed=3)
    kept_mask, copy, mask_copy = info["action_mask"], kept.copy(), info["action_mask"].copy()
    env.step(np.argmax(info["action_mask"], axis=1))
    assert np.array_equal(kept, copy) and np.array_equal(kept_mask, mask_copy)  # what was handed out stays


def test_seats_rotate_over_the_batch_or_stay():
    assert vector_env(num_envs=5, players=4, seed=1).reset()[1]["seat"].tolist() == [0, 1, 2, 3, 0]
    assert vector_env(num_envs=3, players=4, seat=2, seed=1).reset()[1]["seat"].tolist() == [2, 2, 2]


def test_bad_options_and_actions_are_refused():
    with pytest.raises(ConfigError, match="no compiled rules"):
        vector_env("trans_orient", players=2)
    with pytest.raises(ConfigError, match="opponents"):
        vector_env(opponents="mcts")  # a Python strategy cannot play inside the native call
    with pytest.raises(ConfigError, match="num_envs"):
        vector_env(num_envs=0)
    with pytest.raises(ConfigError, match="reward"):
        self_play_vector_env(reward="score")
    with pytest.raises(ConfigError, match="seat"):
        vector_env(players=3, seat=3)
    env = vector_env(num_envs=2, players=2, seed=0)
    with pytest.raises(ConfigError, match=r"^step\(\) before reset\(\)"):  # not a game of zeros
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ConfigError, match=r"^step\(\) before reset\(\)"):
        self_play_vector_env(num_envs=2, players=2).step(np.zeros(2, dtype=np.int64))
    env.reset()
    with pytest.raises(ConfigError, match="2 integer ids"):
        env.step(np.zeros(2, dtype=np.float32))
    with pytest.raises(ConfigError, match="2 integer ids"):
        env.step([0, 0, 0])
    with pytest.raises(ConfigError, match="2 integer ids"):
        env.step([[0], [1, 2]])  # ragged: still the one line
    with pytest.raises(ConfigError, match="one per sub-game"):
        env.reset(seed=[1, 2, 3])
    with pytest.raises(ConfigError, match="one per sub-game"):
        env.reset(seed=True)
