"""Property tests over random games at 2, 3 and 4 players (hypothesis chooses the seeds)."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from toe_helpers import DECK, GAME, Phase, check_invariants, hidden_shuffle, random_game_states
from ttr_lab.core.errors import IllegalActionError
from ttr_lab.games.trans_orient import determinize
from ttr_lab.games.trans_orient.actions import action_table
from ttr_lab.games.trans_orient.restore import restore

seeds = st.integers(min_value=0, max_value=2**63 - 1)
per_count = pytest.mark.parametrize("n", [2, 3, 4])
some = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
few = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@per_count
@some
@given(seed=seeds)
def test_invariants_hold_at_every_step_and_games_end(n, seed):
    steps = 0
    for state, legal, action in random_game_states(n, seed):
        check_invariants(state)  # 72 travel cards, 50 tokens, 16 luggage cards; limits at each turn
        steps += 1
        assert steps < 5000, "the game does not end"
        if action is None:
            assert state.is_terminal() and state.legal_actions() == []
        else:
            assert legal and len(set(legal)) == len(legal), "no action, or the same action twice"
    result = state.result()
    assert result.rounds <= 40 and len(result.players) == n
    assert result.termination.value == ("stalled" if state.stalled else "normal")
    if not state.stalled:
        assert max(p.cards_played for p in result.players) >= 7
    for p in result.players:
        assert p.score == (p.vp_travel + p.vp_colour_bonus + p.vp_luggage + p.vp_visa + p.vp_season + p.vp_route)


@per_count
@few
@given(seed=seeds)
def test_every_offered_action_is_accepted_and_nothing_else(n, seed):
    table = action_table(DECK)
    candidates = [*table.take_card, *table.take_tokens, *table.master, *table.play[1:], *table.give_card[1:],
                  *table.keep_luggage[1:], *table.give_token, table.play[0].__class__(0)]
    rng = random.Random(seed)
    for state, legal, action in random_game_states(n, seed):
        if action is None:
            break
        for a in legal:
            state.clone().apply(a)
        offered = set(legal)
        for a in rng.sample(candidates, 25):
            if a in offered:
                continue
            with pytest.raises(IllegalActionError):
                state.clone().apply(a)


@per_count
@some
@given(seed=seeds)
def test_an_observation_holds_nothing_the_player_may_not_know(n, seed):
    rng = random.Random(seed)
    for state, legal, action in random_game_states(n, seed):
        if rng.random() > 0.08 and action is not None:
            continue
        for viewer in range(n):
            obs = state.observation(viewer)
            # A state that differs only in what the viewer cannot see looks the same to it.
            twin = hidden_shuffle(state, viewer, rng)
            assert twin.observation(viewer) == obs
            assert obs.luggage == state.luggage[viewer]
            assert obs.offer == (state.offer if viewer == state.player else ())
            assert obs.revealed_luggage == (tuple(state.luggage) if state.is_terminal() else ())
            known = {x for x in obs.luggage_deck_known if x}
            assert known <= {x for x, by in zip(state.lug_deck, state.lug_by) if by == viewer}
            assert b"GameState" not in pickle.dumps(obs)  # no way back to the state
            json.dumps(obs.to_dict())


@per_count
@some
@given(seed=seeds)
def test_clones_are_independent_and_games_are_deterministic(n, seed):
    rng = random.Random(seed)
    texts = []
    for state, legal, action in random_game_states(n, seed):
        if action is None:
            break
        texts.append(state.action_text(action))
        if rng.random() < 0.05:
            before = json.dumps(state.snapshot())
            probe = state.clone()
            while not probe.is_terminal():
                moves = probe.legal_actions()
                probe.apply(moves[rng.randrange(len(moves))])
            assert json.dumps(state.snapshot()) == before, "playing a clone changed the original"
    final = json.dumps(state.snapshot())
    again = GAME.new_game(n, seed)
    for text in texts:
        again.apply(GAME.parse_action(text))
    assert json.dumps(again.snapshot()) == final, "the same seed and actions gave another game"


@per_count
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_determinization_is_consistent_playable_and_uses_only_the_observation(n, seed):
    rng = random.Random(seed)
    for state, legal, action in random_game_states(n, seed):
        if rng.random() > 0.04:
            continue
        viewer = rng.randrange(n)
        obs = state.observation(viewer)
        det = determinize(obs, rng)
        check_invariants(det)
        assert det.observation(viewer) == obs
        if viewer == state.current_player:
            assert det.legal_actions() == state.legal_actions()
        twin = hidden_shuffle(state, viewer, rng)
        a = determinize(obs, random.Random(7))
        b = determinize(twin.observation(viewer), random.Random(7))
        assert json.dumps(a.snapshot()) == json.dumps(b.snapshot())
        probe = det.clone()
        while not probe.is_terminal():
            moves = probe.legal_actions()
            probe.apply(moves[rng.randrange(len(moves))])
        probe.result()


@per_count
@few
@given(seed=seeds)
def test_a_snapshot_restores_the_same_state(n, seed):
    rng = random.Random(seed)
    for state, legal, action in random_game_states(n, seed):
        if rng.random() > 0.05 and action is not None:
            continue
        snap = state.snapshot()
        back = restore(DECK, json.loads(json.dumps(snap)))
        again = back.snapshot()
        assert {**again, "history_length": 0} == {**snap, "history_length": 0}
        assert back.legal_actions() == state.legal_actions()
        if state.phase != Phase.OVER:
            a = legal[0]
            s1, s2 = state.clone(), back.clone()
            s1.apply(a)
            s2.apply(a)
            assert {**s1.snapshot(), "history_length": 0} == {**s2.snapshot(), "history_length": 0}
