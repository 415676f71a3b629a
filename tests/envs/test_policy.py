"""The policy adapter (ttr_lab.strategies.policy): a policy function or a saved linear policy plays as a
strategy, through the strategy contract, on every game and variant."""

from __future__ import annotations

import numpy as np
import pytest

from games import VARIANTS
from ttr_lab.strategies.policy import LinearPolicy, PolicyPlayer
from ttr_lab.core.errors import ConfigError, StrategyError
from ttr_lab.core.play import play_game
from ttr_lab.core.testing import RandomPlayer, check_strategy

PER_VARIANT = pytest.mark.parametrize("variant", VARIANTS, ids=[v.id for v in VARIANTS])


def highest_legal_id(tensor: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[-1])


def random_linear(game, seed: int) -> LinearPolicy:
    policy = LinearPolicy.zeros(game)
    rng = np.random.default_rng(seed)
    policy.weights[:] = rng.normal(size=policy.weights.shape)
    policy.bias[:] = rng.normal(size=policy.bias.shape)
    return policy


@PER_VARIANT
def test_a_policy_function_passes_the_strategy_contract(variant):
    game = variant.game
    report = check_strategy(lambda: PolicyPlayer(highest_legal_id, game=game.name, options=game.options),
                            game=game, players=(game.min_players, game.max_players), seeds=(1,))
    assert report.decisions > 0


@PER_VARIANT
def test_a_saved_linear_policy_plays_the_game_it_was_trained_on(variant, tmp_path):
    game = variant.game
    path = random_linear(game, 3).save(tmp_path / "linear.npz")
    loaded = LinearPolicy.load(path)
    assert loaded.game == game.name and loaded.options == game.options
    check_strategy(lambda: PolicyPlayer(str(path)), game=game, players=(game.min_players,), seeds=(2,))


def test_the_player_chooses_what_the_policy_says():
    """Two different linear policies make different choices; the same one, the same record."""
    game = VARIANTS[0].game
    a, b = random_linear(game, 1), random_linear(game, 2)
    n = game.min_players
    record = play_game(game, [PolicyPlayer(a, game=game.name, options=game.options), RandomPlayer()][:n] +
                       [RandomPlayer()] * (n - 2), seed=5)
    again = play_game(game, [PolicyPlayer(a, game=game.name, options=game.options), RandomPlayer()][:n] +
                      [RandomPlayer()] * (n - 2), seed=5)
    other = play_game(game, [PolicyPlayer(b, game=game.name, options=game.options), RandomPlayer()][:n] +
                      [RandomPlayer()] * (n - 2), seed=5)
    assert record.actions == again.actions and record.actions != other.actions


def test_uniform_zero_policy_is_greedy_to_the_lowest_legal_id():
    game = VARIANTS[0].game
    state = game.new_game(game.min_players, 1)
    player = PolicyPlayer(LinearPolicy.zeros(game), game=game.name, options=game.options)
    legal = state.legal_actions()
    chosen = player.act(state.observation(state.current_player), legal, None)
    assert game.action_space.id_of(chosen) == min(game.action_space.ids(legal))


def test_an_illegal_choice_is_a_strategy_error():
    game = VARIANTS[0].game
    state = game.new_game(game.min_players, 1)
    player = PolicyPlayer(lambda t, m: int(np.flatnonzero(m == 0)[0]), game=game.name, options=game.options)
    with pytest.raises(StrategyError, match="not legal"):
        player.act(state.observation(state.current_player), state.legal_actions(), None)
    legal = int(np.flatnonzero(game.action_space.mask(state.legal_actions()))[0])
    for carrier in (np.int64(legal), np.array(legal)):  # what numpy policies return
        player = PolicyPlayer(lambda t, m, c=carrier: c, game=game.name, options=game.options)
        assert game.action_space.id_of(player.act(state.observation(state.current_player), state.legal_actions(), None)) == legal
    for bad in (legal + 0.5, float(legal), str(legal), None, 10**9):  # never truncated or parsed into an id
        player = PolicyPlayer(lambda t, m, b=bad: b, game=game.name, options=game.options)
        with pytest.raises(StrategyError, match="not an action id"):
            player.act(state.observation(state.current_player), state.legal_actions(), None)


