"""``Greedy`` for Trans-Orient Express: the best immediate VP per token, nothing further.

Takes the lower-row card with the most printed VP per token it would pay when it can pay for
it at once; otherwise the pile that brings a card of its hand closest to affordable (the
largest pile when its hand is empty); plays the affordable card with the most VP; gives back
the card with the fewest VP per token and the tokens its hand needs least. It ignores the
objectives, effects other than their printed VP, and what the opponents do: the step above
random that the planner must beat.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from ttr_lab.strategies.trans_orient.tokens import needs, price, shortfall
from ttr_lab.games.trans_orient import GiveToken, KeepLuggage, Observation, Phase, Play, TakeCard


class Greedy:
    name = "greedy"

    def act(self, obs: Observation, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        phase = obs.phase
        if len(legal_actions) == 1:
            return legal_actions[0]
        if phase == Phase.TAKE:
            return max(legal_actions, key=lambda a: self._take_value(obs, a))
        if phase == Phase.PLAY:
            plays = [a for a in legal_actions if type(a) is Play]
            return max(plays, key=lambda a: (obs.deck.travel[a.card - 1].vp, -a.card))
        if phase == Phase.LUGGAGE:
            return max(legal_actions, key=lambda a: (obs.deck.luggage[a.card - 1].vp, -a.card))
        if phase == Phase.GIVE_CARD:
            return min(legal_actions, key=lambda a: (self._per_token(obs, a.card), a.card))
        if phase == Phase.GIVE_TOKEN:
            want = needs(obs, obs.player, obs.hands[obs.player])
            res = obs.reserve(obs.player)
            return max(legal_actions, key=lambda a: (res[a.colour] - want[a.colour], -a.colour))
        return legal_actions[0]  # the station master: where does not matter to a greedy player

    @staticmethod
    def _per_token(obs: Observation, card: int) -> float:
        deck = obs.deck
        return deck.travel[card - 1].vp / max(1, price(deck.cost[card], obs.discount(obs.player)))

    def _take_value(self, obs: Observation, action: Any) -> tuple:
        me, deck = obs.player, obs.deck
        res, disc = obs.reserve(me), obs.discount(me)
        col = action.column
        if type(action) is TakeCard:
            card = obs.lower[col]
            if shortfall(deck.cost[card], disc, res) == 0:
                return (2, self._per_token(obs, card), -col)
            return (0, self._per_token(obs, card), -col)
        pile = obs.pile(col)
        after = tuple(r + k for r, k in zip(res, pile))
        hand = obs.hands[me]
        if hand:
            best = min(shortfall(deck.cost[x], disc, after) for x in hand)
            return (1, -best, sum(pile), -col)
        return (1, -99, sum(pile), -col)
