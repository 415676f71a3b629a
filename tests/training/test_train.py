"""``ttr-lab train``'s loop on a tiny network: it runs, it resumes to the very state of an
uninterrupted run, its gradients are the loss's, and its config mistakes are one line."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from ttr_lab.cli import app
from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import load_game
from ttr_lab.strategies.ticket_to_ride.learned import market_slots
from ttr_lab.strategies.network import PARAMS, Network
from ttr_lab.training import load_config, train
from ttr_lab.training.backprop import gradients

TINY = """name: tiny
map: usa
players: 2
seed: 3
hidden: 8
iterations: 2
teacher_decay: 1.0
envs: 2
steps: 4
epochs: 1
batch: 32
judge_every: 1
judge_games: 2
judge_opponents: [greedy]
"""


def _config(tmp_path, name="run", extra="", **overrides):
    path = tmp_path / f"{name}.yaml"
    path.write_text(TINY + f"output: {tmp_path / name}\n" + extra)
    return load_config(path, overrides)


def test_a_few_steps_train_judge_and_write_the_curve(tmp_path):
    lines = []
    run = train(_config(tmp_path), say=lines.append)
    out = tmp_path / "run"
    assert run.iterations == 2 and len(run.curve) == 2  # judged at each iteration
    assert {"checkpoint.npz", "network.npz", "network-0001.npz", "curve.csv", "curve.png"} <= {p.name for p in out.iterdir()}
    assert sum(line.startswith("iteration ") for line in lines) == 2
    row = run.curve[0]
    assert row["opponent"] == "greedy" and row["games"] == 2 and row["low"] <= row["win_share"] <= row["high"]
    Network.load(out / "network.npz", load_game("ticket_to_ride", map="usa"))  # playable by `learned`


# Expert iteration at its smallest: one searched self-play game per iteration, 4 search
# iterations per decision, the planning features, two iterations' samples fitted together.
EXPERT = "method: expert_iteration\ngames: 1\nsearch_iterations: 4\nfeatures: plan-v1\nreplay: 2\n"


def test_expert_iteration_fits_the_searchs_visits_and_judges(tmp_path):
    lines = []
    run = train(_config(tmp_path, extra=EXPERT, iterations=1), say=lines.append)
    assert run.iterations == 1 and len(run.curve) == 1 and run.curve[0]["games"] == 2
    # Every phase says it has begun: a fresh checkout's first iteration compiles for minutes.
    assert lines[0].startswith("starting iteration 1/1, into ")
    assert lines[1].startswith("iteration 1/1: ") and "(1 searched games)" in lines[1] and "agrees with the search" in lines[1]
    assert lines[2].startswith("  judging iteration 1: 2 games against each of ")
    net = Network.load(tmp_path / "run" / "network.npz", load_game("ticket_to_ride", map="usa"))
    assert net.meta["features"] == "plan-v1" and net.obs_dim > 708


def test_expert_iteration_starts_from_init_weights_that_fit(tmp_path):
    train(_config(tmp_path, "first", extra=EXPERT, judge_games=0), say=lambda _: None, stop_after=0)
    first = tmp_path / "first" / "network.npz"
    later = _config(tmp_path, "later", extra=EXPERT + f"init: {first}\n", judge_games=0, iterations=1)
    assert train(later, say=lambda _: None, stop_after=0).net.params["w1"].tolist() == \
        Network.load(first).params["w1"].tolist()
    with pytest.raises(ConfigError, match="not 8 and none"):
        train(_config(tmp_path, "bad", extra=f"init: {first}\n", judge_games=0), say=lambda _: None)


@pytest.mark.parametrize("extra", ["", EXPERT], ids=["imitation", "expert_iteration"])
def test_a_killed_run_resumes_to_the_state_of_an_uninterrupted_one(tmp_path, extra):
    whole = train(_config(tmp_path, "whole", extra=extra, judge_games=0), say=lambda _: None)  # unjudged: quicker
    cfg = _config(tmp_path, "killed", extra=extra, judge_games=0)
    train(cfg, say=lambda _: None, stop_after=1)  # as if killed after the first checkpoint
    lines = []
    resumed = train(cfg, say=lines.append)
    assert lines[0].startswith("resuming tiny after iteration 1 of 2")
    assert sum(line.startswith("iteration ") for line in lines) == 1
    for name in PARAMS:
        assert np.array_equal(whole.net.params[name], resumed.net.params[name]), name


def test_a_checkpoint_of_other_settings_is_refused(tmp_path):
    train(_config(tmp_path, judge_games=0), say=lambda _: None, stop_after=1)
    with pytest.raises(ConfigError, match="other settings \\(lr\\)"):
        train(_config(tmp_path, extra="lr: 0.01\n", judge_games=0), say=lambda _: None)


def test_the_gradients_are_the_losss():
    game = load_game("ticket_to_ride", map="usa")
    net = Network.initial(game, hidden=4, seed=1, slots=market_slots(game))
    rng = np.random.default_rng(0)
    for name in ("wp", "wv"):  # zero heads would hide the trunk's gradients
        net.params[name][:] = rng.normal(0, 0.5, net.params[name].shape)
    obs = rng.random((3, net.obs_dim)).astype(np.float32)
    masks = rng.random((3, net.n_actions)) < 0.01
    masks[:, 0] = True
    masks[:, net.slot_ids] = True
    markets = np.array([[0, 0, 3, 8, -1], [1, 2, 3, 4, 5], [8, 8, 8, 0, 1]])
    targets = np.zeros((3, net.n_actions), np.float32)
    targets[np.arange(3), [0, 0, 0]] = 1.0
    outcomes, known = np.array([1.0, 0.0, 0.5], np.float32), np.array([True, True, False])

    def loss() -> float:
        _, losses = gradients(net, obs, masks, markets, targets, outcomes, known, 0.5)
        return losses.policy + 0.5 * losses.value * known.sum() / 3

    targets[1] = 0.0
    targets[1, net.slot_ids[2]] = 1.0  # a market draw: its gradient reaches the kind in that slot (3)
    grads, _ = gradients(net, obs, masks, markets, targets, outcomes, known, 0.5)
    kind_3, kind_8 = (0, net.n_actions + 3), (1, net.n_actions + 8)
    for name, index in (("w1", (5, 2)), ("b2", (1,)), ("wp", (0, 0)), ("bp", kind_3[1:]), ("wp", kind_8),
                        ("bv", (0,))):
        saved = float(net.params[name][index])
        net.params[name][index] = saved + 1e-2
        up = loss()
        net.params[name][index] = saved - 1e-2
        down = loss()
        net.params[name][index] = saved
        assert (up - down) / 2e-2 == pytest.approx(float(grads[name][index]), rel=0.05, abs=1e-4), name


def test_train_config_mistakes_are_one_line_errors(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(TINY + "opponents: [mcts]\n")
    result = CliRunner().invoke(app, ["train", str(path)])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and result.output.count("\n") == 1 and "opponents.0" in result.output


def test_a_second_run_into_the_folder_is_refused_naming_the_first(tmp_path):
    from ttr_lab.tournament.lock import FolderLock

    cfg = _config(tmp_path, judge_games=0)
    (tmp_path / "run").mkdir()
    with FolderLock(tmp_path / "run", "ttr-lab train tiny"):
        with pytest.raises(ConfigError, match="in use by another run \\(ttr-lab train tiny, pid"):
            train(cfg, say=lambda _: None)


# Imitation of the ticket_planner strategy itself, reading the plan it keeps.
KEPT = "features: kept-plan-v1\nteacher: ticket_planner\n"


def test_imitating_the_ticket_planner_with_its_kept_plan_trains_judges_and_plays(tmp_path):
    import random

    from ttr_lab.strategies.ticket_to_ride.learned import Learned

    run = train(_config(tmp_path, extra=KEPT, iterations=1), say=lambda _: None)
    assert len(run.curve) == 1 and run.curve[0]["games"] == 2
    path = tmp_path / "run" / "network.npz"
    assert Network.load(path).meta["features"] == "kept-plan-v1"
    state = load_game("ticket_to_ride", map="usa").new_game(2, 0)
    player = Learned(weights=str(path))
    for _ in range(3):
        state.apply(player.act(state.observation(state.current_player), state.legal_actions(), random.Random(0)))


# Expert iteration with the halving race as the teacher and the network as its prior.
HALVING = EXPERT.replace("features: plan-v1\n", "features: kept-offers-v1\nsearch: halving\n")


def test_the_races_samples_are_what_its_prior_read_whatever_the_workers(tmp_path):
    import random

    from ttr_lab.core.rng import derive_seed
    from ttr_lab.strategies.ticket_to_ride.learned import Learned
    from ttr_lab.training.ticket_to_ride import expert
    from ttr_lab.training.ticket_to_ride.imitation import initial_network

    cfg = _config(tmp_path, extra=HALVING.replace("games: 1", "games: 2"))
    game = load_game("ticket_to_ride", map="usa")
    net = initial_network(game, cfg)
    one = expert.collect(net, game, cfg, 0)
    two = expert.collect(net, game, cfg.model_copy(update={"workers": 2}), 0)
    for name in ("obs", "masks", "markets", "teacher", "outcomes", "targets"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
    # Game 0 replayed with its moves: every row is what the seat's prior read then, kept plan and all.
    state = game.new_game(2, derive_seed(cfg.seed, expert.COLLECT_KEY, 0, 0))
    seats = [Learned.of(net, game) for _ in range(2)]
    row = 0
    while not state.is_terminal():
        p = state.current_player
        seats[p].logits(state.observation(p), state.legal_actions())
        assert np.array_equal(one.obs[row], seats[p].last_inputs), row
        state.apply(game.action_space.action_of(int(one.teacher[row])))
        row += 1
    assert row < len(one.teacher) and one.obs.shape[1] > 708


def test_halving_expert_iteration_trains_and_judges(tmp_path):
    lines = []
    run = train(_config(tmp_path, extra=HALVING, iterations=1), say=lines.append)
    assert len(run.curve) == 1 and "(1 searched games)" in lines[1]
    assert Network.load(tmp_path / "run" / "network.npz").meta["features"] == "kept-offers-v1"


@pytest.mark.parametrize("extra, message", [
    (EXPERT.replace("features: plan-v1\n", "features: kept-plan-v1\n"), "kept-plan-v1 needs search: halving"),
    (HALVING + "search_value_mix: 0.5\n", "search_value_mix is for search: tree"),
    ("teacher_knobs: {plan_budget: 0.7}\n", "teacher_knobs are for teacher: ticket_planner"),
    (KEPT + "teacher_knobs: {route_weight: 1.0}\n", "route_weight would change the teacher's plan"),
    (KEPT + "teacher_knobs: {plan_budjet: 0.7}\n", "unknown planner knob"),
])
def test_kept_plan_and_teacher_mistakes_are_one_line(tmp_path, extra, message):
    with pytest.raises(ConfigError, match=message):
        _config(tmp_path, extra=extra)


def test_a_checkpoint_from_before_the_teacher_key_resumes(tmp_path):
    import json

    cfg = _config(tmp_path, judge_games=0)
    train(cfg, say=lambda _: None, stop_after=1)
    ckpt = tmp_path / "run" / "checkpoint.npz"
    with np.load(ckpt) as data:
        arrays = {k: data[k] for k in data.files}
    state = json.loads(str(arrays["state"]))
    del state["config"]["teacher"]  # as a run checkpointed before the key existed
    arrays["state"] = np.array(json.dumps(state))
    np.savez(ckpt, **arrays)
    lines = []
    train(cfg, say=lines.append)
    assert lines[0].startswith("resuming tiny after iteration 1 of 2")


# The strongest search's own games teach a network over the tensor alone (mcts_tree's leaf value).
OWN_GAMES = HALVING.replace("features: kept-offers-v1\n", "") + "prior: learned\nvalue_target: lead\nlead_scale: 8\n"


def test_a_fixed_prior_plays_the_race_and_the_value_learns_the_lead(tmp_path):
    import math
    import random

    from ttr_lab.core.rng import derive_seed
    from ttr_lab.strategies.ticket_to_ride.search.mcts_halving import HalvingSearch
    from ttr_lab.strategies.ticket_to_ride.learned import Learned, shipped_weights
    from ttr_lab.training.ticket_to_ride import expert
    from ttr_lab.training.ticket_to_ride.imitation import initial_network

    cfg = _config(tmp_path, extra=OWN_GAMES)
    game = load_game("ticket_to_ride", map="usa")
    net = initial_network(game, cfg)
    got = expert.collect(net, game, cfg, 0)
    # Game 0 replayed by mcts_learned's race with the shipped prior: the same moves, and every row
    # is the mover's own tensor (what the network being trained reads), not the prior's inputs.
    seed = derive_seed(cfg.seed, expert.COLLECT_KEY, 0, 0)
    state, rng = game.new_game(2, seed), random.Random(seed)
    shipped = Network.load(shipped_weights("usa"), game)
    seats = [HalvingSearch(iterations=cfg.search_iterations, policy=Learned.of(shipped, game)) for _ in range(2)]
    movers = []
    for row in range(len(got.teacher)):
        p = state.current_player
        assert np.array_equal(got.obs[row], state.observation_tensor(p)), row
        action = seats[p].act(state.observation(p), state.legal_actions(), rng)
        assert game.action_space.id_of(action) == got.teacher[row], row
        movers.append(p)
        state.apply(action)
    assert state.is_terminal() and got.obs.shape[1] == 708
    scores = state.result().scores
    for row, p in enumerate(movers):
        lead = scores[p] - scores[1 - p]
        assert got.outcomes[row] == pytest.approx(1 / (1 + math.exp(-lead / 8)), rel=1e-6)
    assert len(set(got.outcomes.round(6))) == 2 and scores[0] != scores[1]


@pytest.mark.parametrize("extra, message", [
    (EXPERT + "prior: learned\n", "prior is for method: expert_iteration with search: halving"),
    (HALVING + "prior: learned\n", "kept plan is kept by the network's own seat"),
    (OWN_GAMES.replace("prior: learned", "prior: no/such.npz"), "prior: no/such.npz is not a weights file"),
    ("value_target: lead\n", "value_target: lead is for method: expert_iteration"),
    (OWN_GAMES.replace("lead_scale: 8", "lead_scale: 0"), "lead_scale"),
    ("holdout_games: 4\n", "holdout_games is for method: expert_iteration"),
])
def test_own_games_mistakes_are_one_line(tmp_path, extra, message):
    with pytest.raises(ConfigError, match=message):
        _config(tmp_path, extra=extra)


def test_the_value_is_judged_on_held_out_games_and_a_resumed_run_judges_the_same(tmp_path):
    from ttr_lab.training import holdout

    extra = OWN_GAMES + "holdout_games: 2\n"
    lines = []
    run = train(_config(tmp_path, "whole", extra=extra, judge_games=0), say=lines.append)
    out = tmp_path / "whole"
    rows = list(__import__("csv").DictReader(open(out / "value_curve.csv")))
    assert [int(r["iteration"]) for r in rows] == [0, 1, 2] and run.iterations == 2
    assert all(float(r["low"]) <= float(r["excess_loss"]) <= float(r["high"]) and float(r["excess_loss"]) > 0
               and int(r["games"]) == 2 for r in rows)
    assert {"holdout.npz", "value_curve.png", "network-0001.npz", "network-0002.npz"} <= {p.name for p in out.iterdir()}
    assert any("held-out games at iteration 2: excess loss" in line for line in lines)
    # The held-out games are none of the training's: their first positions differ from iteration 0's.
    held = holdout.held_out(None, None, None, _config(tmp_path, "whole", extra=extra, judge_games=0), out)  # read back, not replayed
    assert len(np.unique(held.games)) == 2 and len(held.games) == len(held.samples.obs)
    from ttr_lab.training.ticket_to_ride import expert
    from ttr_lab.training.ticket_to_ride.imitation import initial_network

    cfg = _config(tmp_path, "whole", extra=extra, judge_games=0)
    game = load_game("ticket_to_ride", map="usa")
    trained_on = expert.collect(initial_network(game, cfg), game, cfg, 0).obs
    assert not any(np.array_equal(held.samples.obs[0], row) for row in trained_on[:3])
    # Killed after one iteration and rerun: the same curve (but for the CPU seconds).
    cfg = _config(tmp_path, "killed", extra=extra, judge_games=0)
    train(cfg, say=lambda _: None, stop_after=1)
    train(cfg, say=lambda _: None)
    again = list(__import__("csv").DictReader(open(tmp_path / "killed" / "value_curve.csv")))
    for a, b in zip(rows, again, strict=True):
        assert {k: v for k, v in a.items() if k != "seconds"} == {k: v for k, v in b.items() if k != "seconds"}


def test_the_held_out_excess_loss_is_the_cross_entropy_less_the_targets_entropy():
    from ttr_lab.training.holdout import Holdout, value_fit
    from ttr_lab.training.samples import Samples

    game = load_game("ticket_to_ride", map="usa")
    net = Network.initial(game, 4, 0, market_slots(game))
    net.params["wv"][:] = 0.0
    net.params["bv"][:] = np.log(0.8 / 0.2)  # the value is 0.8 everywhere
    t = np.array([0.5, 1.0, 0.2, 0.0], dtype=np.float32)
    n = len(t)
    held = Holdout(Samples(np.zeros((n, 708), np.float32), np.ones((n, 1), bool), np.zeros((n, 1), np.int64),
                           np.zeros(n, np.int64), t), np.array([0, 0, 1, 1]))
    fit = value_fit(net, held, 3, 10, 1.0)
    entropy = np.array([np.log(2), 0.0, -(0.2 * np.log(0.2) + 0.8 * np.log(0.8)), 0.0])
    ce = -(t * np.log(0.8) + (1 - t) * np.log(0.2))
    assert fit.excess_loss == pytest.approx(float(np.mean(ce - entropy)), rel=1e-6)
    assert (fit.games, fit.positions, fit.iteration) == (2, 4, 3) and np.isnan(fit.corr)
