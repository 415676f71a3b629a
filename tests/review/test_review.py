"""Reviewing a game: on hand-built positions whose best move is known the review marks the move
played as the loser and names the winner; a review replays from its seed, whichever slices of
the game were judged together; its JSON comes back whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ttr_lab import ConfigError
from ttr_lab.core.play import play_game
from ttr_lab.games.ticket_to_ride import TicketToRide
from ttr_lab.review import ReviewedGame, review_game
from ttr_lab.review.reviewed import NOISE, points_lost
from ttr_lab.review.runner import GameToReview, game_key, judge_slice, review_games, review_position

from helpers import make_state

USA = TicketToRide("usa")
LAST_TURN = Path(__file__).parent.parent / "golden" / "mcts_tree" / "usa-2p-seed2-last-turn.json"


def test_a_last_turn_claim_that_loses_by_3_is_marked_and_the_one_that_wins_by_17_named():
    """The last turn of a planner game: the planner's Chicago-Saint Louis loses by 3, El Paso-Santa
    Fe completes a ticket and wins by 17. Both end the game on every sample, so their difference
    is the 20 points exactly, whatever the sampled hidden tickets."""
    state = USA.restore(json.loads(LAST_TURN.read_text(encoding="utf-8")))
    loser = next(str(a) for a in state.legal_actions() if str(a).startswith("claim Chicago-Saint Louis"))
    found = review_position(USA, state, loser, budget=64, seed=1)
    assert found.played == loser and found.best.startswith("claim El Paso-Santa Fe")
    assert found.points_lost == pytest.approx(20.0) and found.error == 0.0 and found.kind == "claim"
    assert found.value_best - found.value_played == pytest.approx(20.0)
    winner = review_position(USA, state, found.best, budget=64, seed=1)
    assert winner.points_lost == 0.0 and winner.best == winner.played and winner.within_noise


def test_drawing_tickets_that_cannot_be_completed_is_marked_against_a_claim():
    """Three trains left and no track: any ticket kept is lost points; claiming scores."""
    state = make_state(hands=[{"red": 2, "blue": 2}, {"black": 4}], trains=[3, 30], current_player=0)
    assert "tickets" in [str(a) for a in state.legal_actions()]
    found = review_position(USA, state, "tickets", budget=80, seed=3)
    assert found.kind == "tickets" and found.best != "tickets" and found.best.startswith("claim")
    assert found.points_lost > 4 and found.difference > NOISE * found.error
    assert found.value_played < found.value_best


def test_a_loss_within_noise_counts_as_none():
    assert points_lost(3.0, 1.0) == 3.0
    assert points_lost(3.0, 2.0) == 0.0  # within two standard errors
    assert points_lost(-1.0, 0.0) == 0.0
    assert points_lost(0.5, 0.0) == 0.5  # no noise at all: every point counts


@pytest.fixture(scope="module")
def short_game():
    """A 2-player USA game between greedy and the ticket planner."""
    from ttr_lab.strategies.ticket_to_ride.greedy import Greedy
    from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

    return play_game(USA, [Greedy(), TicketPlanner()], 11)


def test_a_review_replays_from_its_seed_whatever_the_slices(short_game):
    first = review_game(short_game, seats=[1], budget=8, seed=5, game_id="g")
    again = review_game(short_game, seats=[1], budget=8, seed=5, game_id="g")
    assert first == again and first.to_json() == again.to_json()
    assert {d.seat for d in first.decisions} == {1} and len(first.decisions) == sum(s == 1 for s, _ in short_game.actions)
    other = review_game(short_game, seats=[1], budget=8, seed=6, game_id="g")
    assert [d.value_played for d in other.decisions] != [d.value_played for d in first.decisions]
    # A slice judged alone (as a Ray task judges it) finds what the whole game's review found.
    some = [d.decision for d in first.decisions][5:9]
    alone = judge_slice(short_game, short_game.strategies, some, 8, 5, game_key("g"))
    assert alone == [d for d in first.decisions if d.decision in some]


def test_the_per_game_json_holds_what_a_viewer_draws_and_comes_back_whole(short_game):
    reviewed = review_game(short_game, budget=8, seed=0, game_id="g", entrants=["greedy", "planner"])
    data = json.loads(reviewed.to_json())
    assert data["entrants"] == ["greedy", "planner"] and data["seats"] == [0, 1]
    assert sum(data["margins"]) == 0 and len(data["decisions"]) == len(short_game.actions)
    first = data["decisions"][0]
    assert {"decision", "seat", "entrant", "played", "best", "value_played", "value_best", "points_lost", "error",
            "expected_lead"} <= set(first)
    assert ReviewedGame.from_dict(data) == reviewed
    rows = reviewed.rows()
    assert rows[0]["game"] == "g" and rows[0]["move_played"] == short_game.actions[0][1]


def test_bad_requests_are_refused_in_one_line(short_game):
    with pytest.raises(ConfigError, match="no seat 2 in a 2-player game"):
        review_game(short_game, seats=[2], budget=8)
    with pytest.raises(ConfigError, match="at least 4"):
        review_game(short_game, budget=1)
    with pytest.raises(ConfigError, match="share an id"):
        review_games([GameToReview(short_game, "a"), GameToReview(short_game, "a")], budget=8)
    with pytest.raises(ConfigError, match="not a game review"):
        ReviewedGame.from_dict({"format": 1})


def test_a_game_without_a_judge_is_refused():
    from ttr_lab.core.game import load_game
    from ttr_lab.strategies.random import Random

    record = play_game(load_game("trans_orient"), [Random(), Random()], 1)
    with pytest.raises(ConfigError, match="no review for trans_orient games"):
        review_game(record, budget=8)


def test_the_review_reads_the_seats_information_only():
    """Two positions that differ only in the cards seat 0 cannot see (the other seat's hand, so
    the draw pile) are reviewed alike for seat 0."""
    mine = {"red": 2, "blue": 2}
    one = make_state(hands=[mine, {"black": 4}], trains=[12, 30], current_player=0)
    other = make_state(hands=[mine, {"green": 3, "locomotive": 1}], trains=[12, 30], current_player=0)
    assert one.observation(0) == other.observation(0) and one.observation(1) != other.observation(1)
    for played in ("tickets", "draw blind"):
        assert review_position(USA, one, played, budget=40, seed=2) == review_position(USA, other, played, budget=40,
                                                                                         seed=2)


def test_any_map_is_reviewed_through_the_games_rules():
    """Legendary Asia at 3 players: no policy network is shipped for it, so the race runs on its
    hand prior; every decision of the seat asked for is judged."""
    from ttr_lab.strategies.ticket_to_ride.greedy import Greedy

    record = play_game(TicketToRide("legendary_asia"), [Greedy(), Greedy(), Greedy()], 4)
    reviewed = review_game(record, seats=[2], budget=8, seed=0)
    assert len(reviewed.decisions) == sum(seat == 2 for seat, _ in record.actions)
    assert {d.kind for d in reviewed.decisions} <= {"claim", "draw", "tickets"} and len(reviewed.margins) == 3
