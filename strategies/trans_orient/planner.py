"""``Planner`` for Trans-Orient Express: plays for the objectives in play and a run from 1.

Every card is valued by what it adds to the player's projected score (``valuation.Projection``:
printed VP, colour bonuses, the three shared objectives with partial credit for progress
toward them, the run of destinations 1, 2, 3, ...), plus what its effect is worth in the plays
left (a discount saves tokens on later cards, a capacity keeps more, a luggage card brings a
few VP). A turn is then chosen by looking one turn ahead: for each take (a card, or a pile),
the best play it allows now, plus what the hand and reserve left over are worth: each card
kept by its value, discounted for the pile takes it still needs and dropped when the game
will end before it can be paid for, and the tokens kept (up to the limit) a little each. The
same count gives back the card or token that loses least, and places the station master
where nobody will want to take it, so it comes back to the planner.
"""

from __future__ import annotations

import math
import random
from typing import Any, Sequence

from ttr_lab.strategies.trans_orient.tokens import shortfall, token_limit
from ttr_lab.strategies.trans_orient.valuation import Projection
from ttr_lab.games.trans_orient import RULES, Effect, Observation, Phase, Play, TakeCard

_LUGGAGE_VP = 2.5  # about what a kept luggage card brings in the stand-in deck


class Planner:
    name = "planner"
    TUNABLE = {
        "progress": {"low": 0.0, "high": 1.0},
        "patience": {"low": 0.3, "high": 0.95},
        "token_value": {"low": 0.0, "high": 1.0},
        "discount_value": {"low": 0.0, "high": 1.5},
    }

    def __init__(self, *, progress: float = 0.5, patience: float = 0.5, token_value: float = 0.1,
                 discount_value: float = 0.6) -> None:
        self.progress = progress  # share of an objective's next tier credited per step toward it
        self.patience = patience  # a kept card's value is discounted by this per pile take it needs
        self.token_value = token_value  # VP per token kept in the reserve (up to the limit)
        self.discount_value = discount_value  # VP per token a discount is expected to save

    # -- the decision --------------------------------------------------------------------------

    def act(self, obs: Observation, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        if len(legal_actions) == 1:
            return legal_actions[0]
        plan = _Turn(self, obs)
        phase = obs.phase
        me = obs.player
        hand, res = obs.hands[me], obs.reserve(me)
        if phase == Phase.TAKE:
            return max(legal_actions, key=lambda a: (plan.after_take(a), -a.column))
        if phase == Phase.PLAY:
            return max(legal_actions, key=lambda a: (plan.after_play(hand, res, a.card if type(a) is Play else 0),
                                                     type(a) is Play))
        if phase == Phase.STATION:
            return min(legal_actions, key=lambda a: (plan.appeal(a.column), a.column))
        if phase == Phase.LUGGAGE:
            luggage = obs.luggage
            return max(legal_actions, key=lambda a: (plan.projection.worth(obs.played[me], luggage + (a.card,)),
                                                     -a.card))
        if phase == Phase.GIVE_CARD:
            return max(legal_actions,
                       key=lambda a: (plan.kept(tuple(x for x in hand if x != a.card), res), -a.card))
        if phase == Phase.GIVE_TOKEN:
            def without(colour: int) -> tuple[int, ...]:
                return tuple(r - (c == colour) for c, r in enumerate(res))
            return max(legal_actions, key=lambda a: (plan.kept(hand, without(a.colour)), -a.colour))
        return legal_actions[0]


class _Turn:
    """The counts of one decision: card values, turns left, and the look one turn ahead."""

    def __init__(self, planner: Planner, obs: Observation) -> None:
        self.p, self.obs, self.deck = planner, obs, obs.deck
        me = self.me = obs.player
        self.projection = Projection(obs, me, planner.progress)
        self.discount = obs.discount(me)
        self.limit = token_limit(obs, me)
        self.turns_left = self._turns_left()
        self.plays_left = max(0, min(RULES.end_cards - len(obs.played[me]), math.ceil(self.turns_left / 1.5)))
        self._values: dict[int, float] = {}

    def _turns_left(self) -> int:
        """This player's turns after this one, estimated from the leader's pace (a card about
        every turn and a half), exact in the final round."""
        obs, me = self.obs, self.me
        rest = sum(1 for p in obs.order[obs.turn_in_round + 1:] if p == me)
        if obs.final_round:
            return rest
        lead = max(len(p) for p in obs.played)
        per_round = 2 if obs.num_players == 2 else 1
        return rest + max(per_round, math.ceil((RULES.end_cards - lead) * 1.5))

    def value(self, card: int) -> float:
        """What placing ``card`` is worth to this player (before paying for it)."""
        v = self._values.get(card)
        if v is None:
            deck, p = self.deck, self.p
            c = deck.travel[card - 1]
            v = self.projection.gain(card)
            later = max(0, self.plays_left - 1)
            if c.effect == Effect.DISCOUNT:
                v += p.discount_value * later * 0.5
            elif c.effect == Effect.CAPACITY:
                v += p.token_value * later
            elif c.effect == Effect.LUGGAGE:
                v += _LUGGAGE_VP
            self._values[card] = v
        return v

    def kept(self, hand: Sequence[int], reserve: Sequence[int]) -> float:
        """What a hand and reserve kept at the end of this turn are worth for later turns."""
        if self.turns_left <= 0:
            return 0.0
        total = self.p.token_value * min(sum(reserve), self.limit)
        cost = self.deck.cost
        for x in hand:
            takes = math.ceil(shortfall(cost[x], self.discount, reserve) / 3)
            if takes + 1 <= self.turns_left and self.plays_left > 0:
                total += max(0.0, self.value(x)) * 0.85 * self.p.patience ** takes
        return total

    def after_play(self, hand: Sequence[int], reserve: Sequence[int], card: int) -> float:
        """The rest of the turn after playing ``card`` (0: no play) from ``hand`` with ``reserve``."""
        if card:
            cost = self.deck.cost[card]
            reserve = tuple(r - max(0, k - d) for r, k, d in zip(reserve, cost, self.discount))
            hand = tuple(x for x in hand if x != card)
            now = self.value(card)
        else:
            now = 0.0
        if len(hand) > RULES.hand_limit:  # the worst card goes back
            hand = sorted(hand, key=self.value)[-RULES.hand_limit:]
        return now + self.kept(hand, reserve)

    def after_take(self, action: Any) -> float:
        obs, me = self.obs, self.me
        hand, reserve = obs.hands[me], obs.reserve(me)
        col = action.column
        if type(action) is TakeCard:
            hand = hand + (obs.lower[col],)
        else:
            reserve = tuple(r + k for r, k in zip(reserve, obs.pile(col)))
        best = self.after_play(hand, reserve, 0)
        for x in hand:
            if shortfall(self.deck.cost[x], self.discount, reserve) == 0:
                best = max(best, self.after_play(hand, reserve, x))
        return best

    def appeal(self, column: int) -> float:
        """How much the other players may want a column (the station master goes on the least)."""
        card = self.obs.lower[column]
        return max(self.deck.travel[card - 1].vp, sum(self.obs.pile(column)) * 1.5)


def position_value(planner: Planner, obs: Observation, seat: int) -> float:
    """What ``seat``'s position is worth to ``planner``'s way of counting, seen in ``obs``: its
    tableau's projection plus its hand and reserve as kept for later turns (for evaluating a
    game cut short, e.g. at the end of a search's play-out)."""
    view = obs if obs.player == seat else obs._replace(player=seat, luggage=())
    turn = _Turn(planner, view)
    return turn.projection.base + turn.kept(view.hands[seat], view.reserve(seat))
