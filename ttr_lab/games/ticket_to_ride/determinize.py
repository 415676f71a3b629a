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

import math
import random
from typing import TYPE_CHECKING, Any

from ttr_lab.games.ticket_to_ride.colours import NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.tables import tables_for
from ttr_lab.games.ticket_to_ride.observation import Observation
from ttr_lab.games.ticket_to_ride.state import GameState, assemble_state
from ttr_lab.games.ticket_to_ride.board import TicketDeck

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

_K = NUM_CARD_KINDS


def determinize(observation: Observation, rng: random.Random) -> GameState:
    """A state consistent with ``observation``, the unknowns sampled with ``rng``."""
    obs = observation
    game = tables_for(obs.board, obs.num_players, obs.ruleset)
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

    # Tickets: the unseen ones fill opponents' hands and offers, the unknown deck positions and
    # the box (rejected at setup on maps that box them). Long tickets are never in the deck:
    # an opponent holds as many as a uniformly random choice of its setup keep would give.
    rules = obs.ruleset
    seen = set(obs.tickets) | set(obs.offered) | {t for t in obs.ticket_deck_known if t >= 0} | set(obs.boxed_known)
    regular = [t.id for t in obs.board.tickets if t.deck is TicketDeck.REGULAR and t.id not in seen]
    longs = [t.id for t in obs.board.tickets if t.deck is TicketDeck.LONG and t.id not in seen] if rules.initial_long_tickets else []
    rng.shuffle(regular)
    rng.shuffle(longs)
    kept_at_setup = _setup_keeps(obs)
    others = [q for q in range(n) if q != me]
    # An opponent still choosing its setup tickets holds its long ones first in the offer.
    offer_longs = {
        q: min(rules.initial_long_tickets, obs.offer_sizes[q]) if q not in kept_at_setup and obs.offer_sizes[q] else 0
        for q in others
    }
    needed = sum(obs.offer_sizes[q] - offer_longs[q] for q in others) + sum(1 for t in obs.ticket_deck_known if t < 0)
    long_counts = {q: 0 for q in others}
    for _ in range(64):  # sample, rejecting counts the unseen regular tickets cannot fill
        draw = {q: _sample_long_count(rules, kept_at_setup.get(q), obs.ticket_counts[q], len(longs), rng) for q in others}
        if sum(draw.values()) + sum(offer_longs.values()) <= len(longs) and needed + sum(obs.ticket_counts[q] - draw[q] for q in others) <= len(regular):
            long_counts = draw
            break
    else:  # only long tickets can explain what the opponents hold
        spare = len(longs) - sum(offer_longs.values())
        for q in others:
            long_counts[q] = min(rules.initial_long_tickets, obs.ticket_counts[q], spare)
            spare -= long_counts[q]
    tickets: list[tuple[int, ...]] = []
    offers: list[tuple[int, ...]] = []
    for q in range(n):
        if q == me:
            tickets.append(obs.tickets)
            offers.append(obs.offered)
            continue
        held = obs.ticket_counts[q]
        long_count = long_counts[q]
        mine = [longs.pop() for _ in range(long_count)]
        mine += [regular.pop() for _ in range(held - long_count)]
        tickets.append(tuple(mine))
        offer = [longs.pop() for _ in range(offer_longs[q])]
        offers.append(tuple(offer + [regular.pop() for _ in range(obs.offer_sizes[q] - offer_longs[q])]))
    deck = tuple(t if t >= 0 else regular.pop() for t in obs.ticket_deck_known)
    boxed = tuple(obs.boxed_known) + tuple(longs) + tuple(regular)
    if regular and rules.initial_rejects != "box":
        raise ValueError(f"observation is inconsistent: {len(regular)} tickets unaccounted for")

    return assemble_state(
        game,
        phase=int(obs.phase),
        player=obs.current_player,
        hands=hands,
        known=[c for k in obs.known_cards for c in k],
        pile=pool,
        discard=list(obs.discard),
        market=list(obs.market),
        owner=list(obs.owner),
        trains=list(obs.trains),
        points=list(obs.route_points),
        tickets=tickets,
        offers=offers,
        ticket_deck=deck,
        returned_by=tuple(me if t >= 0 else -1 for t in obs.ticket_deck_known),
        boxed=boxed,
        boxed_by=(me,) * len(obs.boxed_known) + (-1,) * (len(boxed) - len(obs.boxed_known)),
        rng=rng.getrandbits(64),  # future shuffles are unknown too
        final_turns=obs.final_turns_left,
        passes=obs.passes_in_a_row,
        turns=obs.turns,
        stalled=False,
        log=obs.log,
        log_len=obs.history_length,
    )


# The last history ``_setup_keeps`` read and its answer: a search determinizes one observation
# many times, and unrolling its whole history each time cost as much as the rest of a sample.
_LAST_KEEPS: list[Any] = [None, {}]


def _setup_keeps(obs: Observation) -> dict[int, int]:
    """How many tickets each player kept at setup: the first keep of each seat in the history."""
    from ttr_lab.games.ticket_to_ride.actions import TicketsKept

    if obs.log is not None and _LAST_KEEPS[0] is obs.log:
        return dict(_LAST_KEEPS[1])
    kept: dict[int, int] = {}
    for event in obs.history:
        if type(event.action) is TicketsKept and event.player not in kept:
            kept[event.player] = event.action.count
        if len(kept) == obs.num_players:
            break
    _LAST_KEEPS[0], _LAST_KEEPS[1] = obs.log, dict(kept)
    return kept


def _sample_long_count(rules: "Ruleset", kept: int | None, held: int, available: int, rng: random.Random) -> int:
    """Long tickets an opponent holds: hypergeometric, as if it kept ``kept`` of its setup offer
    at random (``initial_long_tickets`` long among ``initial_tickets`` regular)."""
    longs = rules.initial_long_tickets
    if not longs or not available:
        return 0
    regulars = rules.initial_tickets
    if kept is None:
        kept = min(held, longs + regulars)
    weights = [math.comb(longs, j) * math.comb(regulars, kept - j) for j in range(0, min(longs, kept) + 1)]
    j = rng.choices(range(len(weights)), weights=weights)[0]
    return min(j, held, available)
