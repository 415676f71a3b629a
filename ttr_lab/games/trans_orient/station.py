"""The central station between turns: the deal at setup, the end of a round, and the bag.

A mixin of ``GameState`` (state.py), kept apart so each file stays small. Every chance event of
the game is here: the shuffles of setup and the tokens drawn from the bag, all from the state's
SplitMix64 generator (``ttr_lab.core.rng``), so a game is a function of its seed.
"""

from __future__ import annotations

from ttr_lab.core.rng import GOLDEN, MASK, MIX_1, MIX_2, derive_seed, next_u64, shuffle
from ttr_lab.games.trans_orient.cards import ObjectiveType
from ttr_lab.games.trans_orient.rules import K, Phase, Tables
from ttr_lab.games.trans_orient.queries import StateQueries

_TAKE, _OVER = int(Phase.TAKE), int(Phase.OVER)
_DEAL_KEY = 0x70E  # derive_seed(game seed, _DEAL_KEY) seeds the game's generator


class Station(StateQueries):
    __slots__ = ()

    def _deal(self, setup: Tables, seed: int) -> None:
        """Setup in the order of the rules: tokens to the reserves, the two rows (lower first,
        left to right: Further decision 5), the piles, the objectives, the luggage deck, then
        the first player (Decision: chosen by the seed)."""
        deck, rules, n, cols, C = setup.deck, setup.rules, setup.num_players, setup.columns, setup.colours
        self.tables = setup
        self.rng = derive_seed(seed, _DEAL_KEY)
        self.bag = [rules.tokens_per_colour] * C
        self.reserves = [0] * (n * C)
        for p in range(n):
            for _ in range(rules.start_tokens):
                c = self._draw_token()
                if c >= 0:
                    self.reserves[p * C + c] += 1
        cards = list(range(1, len(deck.travel) + 1))
        self.rng = shuffle(cards, self.rng)
        self.lower = cards[:cols]
        self.upper = cards[cols:2 * cols]
        self.deck = tuple(cards[2 * cols:])
        self.deck_known = 0
        self.piles = [0] * (cols * C)
        for col in range(cols):
            self._fill_pile(col, rules.pile_size)
        chosen = []
        for kind in ObjectiveType:
            options = deck.objectives_of(kind)
            self.rng, z = next_u64(self.rng)
            chosen.append(options[(z * len(options)) >> 64].number)
        self.objectives = tuple(chosen)
        luggage = list(range(1, len(deck.luggage) + 1))
        self.rng = shuffle(luggage, self.rng)
        self.lug_deck = tuple(luggage)
        self.lug_by = (-1,) * len(luggage)
        self.offer = ()
        self.rng, z = next_u64(self.rng)
        first = (z * n) >> 64
        self.hands = [()] * n
        self.played = [()] * n
        self.luggage = [()] * n
        self.discounts = [0] * (n * C)
        self.capacity = [0] * n
        self.counters = [0] * (n * K)
        self.round = 1
        self.starter = self.master = self.player = first
        self.order = setup.orders[first]
        self.tidx = 0
        self.mcol = -1
        self.final = self.stalled = False
        self.turns = 0
        self.log = None
        self.log_len = 0
        self.phase = _TAKE

    def _end_round(self) -> None:
        setup = self.tables
        rules, cols = setup.rules, setup.columns
        if self.final or self.round >= rules.max_rounds:
            # Further decision 6: the round-end steps are not carried out. A game whose 7th card
            # comes in the 40th round ends normally (Decision T6).
            self.stalled = not self.final
            self.phase = _OVER
            return
        lower, upper = self.lower, self.upper
        for col in range(cols):
            if lower[col]:
                self._fill_pile(col, rules.round_end_tokens)
        if setup.passes_master:
            self.master = 1 - self.starter
        elif self.mcol >= 0:  # not taken: back to the player who started the round
            self.master = self.starter
        self.mcol = -1
        slid = []
        for col in range(cols):
            if not lower[col] and upper[col]:
                lower[col], upper[col] = upper[col], 0
                slid.append(col)
        deck = self.deck
        for col in range(cols):
            if not upper[col] and deck:
                upper[col] = deck[0]
                deck = deck[1:]
        self.deck = deck
        if self.deck_known > len(deck):
            self.deck_known = len(deck)
        for col in slid:  # a card that stayed keeps its pile (Decision T8)
            self._fill_pile(col, rules.pile_size)
        if not any(lower):  # no column to take in a new round
            self.stalled = True
            self.phase = _OVER
            return
        self.round += 1
        self.starter = self.player = self.master
        self.order = setup.orders[self.master]
        self.tidx = 0
        self.phase = _TAKE

    # -- the bag -------------------------------------------------------------------------------

    def _draw_token(self) -> int:
        """A token drawn at random from the bag (its colour), or -1 when the bag is empty."""
        bag = self.bag
        total = sum(bag)
        if not total:
            return -1
        # SplitMix64 (ttr_lab.core.rng.next_u64), inlined: this runs for every token drawn.
        z = self.rng = (self.rng + GOLDEN) & MASK
        z = (z ^ (z >> 30)) * MIX_1 & MASK
        z = (z ^ (z >> 27)) * MIX_2 & MASK
        r = ((z ^ (z >> 31)) * total) >> 64
        for c, k in enumerate(bag):
            if r < k:
                bag[c] = k - 1
                return c
            r -= k
        raise AssertionError("unreachable")

    def _fill_pile(self, col: int, count: int) -> None:
        """Add up to ``count`` tokens from the bag to a column's pile (what there is, when short)."""
        base = col * self.tables.colours
        piles = self.piles
        for _ in range(count):
            c = self._draw_token()
            if c < 0:
                return
            piles[base + c] += 1
