"""The RL environments (ttr_lab.envs) on every game and variant: the Farama API checkers
(pettingzoo's api_test and seed_test, gymnasium's check_env), then what they cannot know: the
rewards match the game's outcome, masks match the legal actions, forfeits, seats, bad options."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from games import VARIANTS
from ttr_lab.core.errors import ConfigError

pytest.importorskip("pettingzoo", reason="the [rl] extra (pettingzoo) is not installed")
pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from ttr_lab.envs import gym_env, pettingzoo_env  # noqa: E402

CASES = [pytest.param(v, n, id=f"{v.id}-{n}p") for v in VARIANTS
         for n in sorted({v.game.min_players, v.game.max_players})]
PER_VARIANT = pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])


@pytest.fixture(autouse=True)
def _quiet_checkers():
    # The checkers warn about choices made on purpose: a dict observation (PettingZoo's
    # action-mask convention) and an unbounded Box (counts have no fixed ceiling).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def play_masked(env, seed: int) -> dict[str, float]:
    """Random masked play of one whole game; returns the cumulative rewards when it ends."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents
    return totals


@pytest.mark.parametrize("variant, n", CASES)
def test_pettingzoo_api(variant, n):
    api_test(pettingzoo_env(variant.name, players=n, **variant.options), num_cycles=15)


@PER_VARIANT
def test_pettingzoo_seed(variant):
    seed_test(lambda: pettingzoo_env(variant.name, players=variant.game.min_players, **variant.options), num_cycles=15)


@pytest.mark.parametrize("variant, n", CASES)
def test_gymnasium_check_env(variant, n):
    check_env(gym_env(variant.name, players=n, opponents=["random"], **variant.options), skip_render_check=True)


@PER_VARIANT
def test_a_whole_game_rewards_the_outcome(variant):
    """Rank rewards are the outcome's win shares (sum 1); margins are score minus best other."""
    n = variant.game.min_players
    for reward in ("rank", "margin"):
        env = pettingzoo_env(variant.name, players=n, reward=reward, **variant.options)
        totals = play_masked(env, seed=5)
        outcome = env.table.state.outcome()
        scores = [p.score for p in outcome.players]
        for seat, agent in enumerate(env.possible_agents):
            expected = (outcome.win_shares()[seat] if reward == "rank"
                        else scores[seat] - max(s for i, s in enumerate(scores) if i != seat))
            assert totals[agent] == pytest.approx(expected)
        if reward == "rank":
            assert sum(totals.values()) == pytest.approx(1.0)


def test_the_mask_is_the_legal_actions_and_only_for_the_player_to_move():
    env = pettingzoo_env("ticket_to_ride", players=3, map="usa")
    env.reset(seed=3)
    state, space = env.table.state, env.table.game.action_space
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        if agent == env.agent_selection:
            assert sorted(np.flatnonzero(mask)) == sorted(space.ids(state.legal_actions()))
        else:
            assert not mask.any()
    assert env.agent_selection == f"player_{state.current_player}"


