"""A ``GameState`` as a kernel state array and back, in one canonical form (the ticket ring's
head at 0, every unused slot 0), so two positions are equal exactly when their arrays are.

This is the bridge the differential tests walk: the engine and the kernels play the same game
side by side and their positions are compared as arrays after every action.
"""

from __future__ import annotations

import numpy as np

from ttr_lab.games.ticket_to_ride.card_flow import NO_CARD
from ttr_lab.games.ticket_to_ride.actions import DrawMarket
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.kernels.tables import game_array
from ttr_lab.games.ticket_to_ride.state import GameState, assemble_state

_MASK = (1 << 64) - 1


def _signed(x: int) -> int:
    x &= _MASK
    return x - (1 << 64) if x >> 63 else x


def to_array(state: GameState) -> np.ndarray:
    """The kernel state of ``state`` (its history is not part of it)."""
    game = state.game
    g = game_array(game)
    n, nt, offer = game.num_players, int(g[L.N_TICKETS]), int(g[L.MAX_OFFER])
    s = np.zeros(int(g[L.S_SIZE]), dtype=np.int64)
    s[L.PHASE], s[L.PLAYER], s[L.FINAL_TURNS] = int(state.phase), state.player, state.final_turns
    s[L.PASSES], s[L.TURNS], s[L.STALLED] = state.passes, state.turns, int(state.stalled)
    s[L.RNG] = _signed(state.rng)
    s[L.PILE_N], s[L.MARKET_N] = len(state.pile), len(state.market)
    s[L.DECK_HEAD], s[L.DECK_N], s[L.BOXED_N] = 0, len(state.ticket_deck), len(state.boxed)
    last = state.log
    s[L.LAST_CARD] = last[2] if last is not None and type(last[1]) is DrawMarket else NO_CARD

    def put(slot: int, values: object) -> None:
        values = list(values)  # type: ignore[call-overload]
        at = int(g[slot])
        s[at:at + len(values)] = values

    put(L.S_HANDS, state.hands)
    put(L.S_KNOWN, state.known)
    put(L.S_PILE, state.pile)
    put(L.S_DISCARD, state.discard)
    put(L.S_MARKET, state.market)
    put(L.S_OWNER, state.owner)
    put(L.S_TRAINS, state.trains)
    put(L.S_POINTS, state.points)
    for p in range(n):
        at = int(g[L.S_TICKETS]) + p * nt
        s[at:at + len(state.tickets[p])] = state.tickets[p]
        at = int(g[L.S_OFFERS]) + p * offer
        s[at:at + len(state.offers[p])] = state.offers[p]
    put(L.S_TICKETS_N, [len(t) for t in state.tickets])
    put(L.S_OFFERS_N, [len(o) for o in state.offers])
    put(L.S_DECK, state.ticket_deck)
    put(L.S_RETURNED, state.returned_by)
    put(L.S_BOXED, state.boxed)
    put(L.S_BOXED_BY, state.boxed_by)
    return s


def canonical(g: np.ndarray, s: np.ndarray) -> np.ndarray:
    """``s`` with its ticket ring turned to head 0 and every unused slot 0 (``to_array``'s form)."""
    c = np.zeros_like(s)
    c[:L.STATE_HEADER] = s[:L.STATE_HEADER]
    c[L.DECK_HEAD] = 0
    n, nt, offer = int(g[L.N_PLAYERS]), int(g[L.N_TICKETS]), int(g[L.MAX_OFFER])

    def copy(slot: int, count: int) -> None:
        at = int(g[slot])
        c[at:at + count] = s[at:at + count]

    for slot, count in (
        (L.S_HANDS, n * L.KINDS), (L.S_KNOWN, n * L.KINDS), (L.S_PILE, int(s[L.PILE_N])), (L.S_DISCARD, L.KINDS),
        (L.S_MARKET, int(s[L.MARKET_N])), (L.S_OWNER, int(g[L.N_TRACKS])), (L.S_TRAINS, n), (L.S_POINTS, n),
        (L.S_TICKETS_N, n), (L.S_OFFERS_N, n), (L.S_BOXED, int(s[L.BOXED_N])), (L.S_BOXED_BY, int(s[L.BOXED_N])),
    ):
        copy(slot, count)
    for p in range(n):
        at = int(g[L.S_TICKETS]) + p * nt
        held = int(s[int(g[L.S_TICKETS_N]) + p])
        c[at:at + held] = s[at:at + held]
        at = int(g[L.S_OFFERS]) + p * offer
        offered = int(s[int(g[L.S_OFFERS_N]) + p])
        c[at:at + offered] = s[at:at + offered]
    head, count = int(s[L.DECK_HEAD]), int(s[L.DECK_N])
    ring = (head + np.arange(count)) % nt if nt else np.zeros(0, dtype=np.int64)
    c[int(g[L.S_DECK]):int(g[L.S_DECK]) + count] = s[int(g[L.S_DECK]) + ring]
    c[int(g[L.S_RETURNED]):int(g[L.S_RETURNED]) + count] = s[int(g[L.S_RETURNED]) + ring]
    return c


def from_array(state_game: GameState | object, s: np.ndarray) -> GameState:
    """The ``GameState`` of kernel state ``s``; ``state_game``: a state of the same game or its
    ``Game`` (the history starts empty, as after ``restore``)."""
    game = state_game.game if isinstance(state_game, GameState) else state_game
    g = game_array(game)  # type: ignore[arg-type]
    c = canonical(g, s)
    n, nt, offer = game.num_players, int(g[L.N_TICKETS]), int(g[L.MAX_OFFER])  # type: ignore[attr-defined]

    def take(slot: int, count: int) -> list[int]:
        at = int(g[slot])
        return [int(x) for x in c[at:at + count]]

    held = take(L.S_TICKETS_N, n)
    offered = take(L.S_OFFERS_N, n)
    tickets = [tuple(int(x) for x in c[int(g[L.S_TICKETS]) + p * nt:][:held[p]]) for p in range(n)]
    offers = [tuple(int(x) for x in c[int(g[L.S_OFFERS]) + p * offer:][:offered[p]]) for p in range(n)]
    deck_n, boxed_n = int(c[L.DECK_N]), int(c[L.BOXED_N])
    return assemble_state(
        game, int(c[L.PHASE]), int(c[L.PLAYER]), hands=take(L.S_HANDS, n * L.KINDS), known=take(L.S_KNOWN, n * L.KINDS),  # type: ignore[arg-type]
        pile=take(L.S_PILE, int(c[L.PILE_N])), discard=take(L.S_DISCARD, L.KINDS),
        market=take(L.S_MARKET, int(c[L.MARKET_N])), owner=take(L.S_OWNER, int(g[L.N_TRACKS])),
        trains=take(L.S_TRAINS, n), points=take(L.S_POINTS, n), tickets=tickets, offers=offers,
        ticket_deck=tuple(take(L.S_DECK, deck_n)), returned_by=tuple(take(L.S_RETURNED, deck_n)),
        boxed=tuple(take(L.S_BOXED, boxed_n)), boxed_by=tuple(take(L.S_BOXED_BY, boxed_n)),
        rng=int(c[L.RNG]) & _MASK, final_turns=int(c[L.FINAL_TURNS]), passes=int(c[L.PASSES]),
        turns=int(c[L.TURNS]), stalled=bool(c[L.STALLED]),
    )
