"""Property tests over many random games on every shipped map at every player count it allows
(hypothesis chooses seeds)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings, strategies as st

from games import per_map, per_map_and_count, player_counts
from invariants import check_invariants, hidden_shuffle, random_game_states
from ttr_lab.strategies.random import Random
from ttr_lab import IllegalActionError, play_game
from ttr_lab.games.ticket_to_ride import TicketToRide, load_board, new_game
from ttr_lab.games.ticket_to_ride.actions import action_table

seeds = st.integers(min_value=0, max_value=2**63 - 1)
# Games per map and player count.
many = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
some = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@per_map_and_count
@many
@given(seed=seeds)
def test_invariants_hold_at_every_step_and_games_end(map_name, n, seed):
    BOARD = load_board(map_name)
    steps = 0
    for state, legal, action in random_game_states(BOARD, n, seed):
        check_invariants(state)
        steps += 1
        assert steps < 5000, "game does not end"
        if action is None:
            assert state.is_terminal() and state.legal_actions() == []
        else:
            assert legal, "a live state must offer an action (pass at least)"
            assert len(set(legal)) == len(legal), "duplicate legal actions"
    result = state.result()
    assert len(result.players) == n
    for p in result.players:
        assert p.route_points == state.points[p.player]
        assert p.total == (p.route_points + p.ticket_points + p.longest_bonus + (p.explorer_bonus or 0)
                           + (p.grand_tour_bonus or 0) + (p.globetrotter_bonus or 0))


@per_map_and_count
@some
@given(seed=seeds)
def test_every_offered_action_is_accepted_and_nothing_else(map_name, n, seed):
    BOARD = load_board(map_name)
    table = action_table(BOARD)
    candidates = [a for row in table.claims for options in row.values() for a in options]
    candidates += list(table.draw_market[:6]) + [table.keep_options(3, 1)[i] for i in range(7)]
    from ttr_lab.games.ticket_to_ride import DRAW_BLIND, DRAW_TICKETS, PASS
    candidates += [DRAW_BLIND, DRAW_TICKETS, PASS]
    rng = random.Random(seed)
    for state, legal, action in random_game_states(BOARD, n, seed):
        if action is None:
            break
        for a in legal:  # each offered action is accepted
            state.clone().apply(a)
        legal_set = set(legal)
        for a in rng.sample(candidates, 40):  # and a sample of the rest is refused
            if a in legal_set:
                continue
            probe = state.clone()
            try:
                probe.apply(a)
            except IllegalActionError:
                continue
            raise AssertionError(f"{a} accepted but not offered in phase {state.phase_name}")


@per_map_and_count
@some
@given(seed=seeds)
def test_clone_then_diverging_never_changes_the_original(map_name, n, seed):
    BOARD = load_board(map_name)
    rng = random.Random(seed)
    for state, legal, action in random_game_states(BOARD, n, seed):
        if action is None or rng.random() > 0.1:
            continue
        before = json.dumps(state.snapshot())
        history = state.history()
        copy = state.clone()
        while not copy.is_terminal():
            moves = copy.legal_actions()
            copy.apply(moves[rng.randrange(len(moves))])
        assert json.dumps(state.snapshot()) == before
        assert state.history() == history


@per_map_and_count
@some
@given(seed=seeds)
def test_observation_is_exactly_the_information_set(map_name, n, seed):
    BOARD = load_board(map_name)
    rng = random.Random(seed)
    for state, legal, action in random_game_states(BOARD, n, seed):
        if rng.random() > 0.15:
            continue
        snap = state.snapshot()
        for viewer in range(n):
            obs = state.observation(viewer)
            d = obs.to_dict()
            # What it must show, read off the full snapshot.
            assert d["hand"] == snap["hands"][viewer]
            assert d["tickets"] == snap["tickets_held"][viewer]
            assert d["offered"] == snap["offered_tickets"][viewer]
            assert d["market"] == snap["market"]
            assert sum(d["discard"].values()) == len(snap["discard"])
            assert d["draw_pile_size"] == len(snap["draw_pile"])
            assert d["ticket_deck_size"] == len(snap["ticket_deck"])
            assert d["claimed"] == snap["claimed"]
            assert d["trains"] == snap["trains"] and d["route_points"] == snap["route_points"]
            assert d["hand_sizes"] == [sum(h.values()) for h in snap["hands"]]
            assert d["ticket_counts"] == [len(t) for t in snap["tickets_held"]]
            # What it must not show: nothing changes when hidden information changes.
            other = hidden_shuffle(state, viewer, rng)
            assert other.observation(viewer).to_dict() == d
            assert not any(hasattr(obs, name) for name in ("pile", "hands", "ticket_deck", "_state", "state", "known"))


@per_map
def test_thousands_of_random_games_end_with_consistent_results(map_name):
    BOARD = load_board(map_name)
    rng = random.Random(2024)
    games = 0
    counts = player_counts(map_name)
    for n in counts:
        for _ in range(1000 // len(counts)):
            seed = rng.getrandbits(48)
            record = play_game(TicketToRide(BOARD), [Random() for _ in range(n)], seed)
            result = record.result
            ranks = sorted(p["rank"] for p in result["players"])
            assert ranks[0] == 1
            best = max(p["total"] for p in result["players"])
            assert all((p["rank"] == 1) <= (p["total"] == best) for p in result["players"])
            bonus = BOARD.ruleset.longest_path_bonus
            longest = max(p["longest_trail"] for p in result["players"])
            assert all((p["longest_bonus"] == bonus > 0) == (bonus > 0 and p["longest_trail"] == longest > 0)
                       for p in result["players"])
            if BOARD.ruleset.explorer_bonus:
                widest = max(p["largest_network"] for p in result["players"])
                assert all((p["explorer_bonus"] > 0) == (p["largest_network"] == widest) for p in result["players"])
            games += 1
    assert games == 1000 // len(counts) * len(counts)


@per_map_and_count
@some
@given(seed=seeds)
def test_same_seed_same_record(map_name, n, seed):
    BOARD = load_board(map_name)
    a = play_game(TicketToRide(BOARD), [Random() for _ in range(n)], seed)
    b = play_game(TicketToRide(BOARD), [Random for _ in range(n)], seed)
    assert a.to_json() == b.to_json()
    replayed = a.replay()
    assert replayed.is_terminal()
    assert replayed.result().to_dict() == a.result


@per_map
def test_different_seeds_differ(map_name):
    BOARD = load_board(map_name)
    n = player_counts(map_name)[0]
    a = play_game(TicketToRide(BOARD), [Random() for _ in range(n)], 1)
    b = play_game(TicketToRide(BOARD), [Random() for _ in range(n)], 2)
    assert a.actions != b.actions
    assert new_game(BOARD, n, 5).snapshot() != new_game(BOARD, n, 6).snapshot()
