"""``mcts_halving``: sequential halving at the root on common samples. More budget considers more
candidates; every candidate still racing meets the same samples; a rival replaces the planner's
move only past the bar; it finds the winning claim the planner misses."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from ttr_lab import ConfigError, StrategyError
from ttr_lab.core.registry import build
from ttr_lab.games.ticket_to_ride import Phase, TicketToRide
from ttr_lab.strategies.ticket_to_ride.search.mcts_halving import HalvingSearch, affordable, answer, halving_rounds
from ttr_lab.strategies.ticket_to_ride.ticket_planner import TicketPlanner

from helpers import check_policy_orders_root, planner_turn

USA = TicketToRide("usa")
LAST_TURN = Path(__file__).parent.parent / "golden" / "mcts_tree" / "usa-2p-seed2-last-turn.json"


def test_more_play_outs_afford_more_candidates():
    counts = [affordable(budget, 8, 60) for budget in (100, 400, 1600, 6400)]
    assert counts == sorted(counts) and counts[0] < counts[-1]
    assert affordable(10, 8, 60) == 2  # the anchor and one rival, whatever the budget
    assert affordable(1e9, 8, 5) == 5  # never more than the position offers


def test_halving_takes_one_round_per_halving_and_one_against_the_anchor():
    assert [halving_rounds(r) for r in (1, 2, 3, 4, 5, 8, 9)] == [1, 2, 3, 3, 4, 4, 5]


def test_a_rival_replaces_the_planner_only_past_the_bar():
    anchor = np.array([0.0, 10.0, -5.0, 3.0, 8.0, 1.0])
    ahead = anchor + np.array([2.0, 1.0, 3.0, 2.0, 1.0, 3.0])  # +2 a sample, steadily
    noisy = anchor + np.array([20.0, -15.0, 18.0, -14.0, 10.0, -7.0])  # +2 a sample, by luck
    assert answer(anchor, ahead, 2.0)
    assert not answer(anchor, noisy, 2.0)
    assert answer(anchor, noisy, 0.0)
    assert not answer(anchor, anchor, 0.0)  # a tie is the planner's
    # Samples one of them never met do not count.
    assert not answer(np.array([0.0, np.nan]), np.array([np.nan, 50.0]), 0.0)


def test_every_candidate_still_racing_meets_the_same_samples_and_more_budget_weighs_more_moves():
    obs, legal = planner_turn()
    small, large = HalvingSearch(iterations=60), HalvingSearch(iterations=1200)
    few, many = small.search(obs, legal, random.Random(3)), large.search(obs, legal, random.Random(3))
    assert 2 <= len(few.root) < len(many.root)
    for search, found in ((small, few), (large, many)):
        samples = [row.samples for row in found.root]
        # The planner's move races to the end: no candidate met a sample it did not.
        assert samples[0] == max(samples)
        assert found.root[0].lead == 0.0
        assert found.playouts <= search.limit.playouts + len(found.root)
        assert abs(sum(found.policy.values()) - 1.0) < 1e-9 and found.action in found.policy


def test_the_search_finds_the_last_claim_that_wins_where_the_planner_claims_its_plan():
    """The last turn of a planner game (seed 2, turn 70): the planner claims its planned
    Chicago-Saint Louis and loses by 3; El Paso-Santa Fe completes a ticket and wins by 17."""
    state = USA.restore(json.loads(LAST_TURN.read_text(encoding="utf-8")))
    obs, legal = state.observation(0), state.legal_actions()
    assert str(TicketPlanner().act(obs, legal, random.Random(0))).startswith("claim Chicago-Saint Louis")
    assert str(HalvingSearch(iterations=200).act(obs, legal, random.Random(1))).startswith("claim El Paso-Santa Fe")


def test_a_fresh_verdict_measures_a_move_against_the_planners_on_new_samples():
    """The last turn of seed 2 again: on fresh samples the winning claim's edge is the 20 points
    between a 17-point win and a 3-point loss, give or take the tickets' luck; the planner's move
    against itself is exactly level (the same samples, the same play)."""
    state = USA.restore(json.loads(LAST_TURN.read_text(encoding="utf-8")))
    obs, legal = state.observation(0), state.legal_actions()
    anchor = TicketPlanner().act(obs, legal, random.Random(0))
    winner = next(a for a in legal if str(a).startswith("claim El Paso-Santa Fe"))
    search = HalvingSearch()
    assert search.edge(obs, anchor, anchor, 16, random.Random(2)) == (0.0, 0.0)
    mean, error = search.edge(obs, anchor, winner, 64, random.Random(2))
    assert mean > 3 * error and mean > 5


def test_a_final_verdict_tests_only_the_last_rounds_samples_and_races_the_same(monkeypatch):
    """``verdict: final`` leaves the race alone and hands the test only the last round's samples,
    which the winner met after the rounds that chose it; ``all`` hands it every sample it met."""
    from ttr_lab.strategies.ticket_to_ride.search import mcts_halving as halving_search

    tested: list[tuple[int, int]] = []
    monkeypatch.setattr(halving_search, "answer", lambda a, r, bar: tested.append(
        (a.shape[0], int(np.sum(np.isnan(a) | np.isnan(r))))) or False)
    obs, legal = planner_turn()
    races = {}
    for verdict in ("all", "final"):
        search = HalvingSearch(iterations=1200, verdict=verdict)
        races[verdict] = search.search(obs, legal, random.Random(3)).root
    assert races["all"] == races["final"] and len(races["all"]) > 2
    (every, gaps), (last, last_gaps) = tested
    winner_met = max(n for _, n, _ in races["all"][1:])  # the last rival met the most samples
    assert every == races["all"][0][1] and every - gaps == winner_met
    assert 0 < last < winner_met and last_gaps == 0  # the last round: both met every sample


def test_a_decision_left_to_the_planner_reports_no_play_outs():
    """A result describes its own decision: a second card, which the planner takes,
    reports none even right after a searched turn."""
    state = USA.new_game(2, seed=5)
    planner, search, rng = TicketPlanner(), HalvingSearch(iterations=60), random.Random(0)
    searched = False
    while not state.is_terminal():
        obs, legal = state.observation(state.current_player), state.legal_actions()
        if obs.phase == Phase.SECOND_DRAW and searched and len(legal) > 1:
            found = search.search(obs, legal, rng)
            assert found.playouts == 0 and found.root == ()
            return
        move = planner.act(obs, legal, rng)
        if obs.phase == Phase.TURN and len(legal) > 1 and move.__class__.__name__.startswith("Draw"):
            searched = search.search(obs, legal, rng).playouts > 0
        state.apply(move)
    pytest.fail("no second card after a searched turn in the game")


def test_a_fixed_budget_is_reproducible_and_a_clock_is_one_or_the_other():
    obs, legal = planner_turn()
    first = HalvingSearch(iterations=200).act(obs, legal, random.Random(9))
    assert HalvingSearch(iterations=200).act(obs, legal, random.Random(9)) == first
    with pytest.raises(ConfigError, match="one clock"):
        build("mcts_halving", {"cpu_ms": 5.0, "time_ms": 5.0}, "ticket_to_ride")


def test_a_clocked_search_plays_within_its_budget_order():
    obs, legal = planner_turn()
    found = HalvingSearch(cpu_ms=20.0).search(obs, legal, random.Random(2))
    assert found.action in legal and found.playouts > 0


def _pile(state) -> np.ndarray:
    from ttr_lab.games.ticket_to_ride.kernels import layout as L
    g = state.face.g
    return state.s[g[L.S_PILE]:g[L.S_PILE] + state.s[L.PILE_N]]


def test_each_seat_draws_from_its_own_stream_whatever_another_seat_drew():
    """``steer_pile`` keeps the pile's cards, draws each kind as often as the pile holds it, and
    gives seat 1 the same next card whether or not seat 0 took a card before it."""
    from ttr_lab.games.ticket_to_ride.kernels import layout as L
    from ttr_lab.strategies.ticket_to_ride.search.pile_streams import steer_pile

    state = USA.new_game(2, seed=11)
    g = state.face.g
    kinds = np.bincount(_pile(state), minlength=L.KINDS)
    same = 0
    tops = np.zeros(L.KINDS)
    trials = 2000
    for k in range(trials):
        stream = np.uint64(k * 7919 + 1)
        plain = state.s.copy()
        steer_pile(g, plain, stream, 1, 0)
        after = plain[g[L.S_PILE]:g[L.S_PILE] + plain[L.PILE_N]]
        assert np.array_equal(np.bincount(after, minlength=L.KINDS), kinds)
        tops[after[-1]] += 1
        took = state.s.copy()
        steer_pile(g, took, stream, 0, 0)
        took[L.PILE_N] -= 1  # seat 0 takes its card
        steer_pile(g, took, stream, 1, 0)
        same += int(took[g[L.S_PILE] + took[L.PILE_N] - 1] == after[-1])
    assert same / trials > 0.85  # the top card of one shuffled pile would agree about 1 time in 8
    expected = kinds / kinds.sum() * trials
    assert np.all(np.abs(tops - expected) < 5 * np.sqrt(expected) + 5)


def test_both_kinds_of_play_out_race_the_same_candidates_to_a_legal_move():
    obs, legal = planner_turn()
    roots = []
    for streams in (True, False):
        search = HalvingSearch(iterations=300, streams=streams)
        found = search.search(obs, legal, random.Random(3))
        assert found.action in legal
        roots.append({row.move for row in found.root})
    # a fixed budget fixes which candidates race; only the play-outs' cards (and so who survives) differ
    assert len(roots[0]) >= 2 and roots[0] == roots[1]
    assert HalvingSearch().streams  # the default: each seat its own stream


def test_a_policy_network_orders_the_rivals_by_its_best_logit_in_each_group():
    """With ``policy: learned`` the candidates are the planner's move, then the groups of moves
    the shipped network scores highest, in that order; the hand prior raced other rivals."""
    check_policy_orders_root(lambda policy: HalvingSearch(iterations=300, policy=policy))


def test_a_policy_that_cannot_be_read_is_refused_when_the_search_is_made(tmp_path):
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a network")
    for weights in (broken, tmp_path / "missing.npz"):
        with pytest.raises(ConfigError, match=weights.name):
            HalvingSearch(policy=str(weights))


def test_mcts_learned_is_the_race_with_the_shipped_network_as_its_prior():
    obs, legal = planner_turn()
    learned, plain = build("mcts_learned", {"iterations": 300}, "ticket_to_ride"), HalvingSearch(iterations=300, policy="learned")
    one, other = learned.search(obs, legal, random.Random(3)), plain.search(obs, legal, random.Random(3))
    assert one.action == other.action and one.root == other.root and len(one.root) > 2
    state = TicketToRide("legendary_asia").new_game(2, 1)
    with pytest.raises(StrategyError, match="no weights shipped for map 'legendary_asia'"):
        build("mcts_learned", {}, "ticket_to_ride").act(state.observation(0), state.legal_actions(), random.Random(0))
