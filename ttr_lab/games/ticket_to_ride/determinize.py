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

import itertools
import math
import random
from typing import TYPE_CHECKING, Any

import numpy as np

from ttr_lab.games.ticket_to_ride.colours import LOCOMOTIVE, NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.tables import tables_for
from ttr_lab.games.ticket_to_ride.observation import Observation
from ttr_lab.games.ticket_to_ride.state import GameState, assemble_state, face_of
from ttr_lab.games.ticket_to_ride.board import TicketDeck
from ttr_lab.games.ticket_to_ride.kernels import determinize as D, layout as L
from ttr_lab.games.ticket_to_ride.kernels.determinize import deal, sample as sample_kernel

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

_K = NUM_CARD_KINDS


def determinize(observation: Observation, rng: random.Random) -> GameState:
    """A state consistent with ``observation``, the unknowns sampled with ``rng``: the pools
    shuffled by ``rng`` itself (its stream is the one this function always drew), dealt by the
    kernel that deals ``Determinizer.sample``."""
    return Determinizer(observation).sample_with(rng)


def determinizer(observation: Observation) -> "Determinizer":
    """What a search samples ``observation``'s states with, prepared once: ``sample(rng)``."""
    return Determinizer(observation)


class Determinizer:
    """The states ``observation`` cannot rule out, prepared once: what is known as a template
    state, what is not as the pools and counts ``kernels.determinize`` deals. ``sample`` draws
    one in one native call (a SplitMix64 stream seeded from its argument); ``sample_with``
    draws the same distribution with a ``random.Random`` (``determinize``'s stream)."""

    __slots__ = ("template", "plan", "work", "longs_held", "cumulative", "caps", "fallback", "others")

    def __init__(self, observation: Observation) -> None:
        obs = observation
        game = tables_for(obs.board, obs.num_players, obs.ruleset)
        n, me = obs.num_players, obs.player
        others = [q for q in range(n) if q != me]

        # Cards: whatever is not in sight is in an opponent's unknown hand slots or in the pile.
        unseen = [0] * _K
        for card in game.deck:
            unseen[card] += 1
        for c in range(_K):
            unseen[c] -= obs.hand[c] + obs.discard[c]
            for q in others:
                unseen[c] -= obs.known_cards[q][c]
        for card in obs.market:
            unseen[card] -= 1
        # A waiting tunnel's laid payment and turned-over cards are in sight too.
        for card in obs.tunnel_revealed:
            unseen[card] -= 1
        laid = obs.tunnel_pending
        if laid is not None:
            unseen[laid.colour] -= laid.cards
            unseen[LOCOMOTIVE] -= laid.locomotives
        if min(unseen) < 0:
            raise ValueError("observation is inconsistent: more cards in sight than in the game")
        pool = [c for c in range(_K) for _ in range(unseen[c])]
        hidden = {q: obs.hand_sizes[q] - sum(obs.known_cards[q]) for q in others}
        if len(pool) - sum(hidden.values()) != obs.draw_pile_size or min(hidden.values(), default=0) < 0:
            raise ValueError(f"observation is inconsistent: {len(pool)} unseen cards for hidden hands of "
                             f"{sum(hidden.values())} and a pile of {obs.draw_pile_size}")

        # Tickets: the unseen ones fill opponents' hands and offers, the unknown deck positions and
        # the box (rejected at setup on maps that box them). Long tickets are never in the deck:
        # an opponent holds as many as a uniformly random choice of its setup keep would give.
        rules = obs.ruleset
        seen = set(obs.tickets) | set(obs.offered) | {t for t in obs.ticket_deck_known if t >= 0} | set(obs.boxed_known)
        regular = [t.id for t in obs.board.tickets if t.deck is TicketDeck.REGULAR and t.id not in seen]
        longs = [t.id for t in obs.board.tickets if t.deck is TicketDeck.LONG and t.id not in seen] if rules.initial_long_tickets else []
        kept_at_setup = _setup_keeps(obs)
        # An opponent still choosing its setup tickets holds its long ones first in the offer.
        offer_longs = {
            q: min(rules.initial_long_tickets, obs.offer_sizes[q]) if q not in kept_at_setup and obs.offer_sizes[q] else 0
            for q in others
        }
        unknown_deck = [i for i, t in enumerate(obs.ticket_deck_known) if t < 0]
        needed = sum(obs.offer_sizes[q] - offer_longs[q] for q in others) + len(unknown_deck)
        self.cumulative = [_long_count_weights(rules, kept_at_setup.get(q), obs.ticket_counts[q], len(longs)) for q in others]
        self.caps = [min(obs.ticket_counts[q], len(longs)) for q in others]
        # When no draw fits, only long tickets can explain what the opponents hold.
        spare = len(longs) - sum(offer_longs.values())
        self.fallback = []
        for q in others:
            self.fallback.append(min(rules.initial_long_tickets, obs.ticket_counts[q], spare))
            spare -= self.fallback[-1]
        self.others = others

        columns = L.OPPONENT_FIXED + max((len(c or ()) for c in self.cumulative), default=0)
        header = [0] * L.PLAN_HEADER
        header[L.P_OPPONENTS], header[L.P_COLUMNS] = len(others), columns
        header[L.P_CARDS], header[L.P_REGULAR], header[L.P_LONG] = len(pool), len(regular), len(longs)
        # A draw of the long counts fits when the unseen long tickets cover them and the offers'
        # long ones, and the unseen regular tickets cover the rest.
        header[L.P_MAX_LONGS] = len(longs) - sum(offer_longs.values())
        header[L.P_MIN_LONGS] = needed + sum(obs.ticket_counts[q] for q in others) - len(regular)
        header[L.P_DECK_UNKNOWN], header[L.P_BOXED_KNOWN] = len(unknown_deck), len(obs.boxed_known)
        header[L.P_REJECTS_BOX], header[L.P_TRIES] = int(rules.initial_rejects == "box"), _TRIES
        rows: list[int] = []
        for i, q in enumerate(others):
            row = [0] * columns
            row[L.O_SEAT], row[L.O_HIDDEN], row[L.O_HELD] = q, hidden[q], obs.ticket_counts[q]
            row[L.O_OFFER], row[L.O_OFFER_LONG] = obs.offer_sizes[q], offer_longs[q]
            row[L.O_CAP], row[L.O_FALLBACK] = self.caps[i], self.fallback[i]
            weights = self.cumulative[i] or []
            row[L.O_WEIGHTS] = len(weights)
            row[L.O_CUMULATIVE:L.O_CUMULATIVE + len(weights)] = weights
            rows += row
        self.plan = np.array(header + rows + pool + regular + longs + unknown_deck, dtype=np.int64)
        self.work = np.empty(len(pool) + len(regular) + len(longs), dtype=np.int64)
        self.longs_held = np.zeros(len(others), dtype=np.int64)

        # What is known; the unknowns are dealt into copies of it.
        hands = [0] * (n * _K)
        for q in range(n):
            hands[q * _K:(q + 1) * _K] = obs.hand if q == me else obs.known_cards[q]
        self.template = assemble_state(
            game,
            phase=int(obs.phase),
            player=obs.current_player,
            hands=hands,
            known=[c for k in obs.known_cards for c in k],
            pile=[],
            discard=list(obs.discard),
            market=list(obs.market),
            owner=list(obs.owner),
            trains=list(obs.trains),
            points=list(obs.route_points),
            tickets=[obs.tickets if q == me else () for q in range(n)],
            offers=[obs.offered if q == me else () for q in range(n)],
            ticket_deck=tuple(obs.ticket_deck_known),
            returned_by=tuple(me if t >= 0 else -1 for t in obs.ticket_deck_known),
            boxed=tuple(obs.boxed_known),
            boxed_by=(me,) * len(obs.boxed_known),
            rng=0,
            final_turns=obs.final_turns_left,
            passes=obs.passes_in_a_row,
            turns=obs.turns,
            stalled=False,
            log=obs.log,
            log_len=obs.history_length,
            **tunnel_fields(obs),
            # Train stations are public: as the observation shows them (empty without stations).
            stations=list(obs.stations),
            stations_built=[rules.stations_per_player - left for left in obs.stations_left],
        )

    def sample(self, rng: random.Random | int) -> GameState:
        """One state, in one native call seeded from ``rng`` (a ``random.Random``, one 64-bit
        draw of it, or a seed)."""
        seed = rng if isinstance(rng, int) else rng.getrandbits(64)
        state = self.template.clone()
        code = sample_kernel(state.face.g, state.s, self.plan, self.work, self.longs_held, np.uint64(seed & _MASK))
        if code:
            raise ValueError(_INCONSISTENT[code])
        return state

    def sample_with(self, rng: random.Random) -> GameState:
        """One state, the pools shuffled and the long-ticket counts drawn by ``rng`` in Python."""
        plan = self.plan
        m, columns = int(plan[L.P_OPPONENTS]), int(plan[L.P_COLUMNS])
        at = L.PLAN_HEADER + m * columns
        sizes = (int(plan[L.P_CARDS]), int(plan[L.P_REGULAR]), int(plan[L.P_LONG]))
        pools = []
        for size in sizes:
            pool = plan[at:at + size].tolist()
            rng.shuffle(pool)
            pools += pool
            at += size
        low, high = int(plan[L.P_MIN_LONGS]), int(plan[L.P_MAX_LONGS])
        counts = self.fallback
        for _ in range(_TRIES):  # sample, rejecting counts the unseen regular tickets cannot fill
            draw = [0 if cum is None else min(rng.choices(range(len(cum)), cum_weights=cum)[0], cap)
                    for cum, cap in zip(self.cumulative, self.caps)]
            if low <= sum(draw) <= high:
                counts = draw
                break
        state = self.template.clone()
        state.rng = rng.getrandbits(64)  # future shuffles are unknown too
        self.work[:] = pools
        self.longs_held[:] = counts
        code = deal(state.face.g, state.s, plan, self.work, self.longs_held)
        if code:
            raise ValueError(_INCONSISTENT[code])
        return state


