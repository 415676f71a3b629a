"""``GameState``: the whole game as plain integers, and the hot path (legal actions, apply, clone).

Cards are their printed numbers (0 = no card). The central station is two lists of one card per
column (``lower``: takeable this round; ``upper``: next round's); a column is open while its
lower card is there. Token counts are flat lists by colour (``piles[column * C + colour]``,
``reserves[player * C + colour]``, ``bag[colour]``). Hands, tableaux, luggage and the decks are
tuples (shared between clones until changed); the draw deck and the luggage deck are listed top
first. The public history is an immutable linked list shared by every clone. The slower queries
(observation, snapshot, result) come from ``StateQueries`` in queries.py, the deal, the end of a
round and the bag from ``Station`` in station.py.

Where the rules leave a choice to the player it is an action; where only one choice exists
(one column for the station master, nothing affordable to play, a single luggage card, excess
tokens of a single colour) the engine makes it (Decision T3 in docs/trans-orient-express.md).
"""

from __future__ import annotations

from typing import Any

from ttr_lab.core.actions import check_whole_numbers, forgery
from ttr_lab.core.errors import IllegalActionError
from ttr_lab.games.trans_orient.actions import (
    ACTION_TYPES, LUGGAGE_KEPT, NO_PLAY, GiveCard, GiveToken, KeepLuggage, NoPlay, PlaceMaster, Play, TakeCard, TakeTokens,
)
from ttr_lab.games.trans_orient.cards import Effect
from ttr_lab.games.trans_orient.rules import (
    CARD_TAKES, CARDS_GIVEN, K, PILE_TAKES, TOKENS_PAID, TOKENS_WASTED, Phase, Tables,
)
from ttr_lab.games.trans_orient.station import Station

_TAKE, _STATION, _PLAY, _LUGGAGE, _GIVE_CARD, _GIVE_TOKEN, _OVER = (int(p) for p in Phase)
_DISCOUNT, _CAPACITY, _LUGGAGE_EFFECT = int(Effect.DISCOUNT), int(Effect.CAPACITY), int(Effect.LUGGAGE)


