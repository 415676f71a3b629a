"""Scoring: travel cards, luggage, visa / season / route objectives, ranks with ties, the tie-break."""

from __future__ import annotations

import json

import pytest

from toe_helpers import DECK, LuggageEffect, make_state
from ttr_lab.games.trans_orient import METRICS, scoring


def test_the_cards_these_tests_use():
    assert [DECK.card(x).vp for x in (9, 2, 19, 3, 10, 12)] == [1, 4, 6, 1, 4, 4]
    assert [DECK.card(x).passport for x in (9, 2, 19, 3, 10, 12)] == [False, False, False, True, True, False]
    assert [DECK.card(x).destination for x in (9, 2, 19, 3, 10, 12)] == [2, 1, 4, 1, 2, 3]
    assert [DECK.luggage_card(x).effect for x in (7, 2, 9, 11, 14)] == [
        LuggageEffect.VP_PER_LUGGAGE, LuggageEffect.NONE, LuggageEffect.VP_PER_PASSPORT,
        LuggageEffect.WILD_NUMBER, LuggageEffect.WILD_COLOUR]


# -- pieces ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("held,wilds,highest,run", [
    ({1, 2, 3, 4}, 0, 15, 4),
    ({2, 3, 4}, 0, 15, 0),  # a run starts at 1
    ({4, 5, 6, 7}, 0, 15, 0),
    ({1, 3}, 1, 15, 3),  # a wild number fills the gap
    ({1, 3, 5}, 1, 15, 3),
    ({1, 3, 5}, 2, 15, 5),
    ({1, 2}, 2, 3, 3),  # not past the deck's highest destination
    (set(), 2, 15, 2),
])
def test_route_run(held, wilds, highest, run):
    assert scoring.route_run(held, wilds, highest) == run


def test_travel_points_count_a_colour_effect_on_its_own_card():
    printed, bonus = scoring.travel_points(DECK, [9, 2, 19, 3])  # 9: 1 VP per blue card; 9, 2, 3 are blue
    assert (printed, bonus) == (12, 3)


def test_luggage_points_per_luggage_card_include_the_card_itself():
    # 7: 1 VP per luggage card (3 held); 2: 3 VP; 9: 1 VP per passport (4 passports)
    assert scoring.luggage_points(DECK, [7, 2, 9], 4) == 3 + 3 + 4


def test_passports_count_travel_and_luggage_cards():
    assert scoring.passports(DECK, [3, 10, 2], [3, 6, 1]) == 4


def test_thresholds_score_only_the_highest_reached():
    visa = DECK.objective(1)  # 2: 3, 4: 7, 6: 12
    assert [scoring.threshold_points(visa, v) for v in (0, 1, 2, 5, 6, 9)] == [0, 0, 3, 7, 12, 12]


def test_ranks_share_ties_and_skip_the_next_rank():
    assert scoring.ranks([3, 3, 1, 0]) == [1, 1, 3, 4]
    medals = DECK.objective(4)  # 9, 5, 2
    assert scoring.rank_points(medals, [3, 3, 1, 0]) == [9, 9, 2, 0]
    assert scoring.rank_points(medals, [0, 0]) == [9, 9]  # a count of 0 still ranks
    assert scoring.rank_points(medals, [5, 1, 1]) == [9, 5, 5]
    assert scoring.rank_points(DECK.objective(6), [5, 4, 3]) == [8, 4, 0]  # no third medal printed


def test_season_scores_the_best_combination_held_with_wild_colours_filling_gaps():
    season = DECK.objective(11)  # green + purple: 3; blue + green + red + purple: 9
    assert scoring.season_points(season, [1, 1, 0, 1, 1], 0) == 9  # not 9 + 3
    assert scoring.season_points(season, [0, 1, 0, 0, 1], 0) == 3
    assert scoring.season_points(season, [0, 1, 0, 0, 0], 1) == 3
    assert scoring.season_points(season, [0, 1, 0, 0, 1], 2) == 9
    assert scoring.season_points(season, [5, 0, 5, 5, 0], 1) == 0
    assert scoring.season_points(DECK.objective(10), [1, 0, 0, 2, 0], 1) == 7  # 2 blue + 2 red


def test_wild_colours_do_not_count_for_colour_effects():
    # travel_points reads travel cards only: a wild colour never adds a card of a colour
    assert scoring.travel_points(DECK, [9]) == (1, 1)


# -- a whole game's end --------------------------------------------------------------------------------

def finished(played, luggage, objectives, n=None):
    n = n or len(played)
    return make_state(n, phase="over", played=played, luggage=luggage, objectives=objectives)


def test_every_source_adds_up_to_the_score():
    state = finished([[9, 2, 19, 3], [], []], [[7, 2, 9], [], []], (1, 11, 13))
    p = state.result().players[0]
    assert (p.vp_travel, p.vp_colour_bonus, p.vp_luggage) == (12, 3, 3 + 3 + 1)
    assert (p.vp_visa, p.vp_season, p.vp_route) == (0, 0, 2)  # 1 passport; blue and green; run 1-2
    assert p.score == 24 and p.passports == 1 and p.longest_run == 2 and p.objectives_met == 1
    state = finished([[9, 2, 19, 3], [], []], [[7, 2, 11], [], []], (1, 11, 13))
    p = state.result().players[0]
    assert p.longest_run == 4 and p.vp_route == 9 and p.wild_numbers == 1
    assert p.vp_luggage == 3 + 3 + 0


def test_ties_on_vp_go_to_passports_then_share_the_rank():
    state = finished([[2], [10], [12]], [[], [], []], (3, 12, 14))
    result = state.result()
    assert result.scores == (4, 4, 4)
    assert [p.rank for p in result.players] == [2, 1, 2]
    assert result.winners == (1,)
    outcome = state.outcome()
    assert [p.rank for p in outcome.players] == [2, 1, 2] and outcome.win_shares() == (0.0, 1.0, 0.0)
    state = finished([[2], [12], [10]], [[], [], [6]], (3, 12, 14))  # luggage 6: 1 VP and a passport
    assert state.result().scores == (4, 4, 5)


def test_the_outcome_declares_its_metrics_and_the_result_is_json():
    state = finished([[9, 2, 19, 3], [10], [12]], [[7, 2, 9], [14], []], (4, 7, 16))
    outcome = state.outcome()
    declared = {m.name for m in METRICS}
    for p in outcome.players:
        assert set(p.metrics) == declared
        assert p.score == sum(p.metrics[k] for k in ("vp_travel", "vp_colour_bonus", "vp_luggage", "vp_visa",
                                                       "vp_season", "vp_route"))
    data = json.loads(json.dumps(state.result_data()))
    assert data["objectives"] == [4, 7, 16] and data["termination"] == "normal"
    assert data["players"][0]["luggage"] == [2, 7, 9]
    assert [p["rank"] for p in data["players"]] == [p.rank for p in outcome.players]
