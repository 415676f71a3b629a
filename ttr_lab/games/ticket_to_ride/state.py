"""``GameState``: the whole game as plain integers, and the hot path (apply, clone; the legal
actions come from ``LegalActions`` in legal.py, the card moves from ``CardFlow`` in card_flow.py).

Everything a search runs millions of times lives in these three modules, over compact state:
hands are one flat list of counts (``hands[p * NUM_CARD_KINDS + kind]``), the draw pile a list
of card kinds (top = end), the discard pile a count per kind, track ownership a list of seats, the
ticket deck and each player's tickets tuples (shared between clones until changed), the public
history an immutable linked list (shared by every clone). The slower, friendlier views
(``observation``, ``snapshot``, ``result``, ``history``) and the named readers strategies use
instead of these slots (``hand``, ``held_tickets``, ``track_owners``...) come from ``StateViews``
in views.py. The module is long because the hot path is kept in one class on purpose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, GRAY, LOCOMOTIVE, NUM_CARD_KINDS, NUM_COLOURS
from ttr_lab.core.errors import IllegalActionError
from ttr_lab.core.rng import derive_seed, shuffle
from ttr_lab.games.ticket_to_ride.actions import (
    DRAW_BLIND, DRAW_TICKETS, PASS, Action, Claim, DrawBlind, DrawMarket, DrawTickets,
    KeepTickets, Pass, TicketsKept,
)
from ttr_lab.games.ticket_to_ride.game import Game, Phase, game_for
from ttr_lab.games.ticket_to_ride.network import twin_blocks, twin_closes
from ttr_lab.games.ticket_to_ride.card_flow import NO_CARD, CardFlow
from ttr_lab.games.ticket_to_ride.legal import LegalActions
from ttr_lab.games.ticket_to_ride.views import StateViews
from ttr_lab.games.ticket_to_ride.board import TicketDeck
from ttr_lab.games.ticket_to_ride.ruleset import Rejects

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.board import Board
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

_SETUP, _TURN, _SECOND, _KEEP, _OVER = (int(p) for p in Phase)
_K = NUM_CARD_KINDS  # the stride of a hand in the flat ``hands`` list
_NO_CARD = NO_CARD
_new_object = object.__new__


class GameState(LegalActions, CardFlow, StateViews):
    """One position of a game. Mutable: ``apply`` changes it in place; ``clone`` copies it.

    Every slot is set in ``assemble_state`` (below the class), whoever builds the state, except
    the ``scored`` cache, which ``result()`` sets when first asked."""

    __slots__ = ()  # every slot is StateSlots' (slots.py)

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def new(cls, game: Game, seed: int) -> "GameState":
        """Shuffle, deal cards and market, deal the initial tickets (each player then chooses)."""
        rules, n = game.ruleset, game.num_players
        pile = list(game.deck)
        rng = shuffle(pile, derive_seed(seed, 0x7772))
        hands = [0] * (n * _K)
        for p in range(n):
            for _ in range(rules.initial_hand):
                hands[p * _K + pile.pop()] += 1
        deck = [t.id for t in game.board.tickets if t.deck is TicketDeck.REGULAR]
        rng = shuffle(deck, rng)
        deal = rules.initial_tickets
        longs: list[int] = []
        if rules.initial_long_tickets:  # e.g. Legendary Asia: a long ticket first in each offer
            longs = [t.id for t in game.board.tickets if t.deck is TicketDeck.LONG]
            rng = shuffle(longs, rng)
        k = rules.initial_long_tickets
        ticket_deck = tuple(deck[n * deal:])
        # Tickets out of the game: long tickets nobody was dealt (and, when the ruleset sends
        # them to the box, the ones rejected at setup).
        boxed = tuple(longs[n * k:])
        s = assemble_state(
            game, _SETUP, 0, hands=hands,
            known=[0] * (n * _K),  # cards each player is publicly known to hold
            pile=pile, discard=[0] * _K, market=[], owner=[-1] * len(game.track_length),
            trains=[rules.trains_per_player] * n, points=[0] * n, tickets=[()] * n,
            offers=[tuple(longs[p * k:(p + 1) * k] + deck[p * deal:(p + 1) * deal]) for p in range(n)],
            ticket_deck=ticket_deck,
            # Per deck position, the seat that put that ticket back (-1: never seen): a player
            # knows where the tickets it returned lie, since the deck is drawn from the top only.
            returned_by=(-1,) * len(ticket_deck),
            boxed=boxed, boxed_by=(-1,) * len(boxed),  # who put each boxed ticket there (-1: nobody saw it)
            rng=rng, open_groups=list(game.initial_groups),  # open tracks, by payment group
        )
        s._refill_market()
        return s

    def clone(self) -> "GameState":
        """An independent copy. Tuples and the history are shared (never mutated), and so are
        ``tickets`` and ``offers``: they change rarely, so every change copies them first."""
        return assemble_state(
            self.game, self.phase, self.player, self.hands[:], self.known[:], self.pile[:],
            self.discard[:], self.market[:], self.owner[:], self.trains[:], self.points[:],
            self.tickets, self.offers, self.ticket_deck, self.returned_by, self.boxed,
            self.boxed_by, self.rng, self.final_turns, self.passes, self.turns, self.stalled,
            self.log, self.log_len, self.open_groups[:],
        )

    __copy__ = clone

    # -- queries -------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase == _OVER

    # -- apply -------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Play ``action`` for the current player; ``IllegalActionError`` says why if it can't be."""
        kind = type(action)
        phase = self.phase
        # Dispatched on the exact type, the fastest test; mypy narrows on isinstance only.
        if kind is Claim and phase == _TURN:
            self._claim(action)  # type: ignore[arg-type]
        elif kind is DrawBlind and (phase == _TURN or phase == _SECOND):
            self._draw_blind()
        elif kind is DrawMarket and (phase == _TURN or phase == _SECOND):
            self._draw_market(action)  # type: ignore[arg-type]
        elif kind is KeepTickets and (phase == _KEEP or phase == _SETUP):
            self._keep(action)  # type: ignore[arg-type]
        elif kind is DrawTickets and phase == _TURN:
            self._draw_tickets()
        elif kind is Pass and phase == _TURN:
            self._pass()
        else:
            self._refuse(action, self._phase_reason(action))

    def _refuse(self, action: Any, reason: str) -> None:
        raise IllegalActionError(f"illegal action {str(action)!r} for player {self.player}: {reason}")

    def _log(self, action: Any, card: int = _NO_CARD) -> None:
        self.log = (self.player, action, card, self.log)
        self.log_len += 1

    def _claim(self, a: Claim) -> None:
        g = self.game
        t, colour, cards, locos = a.track, a.colour, a.cards, a.locomotives
        p = self.player
        base = p * _K
        hands = self.hands
        if not 0 <= t < len(self.owner):
            self._refuse(a, f"there is no track #{t}")
        owner = self.owner
        if owner[t] >= 0:
            self._refuse(a, f"the track is already claimed by player {owner[t]}")
        twin = g.track_twin[t]
        if twin >= 0 and twin_blocks(owner[twin], p, g.doubles_shared):
            if twin_closes(owner[twin], g.doubles_shared):
                self._refuse(a, f"with {g.num_players} players only one track of a double route may be claimed")
            self._refuse(a, "a player may not claim both tracks of a double route")
        length = g.track_length[t]
        if cards + locos != length or cards < 0 or locos < 0:
            self._refuse(a, f"the track needs {length} cards, the payment is {cards} + {locos} locomotives")
        track_colour = g.track_colour[t]
        if cards == 0:
            if colour != LOCOMOTIVE:
                self._refuse(a, "a payment of only locomotives is written with colour LOCOMOTIVE")
        elif colour == LOCOMOTIVE or not 0 <= colour < NUM_COLOURS or (track_colour != GRAY and colour != track_colour):
            self._refuse(a, f"a {CARD_NAMES[track_colour] if track_colour != GRAY else 'gray'} track cannot be paid with {CARD_NAMES[colour] if 0 <= colour < NUM_CARD_KINDS else colour}")
        if locos < g.track_ferry[t]:
            self._refuse(a, f"this ferry needs at least {g.track_ferry[t]} locomotive(s)")
        if cards and hands[base + colour] < cards:
            self._refuse(a, f"the player has {hands[base + colour]} {CARD_NAMES[colour]}, not {cards}")
        if hands[base + LOCOMOTIVE] < locos:
            self._refuse(a, f"the player has {hands[base + LOCOMOTIVE]} locomotives, not {locos}")
        need = g.track_trains[t]
        if self.trains[p] < need:
            self._refuse(a, f"the track needs {need} trains and the player has {self.trains[p]}")
        discard = self.discard
        known = self.known
        if cards:
            hands[base + colour] -= cards
            discard[colour] += cards
            k = known[base + colour] - cards
            known[base + colour] = k if k > 0 else 0
        if locos:
            hands[base + LOCOMOTIVE] -= locos
            discard[LOCOMOTIVE] += locos
            k = known[base + LOCOMOTIVE] - locos
            known[base + LOCOMOTIVE] = k if k > 0 else 0
        if not self.pile:  # the paid cards form the new draw pile at once
            self._restock()
        owner[t] = p
        self.trains[p] -= need
        self.points[p] += g.track_points[t]
        groups = self.open_groups
        gi = g.track_group[t]
        groups[gi] = tuple(x for x in groups[gi] if x != t)
        if twin >= 0 and twin_closes(p, g.doubles_shared):
            gi = g.track_group[twin]
            groups[gi] = tuple(x for x in groups[gi] if x != twin)
        self._log(a)
        if len(self.market) < g.ruleset.market_size:
            self._refill_market()
        self._end_turn(passed=False)

    def _draw_blind(self) -> None:
        card = self._take_from_pile()
        if card == _NO_CARD:
            self._refuse(DRAW_BLIND, "the draw pile and the discard pile are both empty")
        self.hands[self.player * _K + card] += 1
        self._log(DRAW_BLIND)
        self._after_draw(locomotive_from_market=False)

    def _draw_market(self, a: DrawMarket) -> None:
        market = self.market
        slot = a.slot
        if not 0 <= slot < len(market):
            self._refuse(a, f"the market has {len(market)} cards (slots 0..{len(market) - 1})")
        card = market[slot]
        if self.phase == _SECOND and card == LOCOMOTIVE:
            self._refuse(a, "a face-up locomotive may not be taken as the second card")
        i = self.player * _K + card
        self.hands[i] += 1
        self.known[i] += 1
        self._log(a, card)
        replacement = self._take_from_pile()
        if replacement == _NO_CARD:
            del market[slot]
        else:
            market[slot] = replacement
            self._check_locomotives()
        self._after_draw(locomotive_from_market=card == LOCOMOTIVE)

    def _after_draw(self, locomotive_from_market: bool) -> None:
        if self.phase == _SECOND or locomotive_from_market:
            self._end_turn(passed=False)
            return
        self.phase = _SECOND
        # Decision: with no legal second draw the action ends after one card.
        if not self.pile and _only_locomotives(self.market):
            self._end_turn(passed=False)

    def _draw_tickets(self) -> None:
        if not self.ticket_deck:
            self._refuse(DRAW_TICKETS, "the ticket deck is empty")
        k = self.game.ruleset.ticket_draw
        offers = self.offers[:]
        offers[self.player] = self.ticket_deck[:k]
        self.offers = offers
        self.ticket_deck = self.ticket_deck[k:]
        self.returned_by = self.returned_by[k:]
        self._log(DRAW_TICKETS)
        self.phase = _KEEP

    def _keep(self, a: KeepTickets) -> None:
        p = self.player
        offered = self.offers[p]
        rules = self.game.ruleset
        minimum = rules.initial_keep_min if self.phase == _SETUP else rules.ticket_keep_min
        idx = a.indices
        if any(not 0 <= i < len(offered) for i in idx) or len(set(idx)) != len(idx):
            self._refuse(a, f"{len(offered)} tickets are on offer (indices 0..{len(offered) - 1}), each kept once")
        if len(idx) < min(minimum, len(offered)):
            self._refuse(a, f"at least {min(minimum, len(offered))} of the {len(offered)} offered tickets must be kept")
        kept = tuple(offered[i] for i in sorted(idx))
        returned = tuple(t for i, t in enumerate(offered) if i not in idx)
        self.tickets = self.tickets[:]
        self.tickets[p] = self.tickets[p] + kept
        self.offers = self.offers[:]
        self.offers[p] = ()
        if self.phase == _SETUP and rules.initial_rejects is Rejects.BOX:
            self.boxed = self.boxed + returned
            self.boxed_by = self.boxed_by + (p,) * len(returned)
        else:
            self.ticket_deck = self.ticket_deck + returned  # to the bottom
            self.returned_by = self.returned_by + (p,) * len(returned)
        self._log(TicketsKept(len(kept)))
        if self.phase == _SETUP:
            if p + 1 < self.game.num_players:
                self.player = p + 1
            else:
                self.player = 0
                self.phase = _TURN
        else:
            self._end_turn(passed=False)

    def _pass(self) -> None:
        if self._draw_actions(first=True) or self.ticket_deck or self._has_claim():
            self._refuse(PASS, "a player may pass only when no other action is legal")
        self._log(PASS)
        self._end_turn(passed=True)

    def _has_claim(self) -> bool:
        out: list = []
        self._claims_into(out)
        return bool(out)

    def _end_turn(self, passed: bool) -> None:
        n = self.game.num_players
        self.turns += 1
        if passed:
            self.passes += 1
            if self.passes >= n:  # Decision: a full round of passes ends the game
                self.stalled = True
                self.phase = _OVER
                return
        else:
            self.passes = 0
        if self.final_turns > 0:
            self.final_turns -= 1
            if self.final_turns == 0:
                self.phase = _OVER
                return
        elif self.final_turns < 0 and self.trains[self.player] <= self.game.ruleset.end_trains:
            self.final_turns = n  # everyone else once more, and the trigger player too
        self.player = (self.player + 1) % n
        self.phase = _TURN


