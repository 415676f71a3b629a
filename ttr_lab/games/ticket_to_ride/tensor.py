"""Ticket to Ride's observation tensor: one player's information set as a fixed-size float32
vector, for learners (``TicketToRide.observation_tensor``; layout in docs/rl.md).

Built from an ``Observation`` only, so it holds nothing the player cannot know. Seats are
relative to the viewer (slot 0 is the viewer, slot 1 the next seat clockwise, ...) and padded to
the map's most players, so one shape serves every player count and a policy learns "me" and
"the player after me", not seat numbers. Counts are scaled to about [0, 1] by the ruleset's
sizes (a hand's cards by the cards of one colour, trains by a player's trains).
"""

from __future__ import annotations

import functools

import numpy as np

from ttr_lab.core.tensor_layout import TensorLayout
from ttr_lab.games.ticket_to_ride.board import Board
from ttr_lab.games.ticket_to_ride.colours import NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.game import Phase
from ttr_lab.games.ticket_to_ride.observation import Observation
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

_PHASES = len(Phase)
_TURN_SCALE = 200.0  # turns of a long game; the turn count is a clock, not a bound


@functools.lru_cache(maxsize=None)
def layout(board: Board, ruleset: Ruleset) -> TensorLayout:
    """The blocks of the tensor for one map and ruleset (seats padded to ``board.max_players``).
    The counts come first and the one-hot and multi-hot blocks after them, so filling the tensor
    is one scaled write of the counts and one write of ones (it runs at every decision)."""
    m, k, t, r = board.max_players, NUM_CARD_KINDS, len(board.tickets), len(board.tracks)
    return TensorLayout([
        ("clock", 4, "final round started; final turns left / players; turns / 200; passes in a row / players"),
        ("hand", k, "own cards per kind (colours, then locomotive) / cards per colour"),
        ("market", k, "face-up cards per kind / market size"),
        ("discard", k, "discard pile per kind / cards per colour"),
        ("decks", 2, "draw pile size / all train cards; ticket deck size / all tickets"),
        ("trains", m, "per relative seat (0 = the viewer, 1 = the next seat, ...): trains left / trains per player"),
        ("points", m, "per relative seat: route points / 100"),
        ("hand_sizes", m, "per relative seat: cards in hand / cards per colour"),
        ("ticket_counts", m, "per relative seat: tickets held / (initial tickets dealt x 3)"),
        ("offer_sizes", m, "per relative seat: tickets it is choosing among / the larger ticket deal"),
        ("known_cards", m * k, "per relative seat, per kind: cards seen entering its hand, not yet paid / cards per colour"),
        ("num_players", m, "one-hot: players at the table (index n-1)"),
        ("to_move", m, "one-hot: the player to move, relative to the viewer"),
        ("phase", _PHASES, "one-hot: initial tickets, turn, second draw, keep tickets, over"),
        ("tickets", t, "multi-hot over ticket ids: the viewer's tickets"),
        ("offered", t, "multi-hot: tickets on offer to the viewer (while it chooses)"),
        ("tickets_out", t, "multi-hot: tickets the viewer knows are out of play or in the deck "
                          "(boxed at setup, or put back by it)"),
        ("owner", r * m, "per track (id order), one-hot over relative seats: who claimed it (all 0: open)"),
    ])


@functools.lru_cache(maxsize=None)
def _scales(board: Board, rules: Ruleset, n: int) -> np.ndarray:
    """The divisor of every count (the blocks from ``clock`` to ``known_cards``) at ``n`` players."""
    m, k = board.max_players, NUM_CARD_KINDS
    colour = float(rules.cards_per_colour)
    all_cards = rules.cards_per_colour * (k - 1) + rules.locomotive_cards
    parts = [[1.0, n, _TURN_SCALE, n], [colour] * k, [float(rules.market_size)] * k, [colour] * k,
             [all_cards, max(len(board.tickets), 1)],
             [rules.trains_per_player] * m, [100.0] * m, [colour] * m, [3.0 * rules.initial_tickets] * m,
             [float(max(rules.ticket_draw, rules.initial_tickets))] * m, [colour] * (m * k)]
    return 1.0 / np.array([x for part in parts for x in part], dtype=np.float32)


def observation_shape(board: Board, ruleset: Ruleset) -> tuple[int]:
    return (layout(board, ruleset).size,)


def observation_tensor(obs: Observation) -> np.ndarray:
    """``obs`` as a float32 vector of ``observation_shape`` (see ``layout`` for its slices)."""
    board, rules = obs.board, obs.ruleset
    lay = layout(board, rules)
    off = lay.offsets
    m, k, n, me = board.max_players, NUM_CARD_KINDS, obs.num_players, obs.player
    pad = (0,) * (m - n)

    def seats(values: tuple) -> tuple:  # seat order -> relative order, padded to m
        return values[me:] + values[:me] + pad

    market = [0] * k
    for card in obs.market:
        if card >= 0:
            market[card] += 1
    known = seats(obs.known_cards)
    counts = [obs.final_round, max(obs.final_turns_left, 0), obs.turns, obs.passes_in_a_row,
              *obs.hand, *market, *obs.discard, obs.draw_pile_size, obs.ticket_deck_size,
              *seats(obs.trains), *seats(obs.route_points), *seats(obs.hand_sizes), *seats(obs.ticket_counts),
              *seats(obs.offer_sizes)]
    for kinds in known[:n]:
        counts.extend(kinds)
    out = np.zeros(lay.size, dtype=np.float32)
    out[:len(counts)] = counts  # the padded seats' known cards stay 0
    scales = _scales(board, rules, n)
    out[:scales.size] *= scales

    ones = [off["num_players"] + n - 1, off["to_move"] + (obs.current_player - me) % n, off["phase"] + int(obs.phase)]
    for name, ids in (("tickets", obs.tickets), ("offered", obs.offered), ("tickets_out", obs.boxed_known)):
        base = off[name]
        ones.extend([base + i for i in ids])
    base = off["tickets_out"]
    ones.extend([base + i for i in obs.ticket_deck_known if i >= 0])
    base = off["owner"]
    ones.extend([base + t * m + (o - me) % n for t, o in enumerate(obs.owner) if o >= 0])
    out[ones] = 1.0
    return out