def tunnel_fields(obs: Observation) -> dict[str, Any]:
    """What ``obs`` shows of tunnels (all public), as ``assemble_state``'s fields: the waiting
    claim and its turned-over cards, and every seat's last tunnel claim."""
    laid = obs.tunnel_pending
    face = face_of(tables_for(obs.board, obs.num_players, obs.ruleset))
    return {
        "tunnel_claim": -1 if laid is None else face.id_of(laid) - int(face.g[L.ID_CLAIM]),
        "tunnel_extra": obs.tunnel_extra,
        "revealed": list(obs.tunnel_revealed),
        "tunnels": [x for last in obs.last_tunnels for x in last],
    }


_TRIES = 64
_MASK = (1 << 64) - 1
_INCONSISTENT = {
    D.E_TICKETS: "observation is inconsistent: too few unseen tickets for what the opponents hold",
    D.E_UNPLACED: "observation is inconsistent: unseen tickets unaccounted for",
}


# The last history ``_setup_keeps`` read and its answer: a search determinizes one observation
# many times, and unrolling its whole history each time cost as much as the rest of a sample.
_LAST_KEEPS: list[Any] = [None, {}]
# A later history of the same game extends the last one read: once every seat has kept, so few
# events back that the walk is cheaper than unrolling the history.
_RECENT = 64


