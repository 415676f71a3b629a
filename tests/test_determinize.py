"""determinize(observation, rng): consistent with what the player knows, and nothing more."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings, strategies as st

from games import per_map, per_map_and_count, player_counts
from helpers import act
from invariants import check_invariants, hidden_shuffle, random_game_states
from ttr_lab.games.ticket_to_ride import determinize, load_board, new_game

BOARD = load_board("usa")


@per_map_and_count
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1))
def test_determinization_is_consistent_and_playable(map_name, n, seed):
    rng = random.Random(seed)
    for state, legal, action in random_game_states(load_board(map_name), n, seed):
        if state.is_terminal() or rng.random() > 0.05:
            continue
        for viewer in range(n):
            obs = state.observation(viewer)
            det = determinize(obs, rng)
            check_invariants(det)
            assert det.observation(viewer) == obs  # everything the viewer knows agrees
            if viewer == state.current_player:  # its choices depend only on what it knows
                assert det.legal_actions() == state.legal_actions()
            # It is a real game: it can be played to the end.
            probe = det.clone()
            while not probe.is_terminal():
                moves = probe.legal_actions()
                probe.apply(moves[rng.randrange(len(moves))])
            probe.result()


@per_map
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1), data=st.data())
def test_determinization_uses_only_the_observation(map_name, seed, data):
    counts = player_counts(map_name)
    n = data.draw(st.integers(counts[0], counts[-1]), label="n")
    rng = random.Random(seed)
    for state, legal, action in random_game_states(load_board(map_name), n, seed):
        if state.is_terminal() or rng.random() > 0.05:
            continue
        viewer = rng.randrange(n)
        twin = hidden_shuffle(state, viewer, rng)
        assert twin.observation(viewer) == state.observation(viewer)
        a = determinize(state.observation(viewer), random.Random(7))
        b = determinize(twin.observation(viewer), random.Random(7))
        assert json.dumps(a.snapshot()) == json.dumps(b.snapshot())


@per_map
def test_unknown_cards_are_sampled_from_what_remains(map_name):
    # Mid-game 2-player position: the opponent's unknown cards follow the unseen pool.
    rng = random.Random(3)
    state = None
    for state, legal, action in random_game_states(load_board(map_name), 2, 11):
        if state.turns >= 20 and state.phase == 1:
            break
    obs = state.observation(0)
    counts = Counter()
    draws = 3000
    for _ in range(draws):
        det = determinize(obs, rng)
        for c in range(9):
            counts[c] += det.hands[9 + c] - obs.known_cards[1][c]
    unseen = Counter()
    deck = [state.tables.deck.count(c) for c in range(9)]
    for c in range(9):
        unseen[c] = deck[c] - obs.hand[c] - obs.discard[c] - obs.market.count(c) - obs.known_cards[1][c]
    hidden = obs.hand_sizes[1] - sum(obs.known_cards[1])
    total = sum(unseen.values())
    for c in range(9):
        expected = draws * hidden * unseen[c] / total
        assert abs(counts[c] - expected) < 5 * (expected ** 0.5) + 5, (c, counts[c], expected)


def test_long_tickets_are_only_where_they_can_be():
    board = load_board("legendary_asia")
    longs = {t.id for t in board.tickets if t.deck == "long"}
    rng = random.Random(1)
    for state, legal, action in random_game_states(board, 3, 5):
        if state.turns < 10 or state.phase != 1:
            continue
        obs = state.observation(0)
        for _ in range(50):
            det = determinize(obs, rng)
            assert not longs & set(det.ticket_deck)
            for q in (1, 2):
                assert len(longs & set(det.tickets[q])) <= 1  # each was dealt one long ticket
            assert set(obs.boxed_known) <= set(det.boxed)
        break


def test_own_returned_tickets_keep_their_place():
    state = new_game(BOARD, 2, seed=5)
    offered = state.offers[0]
    act(state, "keep 0,1")  # ticket offered[2] goes to the bottom, and player 0 knows it
    obs = state.observation(0)
    assert obs.ticket_deck_known[-1] == offered[2]
    assert state.observation(1).ticket_deck_known[-1] == -1
    for seed in range(20):
        det = determinize(obs, random.Random(seed))
        assert det.ticket_deck[-1] == offered[2]


@per_map
def test_tickets_returned_in_play_keep_their_place(map_name):
    """Tickets put back after a draw in play go to the bottom of the deck on every map (at setup
    some maps box them instead); their owner knows where, and determinizations keep them there."""
    def keep(k):
        return "keep " + ",".join(map(str, range(k)))

    state = new_game(load_board(map_name), 2, seed=5)
    act(state, *[keep(state.ruleset.initial_keep_min)] * 2, "tickets")
    offered = state.offers[0]
    kept = state.ruleset.ticket_keep_min
    act(state, keep(kept))
    returned = offered[kept:]
    assert returned
    obs = state.observation(0)
    assert obs.ticket_deck_known[-len(returned):] == returned
    assert set(state.observation(1).ticket_deck_known[-len(returned):]) == {-1}
    for seed in range(20):
        det = determinize(obs, random.Random(seed))
        assert det.ticket_deck[-len(returned):] == returned