def test_an_illegal_id_is_a_forfeit():
    env = pettingzoo_env("trans_orient", players=3)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    offender = env.agent_selection
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0 and sum(env.rewards.values()) == -1.0
    assert env.infos[offender]["forfeit_by"] == offender

    for bad in (10**30, -1):  # integers, not ids of the game: forfeits too, not tracebacks
        env.reset(seed=2)
        env.step(bad)
        assert all(env.terminations.values()) and sum(env.rewards.values()) == -1.0

    # A legal id is played whatever integer type carries it; the same number as a float, a
    # string, a bool or a list is not an integer at all: refused in one line (as the vector env
    # refuses such actions), the game unchanged (a float output is never truncated into an id).
    env.reset(seed=2)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    for carrier in (legal, np.int64(legal), np.int32(legal), np.array(legal)):
        env.reset(seed=2)
        env.step(carrier)
        assert not any(env.terminations.values()), type(carrier)
    env.reset(seed=2)
    for bad in (float(legal), legal + 0.5, str(legal), np.float32(legal), [legal], np.array([legal]), bool(legal),
                None, "abc"):
        with pytest.raises(ConfigError, match=r"^an action must be one integer id .*, not ") as refused:
            env.step(bad)
        assert "\n" not in str(refused.value) and not any(env.terminations.values()), repr(bad)
    env.step(legal)  # the game goes on
    assert not any(env.terminations.values())

    single = gym_env("trans_orient", players=2, opponents=["random"], illegal_reward=-2.0)
    with pytest.raises(ConfigError, match=r"^step\(\) before reset\(\)"):
        single.step(0)
    with pytest.raises(ConfigError, match=r"^step\(\) before reset\(\)"):
        pettingzoo_env("trans_orient", players=2).step(0)
    _, info = single.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for bad in (np.array([legal]), np.float32(legal), str(legal), None):
        with pytest.raises(ConfigError, match=r"^an action must be one integer id"):
            single.step(bad)
    _, reward, terminated, _, info = single.step(np.array(legal))  # a 0-d integer array is an id
    assert reward == 0.0 and not terminated and "illegal_action" not in info
    _, reward, terminated, _, info = single.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert terminated and reward == -2.0 and info["illegal_action"]
    with pytest.raises(ConfigError):
        single.step(0)


@PER_VARIANT
def test_gym_learner_plays_to_the_end_against_strategies(variant):
    n = variant.game.min_players
    env = gym_env(variant.name, players=n, opponents=["random"], seat="rotate", **variant.options)
    rng = np.random.default_rng(0)
    seats = []
    for episode in range(n):
        obs, info = env.reset(seed=9) if episode == 0 else env.reset()
        seats.append(info["seat"])
        steps, terminated = 0, False
        while not terminated:
            assert env.table.to_move == info["seat"] and obs.shape == env.observation_space.shape
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        assert reward == pytest.approx(env.table.state.outcome().win_shares()[info["seat"]])
        assert not info["action_mask"].any()
    assert seats == list(range(n)), "rotate seats the learner at every seat in turn"
    fixed = gym_env(variant.name, players=n, opponents=["random"], seat=1, **variant.options)
    assert fixed.reset(seed=3)[1]["seat"] == 1 and fixed.reset()[1]["seat"] == 1


def test_the_same_seed_replays_the_same_episode():
    def run():
        env = gym_env("ticket_to_ride", players=2, opponents=["random"], map="legendary_asia")
        obs, info = env.reset(seed=4)
        out = [obs]
        for _ in range(30):
            obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            out.append(obs)
            if terminated:
                break
        return np.stack(out)

    assert np.array_equal(run(), run())