def assemble_state(
    game: Game, phase: int, player: int, hands: list[int], known: list[int], pile: list[int],
    discard: list[int], market: list[int], owner: list[int], trains: list[int], points: list[int],
    tickets: list[tuple[int, ...]], offers: list[tuple[int, ...]], ticket_deck: tuple[int, ...],
    returned_by: tuple[int, ...], boxed: tuple[int, ...], boxed_by: tuple[int, ...], rng: int,
    final_turns: int = -1, passes: int = 0, turns: int = 0, stalled: bool = False, log: Any = None,
    log_len: int = 0, open_groups: list[tuple[int, ...]] | None = None,
) -> GameState:
    """The one place a ``GameState`` is assembled: ``GameState.new``, ``clone``, ``restore_state``
    and ``determinize`` all come through here, so a new slot is added here once. To start or
    rebuild a game use those, not this. ``open_groups`` is derived from ``owner`` unless given.

    A function rather than ``__init__``: ``clone`` runs it millions of times in a search, and a
    class call costs about a tenth more than this."""
    s = _new_object(GameState)
    s.game = game
    s.phase = phase
    s.player = player
    s.hands = hands
    s.known = known
    s.pile = pile
    s.discard = discard
    s.market = market
    s.owner = owner
    s.open_groups = game.open_groups(owner) if open_groups is None else open_groups
    s.trains = trains
    s.points = points
    s.tickets = tickets
    s.offers = offers
    s.ticket_deck = ticket_deck
    s.returned_by = returned_by
    s.boxed = boxed
    s.boxed_by = boxed_by
    s.rng = rng
    s.final_turns = final_turns
    s.passes = passes
    s.turns = turns
    s.stalled = stalled
    s.log = log
    s.log_len = log_len
    return s


def _only_locomotives(market: list[int]) -> bool:
    """True when no market card may be taken as a second draw."""
    for card in market:
        if card != LOCOMOTIVE:
            return False
    return True


def new_game(board: "Board", num_players: int, seed: int, ruleset: "Ruleset | None" = None) -> GameState:
    """A new seeded game: cards and tickets dealt; player 0 first chooses initial tickets."""
    return GameState.new(game_for(board, num_players, ruleset), seed)
