"""``CardFlow``: how train cards move between the draw pile, the market and the discard pile.

Drawing from the pile (reshuffling the discards into a new pile the moment it runs out), refilling
the market, and the three-locomotive redeal with its loop guard (docs/rules.md). A mixin of
``GameState``: these run inside ``apply``.
"""

from __future__ import annotations

from ttr_lab.core.rng import shuffle
from ttr_lab.games.ticket_to_ride.colours import LOCOMOTIVE, NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.slots import StateSlots

_K = NUM_CARD_KINDS
NO_CARD = -1


class CardFlow(StateSlots):
    __slots__ = ()

    def _take_from_pile(self) -> int:
        """The top card of the draw pile (or -1 if there is none). When the pile runs out, the
        discard pile is shuffled into a new one at once, as at the table."""
        pile = self.pile
        if not pile:
            return NO_CARD
        card = pile.pop()
        if not pile:
            self._restock()
        return card

    def _restock(self) -> None:
        """Shuffle the discard pile into a new draw pile (only called when the pile is empty)."""
        discard = self.discard
        if any(discard):
            pile = self.pile
            for c in range(_K):
                pile += [c] * discard[c]
            self.discard = [0] * _K
            self.rng = shuffle(pile, self.rng)

    def _refill_market(self) -> None:
        market = self.market
        size = self.game.ruleset.market_size
        added = False
        while len(market) < size:
            card = self._take_from_pile()
            if card == NO_CARD:
                break
            market.append(card)
            added = True
        if added:
            self._check_locomotives()

    def _check_locomotives(self) -> None:
        """The three-locomotive rule, with the loop guard of the rules' Decision."""
        rules = self.game.ruleset
        limit = rules.market_locomotive_limit
        if not limit:
            return
        redeals = 0
        while self.market.count(LOCOMOTIVE) >= limit and redeals < rules.max_redeals:
            market, pile, discard = self.market, self.pile, self.discard
            non_locos = (
                len(market) - market.count(LOCOMOTIVE) + len(pile) - pile.count(LOCOMOTIVE)
                + sum(discard) - discard[LOCOMOTIVE]
            )
            if non_locos < rules.redeal_min_non_locomotives:
                return
            for card in market:
                discard[card] += 1
            market.clear()
            if not pile:
                self._restock()
            while len(market) < rules.market_size:
                card = self._take_from_pile()
                if card == NO_CARD:
                    break
                market.append(card)
            redeals += 1
