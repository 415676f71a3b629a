"""``ttr-lab bench env`` on a tiny budget: every game and player count is measured both ways
(its figures are not checked against a goal: the machines are shared)."""

import pytest
from typer.testing import CliRunner

pytest.importorskip("pettingzoo", reason="the [rl] extra (pettingzoo) is not installed")

from ttr_lab.bench.env import env_benchmark  # noqa: E402
from ttr_lab.cli import app  # noqa: E402


def test_env_benchmark_measures_every_game_both_ways():
    result = env_benchmark(seconds=0.01, players=(2, 4))
    labels = ("ticket_to_ride usa 2p", "ticket_to_ride usa 4p", "trans_orient standin 2p", "trans_orient standin 4p")
    for label in labels:
        env, engine, overhead = (result.figures[f"{label} {k}"] for k in ("env steps/s", "engine steps/s", "overhead"))
        assert result.figures[f"{label} engine+observation steps/s"] > 0
        masked = result.figures[f"{label} engine+mask steps/s"]
        assert masked > 0 and result.figures[f"{label} mask overhead"] == pytest.approx(engine / masked)
        assert env > 0 and engine > 0 and overhead == pytest.approx(engine / env)
        floor = result.figures[f"{label} API floor steps/s"]
        assert floor > 0 and result.figures[f"{label} API floor overhead"] == pytest.approx(engine / floor)
        direct = result.figures[f"{label} direct steps/s"]
        assert direct > 0 and result.figures[f"{label} direct overhead"] == pytest.approx(engine / direct)
    speeds, ratios, batched = result.items
    assert [row[0] for row in speeds.rows] == [row[0] for row in ratios.rows] == list(labels)
    assert [row[0] for row in batched.rows] == list(labels[:2])
    for label in labels[:2]:
        for key in ("learner steps/s", "decisions/s", "self-play steps/s"):
            assert result.figures[f"{label} batched {key}"] > 0
        # four seats (two) decide for every learner step: all seats' decisions outnumber its steps
        assert result.figures[f"{label} batched decisions/s"] > result.figures[f"{label} batched learner steps/s"]


def test_random_ids_are_uniform_over_each_row_s_legal_ids():
    import numpy as np

    from ttr_lab.bench.env import random_ids

    masks = np.zeros((3, 5), dtype=bool)
    masks[0, [1, 3]] = True
    masks[1, 4] = True
    masks[2, :] = True
    rng = np.random.default_rng(0)
    picks = np.array([random_ids(masks, rng) for _ in range(2000)])
    assert set(picks[:, 0]) == {1, 3} and set(picks[:, 1]) == {4} and set(picks[:, 2]) == set(range(5))
    assert abs((picks[:, 0] == 1).mean() - 0.5) < 0.05 and abs((picks[:, 2] == 0).mean() - 0.2) < 0.05


def test_env_bench_command():
    result = CliRunner().invoke(app, ["bench", "env", "--seconds", "0.01"])
    assert result.exit_code == 0, result.output
    assert "RL env speed" in result.output and "trans_orient standin 4p" in result.output
    assert "Batched env" in result.output
