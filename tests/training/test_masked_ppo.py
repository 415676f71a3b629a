"""The masked PPO example (ttr_lab/training/ticket_to_ride/masked_ppo.py) runs, logs, and saves policies that play as
``PolicyPlayer``: a few tiny updates, numpy only."""

from __future__ import annotations

import csv

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")

from ttr_lab.training.ticket_to_ride.masked_ppo import Knobs, main, train  # noqa: E402
from ttr_lab.strategies.policy import PolicyPlayer  # noqa: E402


def test_masked_ppo_trains_logs_and_saves_playable_checkpoints(tmp_path):
    policy, rows = train(Knobs(num_envs=4, rollout=8, updates=2, checkpoint=1, eval_games=1, tensorboard=0,
                                 out=str(tmp_path)))
    assert policy.weights.shape == (1076, 708)
    with open(tmp_path / "progress.csv") as f:
        logged = list(csv.DictReader(f))
    assert [int(r["update"]) for r in logged] == [1, 2] and all(0 <= float(r["vs_greedy"]) <= 1 for r in logged)
    player = PolicyPlayer(str(tmp_path / "policy-00002.npz"))
    assert player.game.name == "ticket_to_ride"


def test_its_command_line_takes_every_knob(tmp_path, capsys):
    main(["--num-envs", "2", "--rollout", "4", "--updates", "1", "--eval-games", "0", "--tensorboard", "0",
          "--out", str(tmp_path)])
    assert "1 updates, 8 steps" in capsys.readouterr().out and (tmp_path / "policy-00001.npz").is_file()
