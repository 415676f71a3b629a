"""Invariants every reachable state must satisfy; used by the property tests."""

from __future__ import annotations

import random

from ttr_lab.games.ticket_to_ride import GameState, Phase

_K = 9


def check_invariants(state: GameState) -> None:
    game = state.tables
    n = game.num_players
    laid = state.tunnel_pending  # a waiting tunnel's laid payment and turned-over cards count too
    assert (laid is not None) == (state.phase == Phase.TUNNEL) and (laid is not None or not state.revealed)
    cards = (sum(state.hands) + len(state.pile) + sum(state.discard) + len(state.market) + len(state.revealed)
             + (laid.cards + laid.locomotives if laid is not None else 0))
    assert cards == len(game.deck) == 110, f"{cards} cards"
    tickets = ([t for held in state.tickets for t in held] + [t for o in state.offers for t in o]
               + list(state.ticket_deck) + list(state.boxed))
    assert sorted(tickets) == list(range(len(game.board.tickets))), "tickets not conserved"
    assert all(t >= 0 for t in state.trains), state.trains
    assert all(h >= 0 for h in state.hands) and all(d >= 0 for d in state.discard)
    assert all(0 <= k <= h for k, h in zip(state.known, state.hands))
    assert len(state.market) <= game.ruleset.market_size
    assert state.pile or not any(state.discard), "empty draw pile beside a non-empty discard pile"
    if len(state.market) < game.ruleset.market_size:
        assert not state.pile, "short market while cards are in the draw pile"
    for p in range(n):
        mine = [t for t, o in enumerate(state.owner) if o == p]
        assert state.points[p] == sum(game.track_points[t] for t in mine)
        assert state.trains[p] == game.ruleset.trains_per_player - sum(game.track_trains[t] for t in mine)
        for t in mine:
            assert game.track_twin[t] < 0 or state.owner[game.track_twin[t]] != p, "both tracks of a double"
    if not game.doubles_shared:
        for t, o in enumerate(state.owner):
            if o >= 0 and game.track_twin[t] >= 0:
                assert state.owner[game.track_twin[t]] < 0, "second track of a double at 2-3 players"
    expected_open = tuple(
        t for t, o in enumerate(state.owner)
        if o < 0 and not (not game.doubles_shared and game.track_twin[t] >= 0 and state.owner[game.track_twin[t]] >= 0)
    )
    assert state.open == expected_open
    assert state.log_len == len(state.history())
    assert len(state.returned_by) == len(state.ticket_deck) and len(state.boxed_by) == len(state.boxed)
    longs = {t.id for t in game.board.tickets if t.deck == "long"}
    assert not longs & set(state.ticket_deck), "a long ticket in the draw deck"
    assert all(-1 <= r < n for r in state.returned_by)


def random_game_states(board, num_players: int, seed: int):
    """Yield every state of a random game (before each action) with the action then taken."""
    from ttr_lab.games.ticket_to_ride import new_game
    from ttr_lab.core.testing import random_walk

    return random_walk(new_game(board, num_players, seed), seed)


def hidden_shuffle(state: GameState, viewer: int, rng: random.Random) -> GameState:
    """A state that ``viewer`` cannot tell apart from ``state``: the draw pile and ticket deck
    reordered, opponents' unseen cards and tickets swapped with unseen ones elsewhere."""
    s = state.clone()
    n = s.tables.num_players
    # The fields are read as plain lists, changed, then written back whole (a state's fields
    # are copies: changing one in place would not reach the state).
    hands, known = s.hands, s.known
    # Cards the viewer cannot see: opponents' hands beyond what is publicly known, and the pile.
    pool = list(s.pile)
    hidden_counts = {}
    for q in range(n):
        if q == viewer:
            continue
        hidden = []
        for c in range(_K):
            extra = hands[q * _K + c] - known[q * _K + c]
            hidden += [c] * extra
        hidden_counts[q] = len(hidden)
        pool += hidden
        for c in range(_K):
            hands[q * _K + c] = known[q * _K + c]
    rng.shuffle(pool)
    for q, count in hidden_counts.items():
        for _ in range(count):
            hands[q * _K + pool.pop()] += 1
    s.hands = hands
    s.pile = pool
    # Tickets the viewer cannot see: opponents' held and offered tickets and the deck, except
    # the deck positions of tickets the viewer itself put back.
    returned_by = s.returned_by
    mine = [i for i, r in enumerate(returned_by) if r == viewer]
    tpool = [t for i, t in enumerate(s.ticket_deck) if returned_by[i] != viewer]
    boxed_mine = [t for t, r in zip(s.boxed, s.boxed_by) if r == viewer]
    boxed_other = [t for t, r in zip(s.boxed, s.boxed_by) if r != viewer]
    tpool += boxed_other
    shapes = []
    tickets, offers = s.tickets, s.offers
    for q in range(n):
        if q != viewer:
            shapes.append((q, len(tickets[q]), len(offers[q])))
            tpool += list(tickets[q]) + list(offers[q])
    rng.shuffle(tpool)
    for q, held, offered in shapes:
        tickets[q] = tuple(tpool.pop() for _ in range(held))
        offers[q] = tuple(tpool.pop() for _ in range(offered))
    s.tickets = tickets
    s.offers = offers
    deck = list(s.ticket_deck)
    for i in range(len(deck)):
        if i not in mine:
            deck[i] = tpool.pop()
    s.ticket_deck = tuple(deck)
    s.returned_by = returned_by
    s.boxed = tuple(boxed_mine) + tuple(tpool.pop() for _ in boxed_other)
    s.boxed_by = (viewer,) * len(boxed_mine) + (-1,) * len(boxed_other)
    s.rng = rng.getrandbits(64)
    return s
