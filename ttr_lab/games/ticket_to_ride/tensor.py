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
    """The blocks of the tensor for one map and ruleset (seats padded to ``board.max_players``)."""
    m, k, t, r = board.max_players, NUM_CARD_KINDS, len(board.tickets), len(board.tracks)
    return TensorLayout([
        ("num_players", m, "one-hot: players at the table (index n-1)"),
        ("to_move", m, "one-hot: the player to move, relative to the viewer (0 = the viewer)"),
        ("phase", _PHASES, "one-hot: initial tickets, turn, second draw, keep tickets, over"),
        ("clock", 4, "final round started; final turns left / players; turns / 200; passes in a row / players"),
        ("hand", k, "own cards per kind (colours, then locomotive) / cards per colour"),
        ("market", k, "face-up cards per kind / market size"),
        ("discard", k, "discard pile per kind / cards per colour"),
        ("decks", 2, "draw pile size / all train cards; ticket deck size / all tickets"),
        ("tickets", t, "multi-hot over ticket ids: the viewer's tickets"),
        ("offered", t, "multi-hot: tickets on offer to the viewer (while it chooses)"),
        ("tickets_out", t, "multi-hot: tickets the viewer knows are out of play or in the deck "
                          "(boxed at setup, or put back by it)"),
        ("owner", r * m, "per track (id order), one-hot over relative seats: who claimed it (all 0: open)"),
        ("trains", m, "per relative seat: trains left / trains per player"),
        ("points", m, "per relative seat: route points / 100"),
        ("hand_sizes", m, "per relative seat: cards in hand / cards per colour"),
        ("ticket_counts", m, "per relative seat: tickets held / initial tickets dealt x 3"),
        ("offer_sizes", m, "per relative seat: tickets it is choosing among / ticket draw"),
        ("known_cards", m * k, "per relative seat, per kind: cards seen entering its hand, not yet paid / cards per colour"),
    ])


def observation_shape(board: Board, ruleset: Ruleset) -> tuple[int]:
    return (layout(board, ruleset).size,)


def observation_tensor(obs: Observation) -> np.ndarray:
    """``obs`` as a float32 vector of ``observation_shape`` (see ``layout`` for its slices)."""
    board, rules = obs.board, obs.ruleset
    lay = layout(board, rules)
    off = lay.offsets
    m, k, n, me = board.max_players, NUM_CARD_KINDS, obs.num_players, obs.player
    out = np.zeros(lay.size, dtype=np.float32)
    colour = float(rules.cards_per_colour)
    out[off["num_players"] + n - 1] = 1.0
    out[off["to_move"] + (obs.current_player - me) % n] = 1.0
    out[off["phase"] + int(obs.phase)] = 1.0
    c = off["clock"]
    out[c:c + 4] = (obs.final_round, max(obs.final_turns_left, 0) / n, obs.turns / _TURN_SCALE,
                    obs.passes_in_a_row / n)
    out[off["hand"]:off["hand"] + k] = obs.hand
    out[off["hand"]:off["hand"] + k] /= colour
    market = off["market"]
    for card in obs.market:
        if card >= 0:
            out[market + card] += 1.0 / rules.market_size
    out[off["discard"]:off["discard"] + k] = obs.discard
    out[off["discard"]:off["discard"] + k] /= colour
    all_cards = rules.cards_per_colour * (k - 1) + rules.locomotive_cards
    out[off["decks"]] = obs.draw_pile_size / all_cards
    out[off["decks"] + 1] = obs.ticket_deck_size / max(len(board.tickets), 1)
    for name, ids in (("tickets", obs.tickets), ("offered", obs.offered), ("tickets_out", obs.boxed_known)):
        if ids:
            out[off[name] + np.fromiter(ids, dtype=np.intp, count=len(ids))] = 1.0
    put_back = [t for t in obs.ticket_deck_known if t >= 0]
    if put_back:
        out[off["tickets_out"] + np.asarray(put_back, dtype=np.intp)] = 1.0
    owner = np.asarray(obs.owner, dtype=np.intp)
    claimed = np.flatnonzero(owner >= 0)
    if claimed.size:
        out[off["owner"] + claimed * m + (owner[claimed] - me) % n] = 1.0
    order = [(me + j) % n for j in range(n)]  # relative slot j is seat order[j]
    per_seat = (("trains", obs.trains, rules.trains_per_player), ("points", obs.route_points, 100.0),
                ("hand_sizes", obs.hand_sizes, colour), ("ticket_counts", obs.ticket_counts, 3.0 * rules.initial_tickets),
                ("offer_sizes", obs.offer_sizes, float(max(rules.ticket_draw, rules.initial_tickets))))
    for name, values, scale in per_seat:
        at = off[name]
        out[at:at + n] = [values[s] for s in order]
        out[at:at + n] /= scale
    known = off["known_cards"]
    for j, s in enumerate(order):
        out[known + j * k:known + (j + 1) * k] = obs.known_cards[s]
    out[known:known + n * k] /= colour
    return out
