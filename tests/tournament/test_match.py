"""Matches: one table on seeded deals under every rotation, on the tournament's schedule and game player."""

import pytest

from ttr_lab.core.game import load_game
from ttr_lab.tournament.config import parse_config
from ttr_lab.tournament.design import match_games, plan_games
from ttr_lab.tournament.match import MatchError, play_match

USA = load_game("ticket_to_ride", map="usa")
GREEDY_AND_RANDOM = [{"name": "g", "strategy": "greedy", "params": {}}, {"name": "r", "strategy": "random", "params": {}}]


def test_a_match_rotates_the_seats_of_its_table_on_each_deal():
    games = match_games((0, 1, 1), deals=2, seed=5)
    assert [g.seats for g in games[:3]] == [(0, 1, 1), (1, 1, 0), (1, 0, 1)]
    assert len({g.deal_seed for g in games[:3]}) == 1 and games[0].deal_seed != games[3].deal_seed
    assert len({g.game_id for g in games}) == 6


def test_a_match_is_the_fixed_tournament_of_its_table():
    config = parse_config({"players": 3, "games": 6, "seed": 5, "rotation": "cyclic", "entrants": [
        {"name": n, "strategy": "random"} for n in "abc"]}, "t")
    assert match_games((0, 1, 2), deals=2, seed=5) == plan_games(config)


def test_a_match_gives_the_same_rows_in_schedule_order():
    games = match_games((0, 1, 1), deals=2, seed=5)
    rows = play_match(GREEDY_AND_RANDOM, games, USA)
    assert [(r["game_id"], r["seat"]) for r in rows] == [(g.game_id, s) for g in games for s in range(3)]
    assert [r["entrant"] for r in rows[:3]] == ["g", "r", "r"]
    again = play_match(GREEDY_AND_RANDOM, games, USA)
    assert [(r["score"], r["rank"]) for r in again] == [(r["score"], r["rank"]) for r in rows]


def test_a_forfeit_stops_a_match():
    entrants = [{"name": "c", "strategy": "tests_support_strategy:Crashy", "params": {}}, GREEDY_AND_RANDOM[1]]
    with pytest.raises(MatchError, match=r"c \(tests_support_strategy:Crashy\) forfeited"):
        play_match(entrants, match_games((0, 1), deals=1, seed=1), USA)