def test_render_as_text_and_picture():
    env = pettingzoo_env("ticket_to_ride", players=2, map="usa", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "player_0" in text and "market" in text
    picture = pettingzoo_env("trans_orient", players=2, render_mode="rgb_array")
    picture.reset(seed=2)
    image = picture.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3 and image.std() > 0
    single = gym_env("ticket_to_ride", players=2, opponents=["random"], map="usa", render_mode="ansi")
    single.reset(seed=2)
    assert "learner" in single.render()


@pytest.mark.parametrize("make, kwargs, says", [
    (pettingzoo_env, {"game": "no_such_game"}, "unknown game"),
    (pettingzoo_env, {"game": "ticket_to_ride", "players": 9}, "not 9"),
    (pettingzoo_env, {"game": "trans_orient", "players": 1}, "not 1"),
    (pettingzoo_env, {"game": "trans_orient", "map": "usa"}, "takes the options"),
    (pettingzoo_env, {"game": "trans_orient", "reward": "points"}, "reward 'points'"),
    (pettingzoo_env, {"game": "trans_orient", "render_mode": "human"}, "render_mode"),
    (gym_env, {"game": "trans_orient", "players": 2, "seat": 2}, "seat"),
    (gym_env, {"game": "trans_orient", "players": 2, "opponents": ["no_such_strategy"]}, "no_such_strategy"),
    (gym_env, {"game": "ticket_to_ride", "players": 2, "opponents": [{"strategy": "mcts", "params": {"bogus": 1}}]},
     "no parameter 'bogus'"),
    (gym_env, {"game": "ticket_to_ride", "players": 2, "opponents": [{"strategy": "mcts", "params": {"steps": -5}}]},
     "steps: Input should be greater than 0"),
    (gym_env, {"game": "ticket_to_ride", "players": 2, "opponents": [{"strategy": "random", "params": 3}]},
     "params: Input should be a valid dictionary"),
    (gym_env, {"game": "ticket_to_ride", "players": 2, "opponents": [{"strat": "random"}]}, "neither a name"),
    (gym_env, {"game": "ticket_to_ride", "players": 2, "opponents": [7]}, "neither a name"),
])
def test_bad_options_are_one_line_errors(make, kwargs, says):
    with pytest.raises(ConfigError) as error:
        make(**kwargs)
    assert says in str(error.value) and "\n" not in str(error.value)


@PER_VARIANT
def test_a_copied_or_pickled_env_plays_on_like_the_original(variant):
    """Libraries copy environments (vector envs, search over env copies): a copy made mid-game,
    by deepcopy or pickle, observes and plays exactly as the original from there, and its
    tensors are its own position's (the per-seat tensor writers start afresh in a copy)."""
    import copy
    import pickle
    import random

    def step(e, choice=None):
        obs = e.observe(e.agent_selection)
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[(choice if choice is not None else rng.randrange(len(legal))) % len(legal)])
        e.step(action)
        return obs

    def fresh():
        env = pettingzoo_env(variant.name, players=variant.game.min_players, **variant.options)
        env.reset(seed=5)
        return env, random.Random(5)

    env, rng = fresh()  # a dry run: how long the episode is, so the copy is made before its end
    length = 0
    while not env.terminations[env.agent_selection]:
        step(env)
        length += 1
    env, rng = fresh()
    for _ in range(min(30, length // 2)):
        step(env)
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for _ in range(60):
        if env.terminations[env.agent_selection]:
            break
        choice = rng.randrange(1000)
        table = env.table
        expected = table.game.observation_tensor(table.state.observation(table.to_move))
        seen = [step(e, choice) for e in [env, *copies]]
        for obs in seen:
            assert np.array_equal(obs["observation"], expected)
            assert np.array_equal(obs["action_mask"], seen[0]["action_mask"])


def test_opponents_take_parameters_as_tournament_entrants_do():
    """``{"strategy": name, "params": {...}}`` builds the opponent with those parameters, fresh
    each episode; a bare name or a single spec works too; the list fills the seats in order."""
    env = gym_env("ticket_to_ride", map="usa", players=3, seat=0,
                  opponents=[{"name": "cheap", "strategy": "mcts", "params": {"steps": 20}}, "random"])
    env.reset(seed=1)
    first = env._seats[1]
    assert type(first).__name__ == "MCTS" and first.limit.steps == 20 and type(env._seats[2]).__name__ == "Random"
    env.reset()
    assert env._seats[1] is not first and env._seats[1].limit.steps == 20  # built afresh
    single = gym_env("trans_orient", players=2, opponents="greedy", seat=0)
    single.reset(seed=1)
    assert type(single._seats[1]).__name__ == "Greedy"


def test_an_env_naming_no_game_is_the_house_games_and_openspiel_folds_its_map_shorthand():
    from ttr_lab.envs import gym_env, pettingzoo_env
    from ttr_lab.envs.openspiel import _DEFAULTS, _load
    from ttr_lab.games import DEFAULT

    assert pettingzoo_env(players=2).table.game.name == DEFAULT
    assert gym_env(players=2).unwrapped.table.game.name == DEFAULT
    # OpenSpiel's parameters: "" for the house game, and the map shorthand of the game declaring it.
    assert _load(dict(_DEFAULTS)).name == DEFAULT
    assert _load({**_DEFAULTS, "map": "legendary_asia"}).options["map"] == "legendary_asia"
    with pytest.raises(ConfigError, match="map: game 'trans_orient' declares no config shorthand 'map'"):
        _load({**_DEFAULTS, "game": "trans_orient", "map": "usa"})