@pytest.mark.parametrize("spec, says", [
    ("nowhere.npz", "cannot read a linear policy"),
    ("no_colon_here", "neither a .npz file"),
    ("no_such_module:f", "No module named"),
    ("json:__doc__", "not callable"),
])
def test_bad_policies_are_config_errors(spec, says):
    with pytest.raises(ConfigError, match=says):
        PolicyPlayer(spec, game="trans_orient")


def test_a_torchscript_policy_file_plays_as_a_policy_player(tmp_path):
    torch = pytest.importorskip("torch", reason="torch is not installed (a .pt policy needs it)")
    from ttr_lab.core.game import load_game
    from ttr_lab.strategies.policy import PolicyPlayer

    game = load_game("trans_orient")
    (dim,) = tuple(game.observation_shape)
    net = torch.nn.Linear(dim, game.action_space.size)
    path = tmp_path / "policy.pt"
    torch.jit.save(torch.jit.script(net), str(path))
    player = PolicyPlayer(str(path), game="trans_orient")
    state = game.new_game(2, 1)
    for _ in range(20):
        legal = state.legal_actions()
        assert player.act(state.observation(state.current_player), legal, None) in legal
        state.apply(legal[0])


def test_a_saved_linear_policy_carries_its_layout_digest_and_another_layout_is_refused(tmp_path):
    """The one weights format: a linear policy's file holds the game's layout digest, and a file
    whose digest is not the game's is refused in one line naming the file, whatever its shape."""
    import json

    from ttr_lab.strategies import weights

    game = VARIANTS[0].game
    path = random_linear(game, 4).save(tmp_path / "linear.npz")
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
    assert meta["kind"] == "linear" and meta["digest"] == weights.digest(game) and meta["format"] == weights.FORMAT
    other = dict(meta, digest="0123456789abcdef")
    policy = LinearPolicy.load(path)
    weights.save(tmp_path / "other.npz", {"weights": policy.weights, "bias": policy.bias}, other)
    with pytest.raises(ConfigError, match=r"^\S*other.npz: trained on .*\(layout 0123456789abcdef\), not on "):
        PolicyPlayer(str(tmp_path / "other.npz"))


def test_a_linear_policy_file_of_0_2_still_loads_and_is_saved_again_with_its_digest(tmp_path):
    """Files written before the one format (weights, bias and a meta of the game alone) play as
    they did, checked by their shape; saving one again writes the digest."""
    import json

    from ttr_lab.strategies import weights

    game = VARIANTS[0].game
    policy = random_linear(game, 5)
    with open(tmp_path / "old.npz", "wb") as f:  # as 0.2's LinearPolicy.save wrote it
        np.savez_compressed(f, weights=policy.weights, bias=policy.bias,
                            meta=np.array(json.dumps({"game": game.name, "options": game.options})))
    loaded = LinearPolicy.load(tmp_path / "old.npz")
    assert loaded.digest is None and np.array_equal(loaded.weights, policy.weights)
    check_strategy(lambda: PolicyPlayer(str(tmp_path / "old.npz")), game=game, players=(game.min_players,), seeds=(2,))
    with np.load(loaded.save(tmp_path / "again.npz")) as data:
        assert json.loads(str(data["meta"]))["digest"] == weights.digest(game)


def test_a_network_file_given_as_a_linear_policy_says_what_it_holds(tmp_path):
    from ttr_lab.core.game import load_game
    from ttr_lab.strategies.network import Network

    game = load_game("ticket_to_ride", map="usa")
    Network.initial(game, hidden=4, seed=1).save(tmp_path / "net.npz")
    with pytest.raises(ConfigError, match=r"^\S*net.npz holds network weights, not a linear policy$"):
        PolicyPlayer(str(tmp_path / "net.npz"))
    LinearPolicy.zeros(game).save(tmp_path / "linear.npz")
    with pytest.raises(ConfigError, match=r"^\S*linear.npz holds a linear policy, not network weights$"):
        Network.load(tmp_path / "linear.npz")
