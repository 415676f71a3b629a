"""``determinize(observation, rng)``: one full game state the observing player cannot rule out.

For search under hidden information (information-set MCTS and the like). The state agrees with
everything in the observation and is built from the observation alone, so it cannot carry
hidden information. The unknowns are sampled uniformly: the order of the draw deck's shuffled
part (its contents are known: every travel card not in sight), which unseen luggage cards each
opponent holds or is choosing between, the unknown positions of the luggage deck, and the
engine's future draws from the bag.

Like Ticket to Ride's, it knows where under the luggage deck lie the cards the viewer put back,
but forgets such a card once another player draws it (Decision T10).
"""

from __future__ import annotations

import random

from ttr_lab.games.trans_orient.observation import Observation
from ttr_lab.games.trans_orient.rules import tables_for
from ttr_lab.games.trans_orient.state import GameState


def determinize(observation: Observation, rng: random.Random) -> GameState:
    """A state consistent with ``observation``, the unknowns sampled with ``rng``."""
    obs = observation
    deck, n, me = obs.deck, obs.num_players, obs.player
    setup = tables_for(deck, n)

    seen = {x for x in obs.lower + obs.upper if x} | set(obs.deck_bottom)
    for p in range(n):
        seen.update(obs.hands[p])
        seen.update(obs.played[p])
    unseen = [x for x in range(1, len(deck.travel) + 1) if x not in seen]
    if len(unseen) + len(obs.deck_bottom) != obs.deck_size:
        raise ValueError(f"observation is inconsistent: {len(unseen)} unseen travel cards for "
                         f"{obs.deck_size - len(obs.deck_bottom)} unknown deck positions")
    rng.shuffle(unseen)

    revealed = obs.revealed_luggage
    known = set(obs.luggage) | set(obs.offer) | {x for x in obs.luggage_deck_known if x}
    for held in revealed:
        known.update(held)
    pool = [x for x in range(1, len(deck.luggage) + 1) if x not in known]
    rng.shuffle(pool)
    luggage = []
    for p in range(n):
        if revealed:
            luggage.append(tuple(revealed[p]))
        elif p == me:
            luggage.append(obs.luggage)
        else:
            luggage.append(tuple(sorted(pool.pop() for _ in range(obs.luggage_counts[p]))))
    offer = obs.offer if obs.current_player == me else tuple(pool.pop() for _ in range(obs.offer_size))
    lug_deck = tuple(x if x else pool.pop() for x in obs.luggage_deck_known)
    if pool:
        raise ValueError(f"observation is inconsistent: {len(pool)} luggage cards unaccounted for")

    s = object.__new__(GameState)
    s.tables = setup
    s.phase = int(obs.phase)
    s.player = obs.current_player
    s.round = obs.round
    s.tidx = obs.turn_in_round
    s.order = obs.order
    s.starter = obs.starter
    s.master = obs.master
    s.mcol = obs.master_column
    s.lower = list(obs.lower)
    s.upper = list(obs.upper)
    s.piles = list(obs.piles)
    s.deck = tuple(unseen) + obs.deck_bottom
    s.deck_known = len(obs.deck_bottom)
    s.hands = list(obs.hands)
    s.played = list(obs.played)
    s.reserves = list(obs.reserves)
    s.bag = list(obs.bag)
    s.discounts = list(obs.discounts)
    s.capacity = list(obs.capacity)
    s.luggage = luggage
    s.lug_deck = lug_deck
    s.lug_by = tuple(me if x else -1 for x in obs.luggage_deck_known)
    s.offer = offer
    s.objectives = obs.objectives
    s.final = obs.final_round
    s.stalled = obs.stalled
    s.rng = rng.getrandbits(64)  # future draws from the bag are unknown too
    s.turns = obs.turns
    s.counters = list(obs.counters)
    s.log = obs.log
    s.log_len = obs.history_length
    return s
