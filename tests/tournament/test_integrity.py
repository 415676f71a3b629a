"""A strategy that changes the values the game shares with it (``object.__setattr__`` on the
ruleset or board of its observation) forfeits, named, and cannot change the next game."""

from __future__ import annotations

import pytest

from ttr_lab.core.game import load_game
from ttr_lab.core.play import play_game
from ttr_lab.core.results import read_results
from ttr_lab.tournament import run_tournament
from ttr_lab.tournament.config import parse_config
from ttr_lab.tournament.integrity import SharedValues
from ttr_lab.strategies.random import Random


def honest_game() -> str:
    return play_game(load_game("ticket_to_ride", map="usa"), [Random(), Random(), Random()], 99).to_json()


@pytest.mark.parametrize("what, named", [("ruleset", "Ruleset"), ("track", "Track")])
def test_a_strategy_changing_shared_values_forfeits_and_the_next_game_is_untouched(tmp_path, what, named):
    before = honest_game()
    game = load_game("ticket_to_ride", map="usa")
    pristine = (game.ruleset.route_scores, game.board.tracks[0].length)
    c = parse_config({"name": "t", "players": 3, "games": 6, "seed": 2, "backend": "serial", "output": str(tmp_path / "o"),
                      "entrants": [{"name": "x", "strategy": "tests_support_strategy:Tamper", "params": {"what": what}},
                                   {"name": "a", "strategy": "random"}, {"name": "b", "strategy": "greedy"}]}, "t")
    run = run_tournament(c, show_progress=False)
    assert run.played == 6
    frame = read_results(c.output)
    lost = frame[frame["forfeit"]]
    assert list(lost["entrant"]) == ["x"] * 6
    assert lost["error"].str.contains(f"changed the game's shared values ({named})", regex=False).all()
    assert (game.ruleset.route_scores, game.board.tracks[0].length) == pristine
    assert honest_game() == before


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
