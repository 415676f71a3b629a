"""The compiled kernels against independent statements of the same rules: whole play-outs in one
native call against the Python face stepped action by action (same seeds, same games), the
kernels' shuffle against the engine's generator, the longest trail against brute force."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from ttr_lab.core.game import load_game
from ttr_lab.core.rng import GOLDEN, MASK, STRATEGY_KEY, derive_seed, mix64, shuffle
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.playout import random_playouts
from ttr_lab.games.ticket_to_ride.kernels.rng import shuffle as kernel_shuffle
from ttr_lab.games.ticket_to_ride.kernels.scoring import trail_length
from ttr_lab.games.ticket_to_ride.kernels.canonical import canonical
from ttr_lab.games.ticket_to_ride.state import assemble_state
from ttr_lab.games.ticket_to_ride.tables import Phase

VARIANTS = [(m, n) for m in ("usa", "legendary_asia") for n in (2, 3, 4, 5)] + [("europe", 3), ("europe", 5)]


def _next_below(state: int, bound: int) -> tuple[int, int]:
    """The play-out policy's draw, restated with the engine's Python generator."""
    state = (state + GOLDEN) & MASK
    return state, (mix64(state) * bound) >> 64


@pytest.mark.parametrize("map_name,players", VARIANTS)
def test_compiled_playouts_play_the_games_the_face_plays(map_name, players):
    game = load_game("ticket_to_ride", map=map_name)
    space = game.action_space
    seeds = [3, 17, 2**63 + 5]
    for deal in range(2):
        start = game.new_game(players, deal)
        for _ in range(3 * deal):  # a later position too, not only a fresh deal
            start.apply(start.legal_actions()[0])
        scores = np.zeros((len(seeds), players), dtype=np.int64)
        decisions = random_playouts(start.face.g, start.s, np.array(seeds, dtype=np.uint64), scores)
        stepped = 0
        for i, seed in enumerate(seeds):
            state, rng = start.clone(), seed
            while not state.is_terminal():
                legal = state.legal_actions()
                rng, pick = _next_below(rng, len(legal))
                state.apply(legal[pick])
                stepped += 1
            assert [p.total for p in state.result().players] == list(scores[i])
        assert decisions == stepped


@pytest.mark.parametrize("map_name,players", [("usa", 2), ("legendary_asia", 4)])
def test_random_games_are_dealt_as_new_game_deals_them(map_name, players):
    """``random_games`` deals game ``i`` as ``new_game(players, seeds[i])`` and plays it out at
    random from the seed's strategy stream, as ``random_playouts`` would from that deal."""
    game = load_game("ticket_to_ride", map=map_name)
    seeds = [0, 41, 2**64 - 3]
    whole = game.random_games(players, seeds)
    for i, seed in enumerate(seeds):
        dealt = game.new_game(players, seed)
        assert whole[i].tolist() == game.random_playouts(dealt, [derive_seed(seed, STRATEGY_KEY)])[0].tolist()
    assert len({tuple(row) for row in whole.tolist()}) > 1  # not one game three times


@pytest.mark.parametrize("length", [0, 1, 2, 7, 110])
def test_the_kernel_shuffle_is_the_engines_bit_for_bit(length):
    for seed in (0, 1, 2**64 - 1, 0x7772, 123456789123456789):
        items = list(range(length))
        array = np.array([-1] + items + [-1], dtype=np.int64)
        after = shuffle(items, seed)
        state = kernel_shuffle(array, 1, length, np.uint64(seed))
        assert array[1:1 + length].tolist() == items and int(state) == after
        assert array[0] == -1 and array[-1] == -1  # only its range is touched


def _brute_force_trail(edges: list[tuple[int, int, int]]) -> int:
    """Longest trail by trying every ordering of every subset of edges (tiny graphs only)."""
    best = 0
    for size in range(1, len(edges) + 1):
        for order in itertools.permutations(range(len(edges)), size):
            a, b, _ = edges[order[0]]
            for start in (a, b):
                here, total, ok = start, 0, True
                for i in order:
                    x, y, w = edges[i]
                    if here not in (x, y):
                        ok = False
                        break
                    here, total = (y if here == x else x), total + w
                if ok:
                    best = max(best, total)
    return best


def _network(rng: random.Random, most_cities: int, most_tracks: int) -> tuple[list[tuple[int, int, int]], int]:
    """A random network: tracks (city, city, length) between up to ``most_cities`` cities."""
    cities = rng.randint(2, most_cities)
    edges = [(rng.randrange(cities), rng.randrange(cities), rng.randint(1, 6)) for _ in range(rng.randint(0, most_tracks))]
    return [e for e in edges if e[0] != e[1]], cities


