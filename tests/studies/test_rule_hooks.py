"""The games' hooks a study uses: the rule parameters each game lists and takes back in its
``ruleset`` option (Ticket to Ride and Trans-Orient Express alike), and Ticket to Ride's map
edits (a track removed, re-lengthened, added; a ticket removed or re-valued)."""

from __future__ import annotations

import pickle

import pytest

from ttr_lab.core.errors import BoardDataError, ConfigError
from ttr_lab.core.game import load_game
from ttr_lab.core.play import play_game
from ttr_lab.core.registry import build
from ttr_lab.core.results import read_results
from ttr_lab.studies import parse_study, run_study


def test_trans_orient_rules_travel_in_the_options_and_reach_every_setup():
    game = load_game("trans_orient", ruleset={"hand_limit": 3, "reserve_limit": 7})
    assert game.rule_parameters()["hand_limit"] == 3 and load_game("trans_orient").rule_parameters()["hand_limit"] == 2
    again = load_game("trans_orient", **game.options)
    assert again == game and pickle.loads(pickle.dumps(game)) == game and game != load_game("trans_orient")
    state = game.new_game(3, seed=1)
    assert state.tables.rules.hand_limit == 3 and pickle.loads(pickle.dumps(state)).tables.rules.reserve_limit == 7
    with pytest.raises(ConfigError, match="no rule 'hand'"):
        load_game("trans_orient", ruleset={"hand": 3})


def test_a_trans_orient_study_varies_its_hand_limit(tmp_path):
    study = parse_study({
        "name": "toe", "game": "trans_orient", "players": 3, "games": 3, "seed": 1, "backend": "serial",
        "output": str(tmp_path / "s"), "entrants": [{"name": n, "strategy": n} for n in ("random", "greedy", "planner")],
        "factors": [{"rule": "hand_limit", "levels": [1, 2]}]})
    assert study.baseline == {"hand_limit": 2}
    run_study(study, show_progress=False)
    rows = read_results(study.cells[0].config.output)
    assert rows["game_id"].nunique() == 6  # one deal, all six seatings (the default at 3 players)
    assert study.cells[0].config.load_game().rule_parameters()["hand_limit"] == 1


def test_ticket_to_ride_map_edits():
    usa = load_game("ticket_to_ride", map="usa")
    tracks = usa.board.tracks
    twin = next(t for t in tracks if t.twin >= 0)
    edited = load_game("ticket_to_ride", map="usa", edits=[
        {"remove_track": twin.label}, {"track_length": ["Denver-Kansas City black", 6]},
        {"add_track": {"a": "Denver", "b": "Chicago", "length": 6}}, {"ticket_points": ["Boston-Miami (12)", 30]},
        {"remove_ticket": 1}])
    board = edited.board
    assert len(board.tracks) == len(tracks) and len(board.tickets) == len(usa.board.tickets) - 1
    assert [t.id for t in board.tracks] == list(range(len(board.tracks)))
    partner = next(t for t in board.tracks if {t.a, t.b} == {twin.a, twin.b})
    assert partner.twin == -1  # the other track of the double route is single now
    assert next(t for t in board.tracks if t.label == "Denver-Kansas City black").length == 6
    assert board.tickets[0].points == 30 and board.tracks[-1].label == "Denver-Chicago gray"
    assert load_game("ticket_to_ride", **edited.options) == edited and pickle.loads(pickle.dumps(edited)).options == edited.options
    record = play_game(edited, [build("greedy", {}, "ticket_to_ride") for _ in range(3)], 5)
    assert record.outcome is not None
    with pytest.raises(BoardDataError, match="no track labelled"):
        load_game("ticket_to_ride", map="usa", edits=[{"remove_track": "Atlantis-Denver gray"}])
    with pytest.raises(BoardDataError, match="unknown map edit"):
        load_game("ticket_to_ride", map="usa", edits=[{"flood": 3}])
