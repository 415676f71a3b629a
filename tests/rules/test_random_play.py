"""Whole games of random legal moves: legal_actions() and apply() agree everywhere, cards and
tickets are conserved, the market never shows three locomotives when a redeal was possible, and
every game ends."""

import random
from collections import Counter

import pytest

from rules_common import assert_legal_agrees, total_cards
from ttr_lab.games.ticket_to_ride import LOCOMOTIVE, DrawMarket, load_board, new_game

BOARD = load_board("usa")


class CountingMarket(list):
    """A market list that counts how often the engine clears it for a redeal."""

    def __init__(self, cards):
        super().__init__(cards)
        self.redeals = 0

    def clear(self):
        self.redeals += 1
        super().clear()


def redeals_in(before, action):
    s = before.clone()
    s.market = CountingMarket(s.market)
    s.apply(action)
    return s.market.redeals


def non_locomotives_available(s):
    return (sum(1 for c in s.market if c != LOCOMOTIVE) + sum(1 for c in s.pile if c != LOCOMOTIVE)
            + sum(s.discard) - s.discard[LOCOMOTIVE])


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_random_game(players, seed):
    rng = random.Random(seed)
    s = new_game(BOARD, players, seed)
    steps = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        assert legal
        if steps % 9 == 0:
            assert_legal_agrees(s)
        before = s.clone()
        action = rng.choice(legal)
        s.apply(action)
        steps += 1
        assert steps < 5000
        assert total_cards(s) == 110
        tickets = [t for h in s.tickets for t in h] + [t for o in s.offers for t in o] + list(s.ticket_deck)
        assert sorted(tickets) == list(range(30))
        refilled = isinstance(action, DrawMarket) or len(before.market) < len(s.market)
        if refilled and Counter(s.market)[LOCOMOTIVE] >= 3 and non_locomotives_available(s) >= 3:
            # only the loop guard or the cap of ten redeals in a row leaves 3 locomotives showing
            assert redeals_in(before, action) == 10, (steps, str(action), before.snapshot())
        assert len(s.market) == 5 or (not s.pile and not any(s.discard))
        assert all(t >= 0 for t in s.trains)
    r = s.result()
    assert len(r.players) == players
    assert sorted(p.rank for p in r.players)[0] == 1
    for p in r.players:
        assert p.total == p.route_points + p.ticket_points + p.longest_bonus
        assert p.trains_left == s.trains[p.player]
