"""Shared tools of the rule tests: card bookkeeping and the legal_actions()/apply() agreement check."""

from __future__ import annotations

import itertools
from collections import Counter

from ttr_lab import IllegalActionError
from ttr_lab.games.ticket_to_ride import CARD_NAMES, DRAW_BLIND, DRAW_TICKETS, PASS, DrawMarket, KeepTickets
from ttr_lab.games.ticket_to_ride.actions import DeclineTunnel, PayTunnel, action_table, all_actions

DECK = {name: (14 if name == "locomotive" else 12) for name in CARD_NAMES}


def rest_of_deck(*used) -> dict[str, int]:
    """A hand holding every card not listed in ``used`` (dicts of counts or lists of names):
    park the cards a position does not need in one hand, so the draw pile can be empty."""
    left = Counter(DECK)
    for part in used:
        left.subtract(part if isinstance(part, dict) else Counter(part))
    assert min(left.values()) >= 0, left
    return {k: v for k, v in left.items() if v}


def hand(state, player: int) -> dict[str, int]:
    """A player's hand as {name: count} without zeros."""
    return {k: v for k, v in state.snapshot()["hands"][player].items() if v}


def discard(state) -> Counter:
    return Counter(state.snapshot()["discard"])


def pile(state) -> list[str]:
    """The draw pile, top first."""
    return state.snapshot()["draw_pile"]


def market(state) -> list[str]:
    return state.snapshot()["market"]


def total_cards(state) -> int:
    """Every train card of the position: hands, market, piles, and a waiting tunnel's laid
    payment and turned-over cards."""
    s = state.snapshot()
    laid = state.tunnel_pending
    return (sum(sum(h.values()) for h in s["hands"]) + len(s["market"]) + len(s["draw_pile"]) + len(s["discard"])
            + len(state.revealed) + (laid.cards + laid.locomotives if laid is not None else 0))


def candidate_actions(state) -> list:
    """Every action the engine could be asked to play here: all draws, tickets, pass, every keep
    subset (including the empty one and out-of-range indices) and every claim on the board."""
    out = [DRAW_BLIND, DRAW_TICKETS, PASS]
    out += [DrawMarket(i) for i in range(7)]
    offered = len(state.offers[state.current_player])
    for size in range(0, offered + 2):
        out += [KeepTickets(c) for c in itertools.combinations(range(offered + 1), size)]
    # the tunnel decisions of the game (none without tunnels), and an extra payment beyond them
    out += [a for a in all_actions(state.board, state.ruleset) if type(a) in (PayTunnel, DeclineTunnel)]
    out += [PayTunnel(state.ruleset.tunnel_reveal + 1, 0)]
    table = action_table(state.board)
    seen = set()
    for row in table.claims:
        for claims in row.values():
            for a in claims:
                if a not in seen:
                    seen.add(a)
                    out.append(a)
    for a in table.all_locos:
        if a not in seen:
            seen.add(a)
            out.append(a)
    return out


def assert_legal_agrees(state) -> None:
    """legal_actions() and apply() agree: every listed action applies (on a clone), every other
    candidate is refused with IllegalActionError, and the list has no duplicates."""
    legal = state.legal_actions()
    assert len(legal) == len(set(legal)), "legal_actions() lists an action twice"
    legal_set = set(legal)
    for a in candidate_actions(state):
        c = state.clone()
        if a in legal_set:
            c.apply(a)  # must not raise
        else:
            try:
                c.apply(a)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{a} is not in legal_actions() but apply() accepted it")
    for a in legal:  # actions outside the candidate universe (none expected)
        state.clone().apply(a)


def play_out(state) -> None:
    """Play card draws (or passes) until the game is over, never touching tickets or the board:
    for finishing the last turn of a hand-built final round before scoring it."""
    guard = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        draws = [a for a in legal if a == DRAW_BLIND or isinstance(a, DrawMarket) or a == PASS]
        assert draws, f"no card draw or pass to finish the game with: {[str(a) for a in legal]}"
        state.apply(draws[0])
        guard += 1
        assert guard < 50, "game did not end"