class GameState(Station):
    """One position of a game. Mutable: ``apply`` changes it in place; ``clone`` copies it."""

    __slots__ = ()  # every slot is StateSlots' (slots.py)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def new(cls, setup: Tables, seed: int) -> "GameState":
        """A new seeded game, set up as the rules say (see ``Station._deal``)."""
        s = object.__new__(cls)
        s._deal(setup, seed)
        return s

    def clone(self) -> "GameState":
        """An independent copy (tuples and the history are shared: they are never mutated)."""
        c = object.__new__(GameState)
        c.tables = self.tables
        c.phase = self.phase
        c.player = self.player
        c.round = self.round
        c.tidx = self.tidx
        c.order = self.order
        c.starter = self.starter
        c.master = self.master
        c.mcol = self.mcol
        c.lower = self.lower[:]
        c.upper = self.upper[:]
        c.piles = self.piles[:]
        c.deck = self.deck
        c.deck_known = self.deck_known
        c.hands = self.hands[:]
        c.played = self.played[:]
        c.reserves = self.reserves[:]
        c.bag = self.bag[:]
        c.discounts = self.discounts[:]
        c.capacity = self.capacity[:]
        c.luggage = self.luggage[:]
        c.lug_deck = self.lug_deck
        c.lug_by = self.lug_by
        c.offer = self.offer
        c.objectives = self.objectives
        c.final = self.final
        c.stalled = self.stalled
        c.rng = self.rng
        c.turns = self.turns
        c.counters = self.counters[:]
        c.log = self.log
        c.log_len = self.log_len
        return c

    __copy__ = clone

    # -- queries -------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase == _OVER

    def legal_actions(self) -> list[Any]:
        """Every legal action, in a fixed order: takes by column (cards, then piles); station
        master by column; ``no play`` then plays by card number; luggage, cards by number;
        tokens by colour. ``[]`` once the game is over."""
        phase = self.phase
        table = self.tables.actions
        if phase == _TAKE:
            lower = self.lower
            out = [table.take_card[c] for c in range(len(lower)) if lower[c]]
            return out + [table.take_tokens[a.column] for a in out]
        if phase == _PLAY:
            return [NO_PLAY] + [table.play[x] for x in self.playable()]
        if phase == _STATION:
            lower = self.lower
            return [table.master[c] for c in range(len(lower)) if lower[c]]
        if phase == _LUGGAGE:
            return [table.keep_luggage[x] for x in sorted(self.offer)]
        if phase == _GIVE_CARD:
            return [table.give_card[x] for x in self.hands[self.player]]
        if phase == _GIVE_TOKEN:
            C = self.tables.colours
            base = self.player * C
            res = self.reserves
            return [table.give_token[c] for c in range(C) if res[base + c]]
        return []

    def playable(self, player: int | None = None) -> list[int]:
        """The cards in ``player``'s hand (default: the one to move) that the reserve pays for."""
        p = self.player if player is None else player
        C = self.tables.colours
        base = p * C
        res, disc, costs = self.reserves, self.discounts, self.tables.deck.cost
        out = []
        for x in self.hands[p]:
            cost = costs[x]
            for c in range(C):
                if cost[c] - disc[base + c] > res[base + c]:
                    break
            else:
                out.append(x)
        return out

    # -- apply -------------------------------------------------------------------------------

    def apply(self, action: Any) -> None:
        """Play ``action`` for the player to move; ``IllegalActionError`` says why if it can't be."""
        own = self.tables.actions.by_object.get(id(action))  # the common case inline
        action = self._own(action) if own is None else own
        kind = type(action)
        phase = self.phase
        if phase == _TAKE and (kind is TakeCard or kind is TakeTokens):
            self._take(action, kind is TakeCard)
        elif phase == _PLAY and kind is Play:
            self._play(action)
        elif phase == _PLAY and kind is NoPlay:
            self._log(action)
            self._limits()
        elif phase == _STATION and kind is PlaceMaster:
            self._place(action)
        elif phase == _LUGGAGE and kind is KeepLuggage:
            self._keep(action)
        elif phase == _GIVE_CARD and kind is GiveCard:
            self._give_card(action)
        elif phase == _GIVE_TOKEN and kind is GiveToken:
            self._give_token(action)
        else:
            self._refuse(action, self._phase_reason(action))

    def _own(self, action: Any) -> Any:
        """The table's own object equal to ``action`` in every field (its text included), so
        what is logged and recorded is what was played; ``action`` itself when the table has no
        equal (the rules then say why it is refused)."""
        if type(action) not in ACTION_TYPES:
            return action  # refused by the phase check, naming its type
        try:
            own = self.tables.actions.by_value.get(action)
        except TypeError:  # an unhashable field is no action's
            own = None
        if own is None:  # out of the table's range: the rules say why, reading plain numbers only
            for name in action.__dataclass_fields__:
                if name != "label":
                    check_whole_numbers(action, name)
            return action
        lie = forgery(action, own)
        if lie:
            self._refuse(action, f"{lie} (ask legal_actions() or parse_action())")
        return own

    def _refuse(self, action: Any, reason: str) -> None:
        raise IllegalActionError(f"illegal action {str(action)!r} for player {self.player}: {reason}")

    def _log(self, action: Any, card: int = 0) -> None:
        self.log = (self.player, action, card, self.log)
        self.log_len += 1

    def _column(self, action: Any) -> int:
        col = action.column
        if not 0 <= col < len(self.lower):
            self._refuse(action, f"there are {len(self.lower)} columns (0 to {len(self.lower) - 1})")
        if not self.lower[col]:
            self._refuse(action, f"column {col} is empty")
        return col

    def _take(self, action: Any, card: bool) -> None:
        col = self._column(action)
        p, C = self.player, self.tables.colours
        x = self.lower[col]
        piles = self.piles
        base = col * C
        if card:  # the card into the hand, its pile back into the bag
            self.hands[p] = tuple(sorted(self.hands[p] + (x,)))
            bag = self.bag
            for c in range(C):
                bag[c] += piles[base + c]
            self.counters[p * K + CARD_TAKES] += 1
        else:  # the pile into the reserve, the card under the draw deck (Decision: in sight)
            res = self.reserves
            rbase = p * C
            for c in range(C):
                res[rbase + c] += piles[base + c]
            self.deck = self.deck + (x,)
            self.deck_known += 1
            self.counters[p * K + PILE_TAKES] += 1
        for c in range(C):
            piles[base + c] = 0
        self.lower[col] = 0
        if self.mcol == col:  # emptying the station master's column takes it
            self.master = p
            self.mcol = -1
        self._log(action, x)
        if self.tidx == 0 and not self.tables.passes_master:
            self._enter_station()
        else:
            self._enter_play()

    def _enter_station(self) -> None:
        open_columns = [c for c, x in enumerate(self.lower) if x]
        if len(open_columns) > 1:
            self.phase = _STATION
            return
        if open_columns:  # a single choice: placed there
            self.mcol = open_columns[0]
        # Further decision 3: with no column left the first player keeps the station master.
        self._enter_play()

    def _place(self, action: PlaceMaster) -> None:
        self.mcol = self._column(action)
        self._log(action)
        self._enter_play()

    def _enter_play(self) -> None:
        if self.playable():
            self.phase = _PLAY
        else:  # nothing affordable: the optional action is skipped
            self._limits()

    def _play(self, action: Play) -> None:
        x = action.card
        p, setup = self.player, self.tables
        C = setup.colours
        if x not in self.hands[p]:
            self._refuse(action, f"card {x} is not in the player's hand {list(self.hands[p])}")
        base = p * C
        res, disc, bag = self.reserves, self.discounts, self.bag
        cost = setup.deck.cost[x]
        need = [cost[c] - disc[base + c] for c in range(C)]
        for c in range(C):
            if need[c] > res[base + c]:
                self._refuse(action, f"it costs {need[c]} {setup.deck.colours[c]} after discounts; "
                                     f"the reserve holds {res[base + c]}")
        paid = 0
        for c in range(C):
            if need[c] > 0:
                res[base + c] -= need[c]
                bag[c] += need[c]
                paid += need[c]
        self.counters[p * K + TOKENS_PAID] += paid
        self.hands[p] = tuple(y for y in self.hands[p] if y != x)
        self.played[p] = self.played[p] + (x,)
        if len(self.played[p]) >= setup.rules.end_cards:
            self.final = True  # the game ends at the end of this round
        self._log(action, x)
        effect = setup.deck.effect[x]
        if effect == _DISCOUNT:
            disc[base + setup.deck.effect_colour[x]] += 1
        elif effect == _CAPACITY:
            self.capacity[p] += 1
        elif effect == _LUGGAGE_EFFECT:
            k = min(setup.rules.luggage_draw, len(self.lug_deck))
            drawn = self.lug_deck[:k]
            self.lug_deck = self.lug_deck[k:]
            self.lug_by = self.lug_by[k:]
            if k > 1:
                self.offer = drawn
                self.phase = _LUGGAGE
                return
            # Decision (rules file): with one card left, take it; with none, nothing.
            self.luggage[p] = tuple(sorted(self.luggage[p] + drawn))
        self._limits()

    def _keep(self, action: KeepLuggage) -> None:
        x = action.card
        p = self.player
        if x not in self.offer:
            self._refuse(action, f"luggage card {x} is not among those drawn {sorted(self.offer)}")
        rest = tuple(y for y in self.offer if y != x)
        self.luggage[p] = tuple(sorted(self.luggage[p] + (x,)))
        self.lug_deck = self.lug_deck + rest  # under the luggage deck; this player knows which
        self.lug_by = self.lug_by + (p,) * len(rest)
        self.offer = ()
        self._log(LUGGAGE_KEPT)
        self._limits()

    def _limits(self) -> None:
        """End of turn: cards given back first, then tokens (Further decision 9); the player
        chooses which (Decision), one at a time."""
        p, setup = self.player, self.tables
        if len(self.hands[p]) > setup.rules.hand_limit:
            self.phase = _GIVE_CARD
            return
        C = setup.colours
        base = p * C
        res = self.reserves
        excess = sum(res[base:base + C]) - setup.rules.reserve_limit - self.capacity[p]
        if excess > 0:
            held = [c for c in range(C) if res[base + c]]
            if len(held) > 1:
                self.phase = _GIVE_TOKEN
                return
            c = held[0]  # a single colour: no choice
            res[base + c] -= excess
            self.bag[c] += excess
            self.counters[p * K + TOKENS_WASTED] += excess
        self._next_turn()

    def _give_card(self, action: GiveCard) -> None:
        x = action.card
        p = self.player
        if x not in self.hands[p]:
            self._refuse(action, f"card {x} is not in the player's hand {list(self.hands[p])}")
        self.hands[p] = tuple(y for y in self.hands[p] if y != x)
        self.deck = self.deck + (x,)
        self.deck_known += 1
        self.counters[p * K + CARDS_GIVEN] += 1
        self._log(action, x)
        self._limits()

    def _give_token(self, action: GiveToken) -> None:
        c = action.colour
        C = self.tables.colours
        i = self.player * C + c
        if not 0 <= c < C or not self.reserves[i]:
            self._refuse(action, "the reserve holds no token of that colour")
        self.reserves[i] -= 1
        self.bag[c] += 1
        self.counters[self.player * K + TOKENS_WASTED] += 1
        self._log(self.tables.actions.give_token[c])
        self._limits()

    # -- turns and rounds ------------------------------------------------------------------------

    def _next_turn(self) -> None:
        self.turns += 1
        self.tidx += 1
        # The round ends after its last turn, or earlier when no column is left (a short round:
        # Further decision 2).
        if self.tidx >= len(self.order) or not any(self.lower):
            self._end_round()
            return
        self.player = self.order[self.tidx]
        self.phase = _TAKE