def _kernel_trail(edges: list[tuple[int, int, int]], cities: int) -> int:
    return trail_length(*[np.array([e[k] for e in edges], dtype=np.int64) for k in range(3)], cities)


def test_longest_trail_kernel_against_brute_force():
    rng = random.Random(5)
    for _ in range(150):
        edges, cities = _network(rng, 5, 6)
        assert _kernel_trail(edges, cities) == _brute_force_trail(edges), edges


def _every_trail(edges: list[tuple[int, int, int]]) -> int:
    """Longest trail by a depth-first search over every trail from every city."""
    used = [False] * len(edges)

    def walk(here: int) -> int:
        best = 0
        for i, (x, y, w) in enumerate(edges):
            if not used[i] and here in (x, y):
                used[i] = True
                best = max(best, w + walk(y if here == x else x))
                used[i] = False
        return best

    return max((walk(c) for e in edges for c in e[:2]), default=0)


def test_longest_trail_kernel_against_every_trail_on_larger_networks():
    # Networks of a dozen tracks: cycles, tracks in parallel, several pieces, pieces whose
    # cities all have even degree (the kernel takes those whole, without a search)
    rng = random.Random(11)
    for trial in range(100):
        edges, cities = _network(rng, 8, 12)
        if trial % 5 == 0:  # a ring beside the rest: every city of it of even degree
            ring = [cities + k for k in range(rng.randint(2, 5))]
            edges += [(c, ring[(k + 1) % len(ring)], rng.randint(1, 6)) for k, c in enumerate(ring)]
            cities += len(ring)
        rng.shuffle(edges)
        assert _kernel_trail(edges, cities) == _every_trail(edges), edges


@pytest.mark.parametrize("map_name,players", [("usa", 4), ("legendary_asia", 2)])
def test_a_state_rebuilt_from_its_fields_is_the_same_array(map_name, players):
    game = load_game("ticket_to_ride", map=map_name)
    state, r = game.new_game(players, 9), random.Random(9)
    while True:
        f = state.fields()
        rebuilt = assemble_state(state.tables, state.log, state.log_len, rng=state.rng, **vars(f))
        assert (canonical(rebuilt.face.g, rebuilt.s) == canonical(state.face.g, state.s)).all()
        assert rebuilt.legal_actions() == state.legal_actions() and rebuilt.snapshot() == state.snapshot()
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[r.randrange(len(legal))])
    assert int(state.s[L.PHASE]) == L.OVER


def _observation_from_fields(state, player):
    """The observation restated from the state's own fields, read one by one."""
    f, n, k = state.fields(), state.num_players, L.KINDS
    seats = range(n)
    return {
        "current_player": f.player, "phase": Phase(f.phase), "hand": tuple(f.hands[player * k:player * k + k]),
        "tickets": f.tickets[player], "offered": f.offers[player], "market": tuple(f.market),
        "discard": tuple(f.discard), "draw_pile_size": len(f.pile), "ticket_deck_size": len(f.ticket_deck),
        "owner": tuple(f.owner), "trains": tuple(f.trains), "route_points": tuple(f.points),
        "hand_sizes": tuple(sum(f.hands[p * k:p * k + k]) for p in seats),
        "ticket_counts": tuple(len(t) for t in f.tickets),
        "known_cards": tuple(tuple(f.known[p * k:p * k + k]) for p in seats),
        "offer_sizes": tuple(len(o) for o in f.offers),
        "ticket_deck_known": tuple(t if r == player else -1 for t, r in zip(f.ticket_deck, f.returned_by)),
        "passes_in_a_row": f.passes,
        "boxed_known": tuple(t for t, r in zip(f.boxed, f.boxed_by) if r == player),
        "final_round": f.final_turns >= 0, "final_turns_left": f.final_turns, "turns": f.turns,
    }


def test_the_observation_kernel_reads_what_the_state_s_fields_hold():
    """``kernels.observe`` writes one row the observation is sliced from: every field against the
    state's own, for every seat at every step, with tickets put back and tickets boxed met."""
    put_back = boxed = 0
    for map_name, players in (("usa", 4), ("legendary_asia", 3)):
        game = load_game("ticket_to_ride", map=map_name)
        state, r = game.new_game(players, 4), random.Random(4)
        while True:
            for p in range(players):
                obs, expected = state.observation(p), _observation_from_fields(state, p)
                got = {name: getattr(obs, name) for name in expected}
                assert got == expected, (map_name, p, state.turns)
                assert all(type(got[name]) is type(value) for name, value in expected.items())
                put_back += any(t >= 0 for t in obs.ticket_deck_known)
                boxed += bool(obs.boxed_known)
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[r.randrange(len(legal))])
    assert put_back and boxed
