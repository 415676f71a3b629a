"""The toy third game (``toy_game``, registered by the tests' conftest) played through every
layer with no change outside its package: the game loop, a serial tournament, the report and
``ttr-lab play``. The game contract and the RL environment checkers (PettingZoo's api_test,
Gymnasium's check_env) cover it as they cover every registered game (test_game_contract.py,
tests/envs)."""

from __future__ import annotations

import random

from typer.testing import CliRunner

from toy_game import HighCard
from ttr_lab.cli import app
from ttr_lab.core.game import available_games, load_game
from ttr_lab.core.play import play_game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.results import read_results
from ttr_lab.core.testing import RandomPlayer
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config

RANDOM = "ttr_lab.core.testing:RandomPlayer"  # a strategy that knows no game


def test_the_toy_game_is_registered_and_played_by_the_game_loop():
    assert "high_card" in available_games() and isinstance(load_game("high_card"), HighCard)
    record = play_game("high_card", [RandomPlayer() for _ in range(3)], seed=4)
    assert len(record.actions) == 9 and all(text.startswith("play ") for _, text in record.actions)
    loaded = GameRecord.from_json(record.to_json())
    assert loaded.replay().result_data() == record.result
    assert sum(p.metrics["tricks"] for p in loaded.outcome().players) == 3


def test_determinize_redraws_only_what_the_player_cannot_see():
    game = load_game("high_card")
    state = game.new_game(2, 1)
    state.apply(state.legal_actions()[0])
    obs = state.observation(1)
    twins = [game.determinize(obs, random.Random(seed)) for seed in range(20)]
    assert all(t.observation(1) == obs for t in twins)
    assert len({t.hands[0] for t in twins}) > 1, "seat 0's hand is not redrawn"


def test_a_serial_tournament_and_its_report(tmp_path):
    out = tmp_path / "out"
    config = parse_config({
        "name": "toy", "game": "high_card", "players": 2, "games": 12, "seed": 2, "backend": "serial",
        "output": str(out), "entrants": [{"name": "a", "strategy": RANDOM}, {"name": "b", "strategy": RANDOM}],
    })
    run = run_tournament(config, show_progress=False)
    frame = read_results(out)
    assert len(frame) == 12 * 2 and set(frame["entrant"]) == {"a", "b"}
    assert {"tricks", "best_card"} <= set(frame.columns) and not frame["forfeit"].any()
    assert list(run.summary["entrant"]) and run.summary["games"].sum() == 12 * 2

    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    text = (out / "report.md").read_text()
    assert "## Score parts" in text and "tricks" in text.split("## Score parts")[1].split("## ")[0]
    for word in ("ticket", "train", "luggage"):
        assert word not in text.lower()


def test_play_prints_the_default_summary():
    result = CliRunner().invoke(app, ["play", "--game", "high_card", "-p", "2", "-s", RANDOM, "-s", RANDOM, "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "High card, 2 players, seed 3" in result.output and "tricks" in result.output
