"""Whole random games on Europe at 2-5 players: legal_actions() and apply() agree (at every
tunnel decision and every few moves besides), train cards are conserved with a tunnel's laid and
turned-over cards counted, tickets are conserved, and tunnels are tried and answered. (The compiled play-outs against the
face: test_kernels.py; the batched tensors and masks: test_tensor_kernel.py.)"""

import random

import pytest

from rules_common import assert_legal_agrees, total_cards
from ttr_lab.games.ticket_to_ride import DeclineTunnel, PayTunnel, Phase, load_board, new_game

BOARD = load_board("europe")


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_random_game(players, seed):
    rng = random.Random(seed)
    s = new_game(BOARD, players, seed)
    steps = tunnels = 0
    answers = {PayTunnel: 0, DeclineTunnel: 0}
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal
        if s.phase == Phase.TUNNEL:
            tunnels += 1
            assert type(legal[-1]) is DeclineTunnel and all(type(a) is PayTunnel for a in legal[:-1])
            assert s.tunnel_extra > 0 and len(s.revealed) <= 3 and s.tunnel_pending is not None
        if s.phase == Phase.TUNNEL or steps % 11 == 0:
            assert_legal_agrees(s)
        action = rng.choice(legal)
        if type(action) in answers:
            answers[type(action)] += 1
        s.apply(action)
        steps += 1
        assert steps < 5000
        assert total_cards(s) == 110
        places = [t for h in s.tickets for t in h] + [t for o in s.offers for t in o] + list(s.ticket_deck) + list(s.boxed)
        assert sorted(places) == list(range(46))
        if s.phase != Phase.TUNNEL:
            assert s.revealed == [] and s.tunnel_pending is None
    assert tunnels > 0 and sum(answers.values()) == tunnels
