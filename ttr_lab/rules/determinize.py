"""``determinize(observation, rng)``: one full game state the observing player cannot rule out.

For search under hidden information (information-set MCTS and the like). The state agrees with
everything in the observation, and it is built from the observation alone, so it cannot carry
hidden information: the player's own hand, tickets and offer; the board, market, discard pile,
scores, trains and counts; the public history; each opponent's cards known from face-up draws
(minus what they paid since); and the deck positions of tickets the player itself put back.
The unknown rest is sampled uniformly: which unseen cards are in each opponent's hand and in
what order the draw pile lies, which unseen tickets each opponent holds or is offered and the
order of the ticket deck, and the engine's future shuffles.
"""

from __future__ import annotations

import random

from ttr_lab.rules.game import game_for
from ttr_lab.rules.observation import Observation
from ttr_lab.rules.state import GameState

_K = 9


def determinize(observation: Observation, rng: random.Random) -> GameState:
    """A state consistent with ``observation``, the unknowns sampled with ``rng``."""
    obs = observation
    game = game_for(obs.board, obs.num_players, obs.ruleset)
    n, me = obs.num_players, obs.player

    # Cards: whatever is not in sight is in an opponent's unknown hand slots or in the pile.
    unseen = [0] * _K
    for card in game.deck:
        unseen[card] += 1
    for c in range(_K):
        unseen[c] -= obs.hand[c] + obs.discard[c]
        for q in range(n):
            if q != me:
                unseen[c] -= obs.known_cards[q][c]
    for card in obs.market:
        unseen[card] -= 1
    if min(unseen) < 0:
        raise ValueError("observation is inconsistent: more cards in sight than in the game")
    pool = [c for c in range(_K) for _ in range(unseen[c])]
    rng.shuffle(pool)
    hands = [0] * (n * _K)
    for q in range(n):
        if q == me:
            hands[q * _K:(q + 1) * _K] = obs.hand
            continue
        known = obs.known_cards[q]
        hands[q * _K:(q + 1) * _K] = known
        for _ in range(obs.hand_sizes[q] - sum(known)):
            hands[q * _K + pool.pop()] += 1
    if len(pool) != obs.draw_pile_size:
        raise ValueError(f"observation is inconsistent: {len(pool)} unseen cards for a pile of {obs.draw_pile_size}")

    # Tickets: the unseen ones fill opponents' hands and offers and the unknown deck positions.
    in_game = [t.id for t in obs.board.tickets if t.deck == "regular"]
    seen = set(obs.tickets) | set(obs.offered) | {t for t in obs.ticket_deck_known if t >= 0}
    tpool = [t for t in in_game if t not in seen]
    rng.shuffle(tpool)
    tickets: list[tuple[int, ...]] = []
    offers: list[tuple[int, ...]] = []
    for q in range(n):
        if q == me:
            tickets.append(obs.tickets)
            offers.append(obs.offered)
        else:
            tickets.append(tuple(tpool.pop() for _ in range(obs.ticket_counts[q])))
            offers.append(tuple(tpool.pop() for _ in range(obs.offer_sizes[q])))
    deck = tuple(t if t >= 0 else tpool.pop() for t in obs.ticket_deck_known)
    if tpool:
        raise ValueError(f"observation is inconsistent: {len(tpool)} tickets unaccounted for")

    s = object.__new__(GameState)
    s.game = game
    s.phase = int(obs.phase)
    s.player = obs.current_player
    s.hands = hands
    s.known = [c for k in obs.known_cards for c in k]
    s.pile = pool
    s.discard = list(obs.discard)
    s.market = list(obs.market)
    s.owner = list(obs.owner)
    s.open_groups = game.open_groups(s.owner)
    s.trains = list(obs.trains)
    s.points = list(obs.route_points)
    s.tickets = tickets
    s.offers = offers
    s.ticket_deck = deck
    s.returned_by = tuple(me if t >= 0 else -1 for t in obs.ticket_deck_known)
    s.rng = rng.getrandbits(64)  # future shuffles are unknown too
    s.final_turns = obs.final_turns_left
    s.passes = obs.passes_in_a_row
    s.turns = obs.turns
    s.stalled = False
    s.log = obs.log
    s.log_len = obs.history_length
    return s
