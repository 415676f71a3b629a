"""A strategy that changes the values the game shares with it (``object.__setattr__`` on the
ruleset or board of its observation) forfeits, named, and cannot change the next game."""

from __future__ import annotations

from pathlib import Path

import pytest

from ttr_lab.core.game import load_game
from ttr_lab.core.results import read_results
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config
from ttr_lab.tournament.integrity import SharedValues


@pytest.mark.parametrize("what, named", [("ruleset", "Ruleset"), ("track", "Track"),
                                         ("numpy", "numpy.argmax, numpy.sum")])
def test_a_strategy_changing_shared_values_forfeits_and_the_next_game_is_untouched(tmp_path, what, named):
    # In a process of its own, as a tournament runs: the game's shared values (the board and
    # ruleset every test of this process loads) start as the maps define them.
    import json
    import os
    import subprocess
    import sys

    config = {"name": "t", "players": 3, "games": 6, "seed": 2, "backend": "serial", "output": str(tmp_path / "o"),
              "entrants": [{"name": "x", "strategy": "tests_support_strategy:Tamper", "params": {"what": what}},
                           {"name": "a", "strategy": "random"}, {"name": "b", "strategy": "greedy"}]}
    script = f"""
import json
from ttr_lab.core.game import load_game
from ttr_lab.core.play import play_game
from ttr_lab.strategies.random import Random
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config

def honest():
    return play_game(load_game("ticket_to_ride", map="usa"), [Random(), Random(), Random()], 99).to_json()

import numpy as np
numpy_sum = np.sum
before = honest()
game = load_game("ticket_to_ride", map="usa")
pristine = (game.ruleset.route_scores, game.board.tracks[0].length)
run = run_tournament(parse_config(json.loads({json.dumps(json.dumps(config))}), "t"), show_progress=False)
print(json.dumps({{"played": run.played, "untouched": (game.ruleset.route_scores, game.board.tracks[0].length) == pristine,
                  "honest": honest() == before, "numpy": np.sum is numpy_sum}}))
"""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent.parent), *sys.path])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    said = json.loads(done.stdout.strip().splitlines()[-1])
    assert said == {"played": 6, "untouched": True, "honest": True, "numpy": True}
    frame = read_results(tmp_path / "o")
    lost = frame[frame["forfeit"]]
    assert list(lost["entrant"]) == ["x"] * 6
    assert lost["error"].str.contains(f"changed the game's shared values ({named})", regex=False).all()


def test_the_snapshot_sees_and_undoes_changes_but_not_cached_properties():
    game = load_game("ticket_to_ride", map="usa")
    values = SharedValues(game)
    assert values.changed() == []
    game.board.graph  # a cached_property filled on first use is not a change
    assert values.changed() == []
    bonus = game.ruleset.longest_path_bonus
    object.__setattr__(game.ruleset, "longest_path_bonus", bonus + 1)
    object.__setattr__(game.board, "extra", 1)
    assert sorted(values.changed()) == ["Board", "Ruleset"]
    values.restore()
    assert values.changed() == [] and game.ruleset.longest_path_bonus == bonus and not hasattr(game.board, "extra")


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_honest_play_of_another_game_is_never_taken_for_tampering(tmp_path, isolation):
    c = parse_config({"name": "t", "game": "trans_orient", "players": 3, "games": 6, "seed": 4, "backend": "serial",
                      "isolation": isolation, "output": str(tmp_path / "o"),
                      "entrants": [{"name": n, "strategy": "random"} for n in "abc"]}, "t")
    run = run_tournament(c, show_progress=False)
    assert run.played == 6 and len(run.summary) == 3  # the summary needs no Ticket to Ride columns
    assert not read_results(c.output)["forfeit"].any()
