"""Determinizer(observation).sample(seed): the compiled sampler a search draws from.

It must agree with the observation (as ``determinize`` does: test_determinize.py), be
reproducible from its seed, and sample the same distribution as ``determinize(obs, rng)``,
which shares its preparation and its dealer but shuffles with a ``random.Random``.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from games import per_map_and_count
from helpers import act
from invariants import check_invariants, random_game_states
from ttr_lab.games.ticket_to_ride import Determinizer, determinize, determinizer, load_board, new_game
from ttr_lab.games.ticket_to_ride.board import TicketDeck

_K = 9


def _positions(map_name: str, n: int, seed: int, every: int):
    """Some states of one random game (copies), every ``every``-th before an action."""
    for k, (state, legal, action) in enumerate(random_game_states(load_board(map_name), n, seed)):
        if not state.is_terminal() and k % every == 0:
            yield state.clone()


def _consistent(sample, state, viewer) -> None:
    check_invariants(sample)
    obs = state.observation(viewer)
    assert sample.observation(viewer) == obs  # hand, tickets, market, counts, deck sizes...
    assert sample.hands[viewer * _K:(viewer + 1) * _K] == list(obs.hand)
    for q in range(state.num_players):
        assert sum(sample.hands[q * _K:(q + 1) * _K]) == obs.hand_sizes[q]
        assert len(sample.tickets[q]) == obs.ticket_counts[q] and len(sample.offers[q]) == obs.offer_sizes[q]
    assert len(sample.pile) == obs.draw_pile_size and len(sample.ticket_deck) == obs.ticket_deck_size
    if viewer == state.current_player:  # its choices depend only on what it knows
        assert sample.legal_actions() == state.legal_actions()


@per_map_and_count
def test_a_sample_agrees_with_the_observation_and_plays_on(map_name, n):
    rng = random.Random(n)
    for state in _positions(map_name, n, seed=n, every=23):
        for viewer in range(n):
            sampler = determinizer(state.observation(viewer))
            for _ in range(2):
                sample = sampler.sample(rng)
                _consistent(sample, state, viewer)
        probe = sample.clone()  # a real game: it plays to the end
        while not probe.is_terminal():
            moves = probe.legal_actions()
            probe.apply(moves[rng.randrange(len(moves))])
        probe.result()


def test_hand_built_positions():
    # Setup: both still choosing (long tickets on offer where the map has them), then a face-up
    # draw the viewer saw, a returned ticket only the viewer placed, a ticket choice in play.
    for map_name in ("usa", "legendary_asia"):
        state = new_game(load_board(map_name), 3, seed=9)
        _consistent(determinizer(state.observation(0)).sample(1), state, 0)
        act(state, "keep 0,1", "keep 0,1,2")
        for viewer in range(3):
            _consistent(determinizer(state.observation(viewer)).sample(2), state, viewer)
        act(state, "keep 0,1")
        slot = next(i for i, c in enumerate(state.market) if c != 8)
        colour = state.market[slot]
        act(state, f"market {slot}")
        obs = state.observation(1)
        assert obs.known_cards[0][colour] >= 1
        for seed in range(20):
            sample = determinizer(obs).sample(seed)
            _consistent(sample, state, 1)
            assert sample.hands[colour] >= obs.known_cards[0][colour]  # what it saw taken is there
        state = new_game(load_board(map_name), 2, seed=5)
        offered = state.offers[0]
        act(state, "keep 0,1")
        obs = state.observation(0)
        for seed in range(20):
            sample = Determinizer(obs).sample(seed)
            _consistent(sample, state, 0)
            if map_name == "usa":  # the rejected ticket went under the deck, where only its owner knows
                assert sample.ticket_deck[-1] == offered[2]


def test_a_seed_gives_one_sample_and_seeds_differ():
    state = next(s for s in _positions("usa", 4, seed=3, every=1) if s.turns >= 15)
    sampler = determinizer(state.observation(2))
    snap = lambda s: json.dumps(s.snapshot())  # noqa: E731
    assert snap(sampler.sample(11)) == snap(sampler.sample(11)) == snap(determinizer(state.observation(2)).sample(11))
    assert snap(sampler.sample(random.Random(4))) == snap(sampler.sample(random.Random(4)))
    assert len({snap(sampler.sample(seed)) for seed in range(10)}) == 10
    # The engine's future shuffles are sampled too.
    assert len({sampler.sample(seed).rng for seed in range(10)}) == 10


def _frequencies(draw, obs, seat, samples):
    """Per colour, how often it is among ``seat``'s hidden cards; per ticket, how often ``seat``
    holds it; how often it holds each number of long tickets."""
    colours, tickets, longs = Counter(), Counter(), Counter()
    long_ids = {t.id for t in obs.board.tickets if t.deck is TicketDeck.LONG}
    for _ in range(samples):
        sample = draw()
        for c in range(_K):
            colours[c] += sample.hands[seat * _K + c] - obs.known_cards[seat][c]
        tickets.update(sample.tickets[seat])
        longs[len(long_ids & set(sample.tickets[seat]))] += 1
    return colours, tickets, longs


@pytest.mark.parametrize("map_name,n,viewer,seat", [("usa", 2, 0, 1), ("legendary_asia", 4, 1, 3), ("legendary_asia", 3, 0, 2)])
def test_compiled_and_python_samplers_sample_the_same_distribution(map_name, n, viewer, seat):
    state = next(s for s in _positions(map_name, n, seed=12, every=1) if s.turns >= 12 and s.phase == 1)
    obs = state.observation(viewer)
    samples = 3000
    sampler, rng = determinizer(obs), random.Random(5)
    compiled = _frequencies(lambda: sampler.sample(rng), obs, seat, samples)
    python = _frequencies(lambda: determinize(obs, rng), obs, seat, samples)
    for a, b in zip(compiled, python):  # two binomial counts of one rate: within 5 standard errors
        for key in set(a) | set(b):
            expected = (a[key] + b[key]) / 2
            assert abs(a[key] - b[key]) <= 5 * (2 * expected) ** 0.5 + 5, (key, a[key], b[key])
    hidden = obs.hand_sizes[seat] - sum(obs.known_cards[seat])
    assert sum(compiled[0].values()) == samples * hidden


def test_an_observation_with_more_cards_in_sight_than_the_game_is_refused():
    state = new_game(load_board("usa"), 2, seed=1)
    obs = state.observation(0)
    with pytest.raises(ValueError, match="inconsistent"):
        Determinizer(obs._replace(hand=(20,) * _K))


def test_the_sampler_runs_interpreted():
    """The kernels under ``NUMBA_DISABLE_JIT=1`` deal what they deal compiled."""
    state = next(s for s in _positions("legendary_asia", 3, seed=4, every=1) if s.turns >= 8)
    obs = state.observation(1)
    compiled = [json.dumps(determinizer(obs).sample(seed).snapshot()) for seed in range(3)]
    here = Path(__file__).parent
    script = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(here)!r})\n"
        "from invariants import random_game_states\n"
        "from ttr_lab.games.ticket_to_ride import determinizer, load_board\n"
        "for k, (s, l, a) in enumerate(random_game_states(load_board('legendary_asia'), 3, 4)):\n"
        "    if not s.is_terminal() and s.turns >= 8:\n"
        "        break\n"
        "obs = s.observation(1)\n"
        "print(json.dumps([json.dumps(determinizer(obs).sample(seed).snapshot()) for seed in range(3)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
                          capture_output=True, text=True, cwd=here.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == compiled


def test_setup_keeps_of_a_later_observation_are_those_of_its_whole_history(monkeypatch):
    import sys as _sys

    module = _sys.modules["ttr_lab.games.ticket_to_ride.determinize"]
    states = [s for s in _positions("legendary_asia", 4, seed=8, every=3) if s.turns >= 4][:12]
    assert len(states) > 4
    for earlier, later in zip(states, states[1:]):
        module._setup_keeps(earlier.observation(0))  # the cache now holds the earlier history
        walked = module._setup_keeps(later.observation(1))
        monkeypatch.setattr(module, "_LAST_KEEPS", [None, {}])
        assert walked == module._setup_keeps(later.observation(1)) and len(walked) == 4