def _setup_keeps(obs: Observation) -> dict[int, int]:
    """How many tickets each player kept at setup: the first keep of each seat in the history."""
    from ttr_lab.games.ticket_to_ride.actions import TicketsKept

    last, answer = _LAST_KEEPS
    if obs.log is not None and last is not None:
        if last is obs.log:
            return dict(answer)
        if len(answer) == obs.num_players:
            node = obs.log
            for _ in range(_RECENT):  # the public history: (player, action, card, earlier events)
                node = node[3]
                if node is last:
                    _LAST_KEEPS[0] = obs.log
                    return dict(answer)
                if node is None:
                    break
    kept: dict[int, int] = {}
    for event in obs.history:
        if type(event.action) is TicketsKept and event.player not in kept:
            kept[event.player] = event.action.count
        if len(kept) == obs.num_players:
            break
    _LAST_KEEPS[0], _LAST_KEEPS[1] = obs.log, dict(kept)
    return kept


def _long_count_weights(rules: "Ruleset", kept: int | None, held: int, available: int) -> list[int] | None:
    """The cumulative weights of an opponent holding 0, 1, ... long tickets (capped at ``held``
    and ``available`` when drawn): hypergeometric, as if it kept ``kept`` of its setup offer at
    random (``initial_long_tickets`` long among ``initial_tickets`` regular). None: it holds none."""
    longs = rules.initial_long_tickets
    if not longs or not available:
        return None
    regulars = rules.initial_tickets
    if kept is None:
        kept = min(held, longs + regulars)
    weights = [math.comb(longs, j) * math.comb(regulars, kept - j) for j in range(0, min(longs, kept) + 1)]
    return list(itertools.accumulate(weights))
