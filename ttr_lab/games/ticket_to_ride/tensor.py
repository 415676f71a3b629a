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
from itertools import compress
from operator import ne
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ttr_lab.core.tensor_layout import TensorLayout
from ttr_lab.core.tensor_template import SeatTensorWriter, TensorTemplate
from ttr_lab.games.ticket_to_ride.board import Board
from ttr_lab.games.ticket_to_ride.colours import NUM_CARD_KINDS
from ttr_lab.games.ticket_to_ride.tables import Phase
from ttr_lab.games.ticket_to_ride.kernels.layout import (
    V_BOXED_N, V_DECK_N, V_FINAL_LEFT, V_FINAL_ROUND, V_MARKET_N, V_OFFERS_N, V_PASSES, V_PHASE, V_PILE_N,
    V_PLAYER, V_TICKETS_N, V_TUNNEL_EXTRA, V_TURNS, V_ZERO,
)
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.observation import Observation, Viewer
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.slots import StateSlots

_PHASES = len(Phase)
# The phases of a map without tunnels: up to OVER (its tensor is as it was before tunnels).
_PHASES_WITHOUT_TUNNELS = int(Phase.OVER) + 1


def has_tunnels(board: Board) -> bool:
    """Whether the map has tunnels: only then does its tensor show a waiting tunnel claim."""
    return any(t.tunnel for t in board.tracks)
_TURN_SCALE = 200.0  # turns of a long game; the turn count is a clock, not a bound


@functools.lru_cache(maxsize=None)
def layout(board: Board, ruleset: Ruleset) -> TensorLayout:
    """The blocks of the tensor for one map and ruleset (seats padded to ``board.max_players``).
    The counts come first and the one-hot and multi-hot blocks after them, so filling the tensor
    is one scaled write of the counts and one write of ones (it runs at every decision)."""
    m, k, t, r = board.max_players, NUM_CARD_KINDS, len(board.tickets), len(board.tracks)
    tunnels = has_tunnels(board)
    # Only a map with tunnels has the tunnel block and the tunnel phase, so a network trained on
    # another map reads the same tensor it always did.
    tunnel_block = [("tunnel", 2 * k + 1, "a waiting tunnel claim: its turned-over cards per kind / cards turned "
                     "over; its laid payment per kind / the longest track; extra cards asked / cards turned over")]
    # Train stations' blocks only where the ruleset has stations: a USA tensor stays as it was.
    counts, hots = [], []
    if ruleset.stations_per_player:
        counts = [("station_counts", m, "per relative seat: train stations built / stations per player")]
        hots = [("stations", len(board.cities) * m,
                 "per city (id order), one-hot over relative seats: whose train station stands there (all 0: none)")]
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
        *(tunnel_block if tunnels else []),
        *counts,
        ("num_players", m, "one-hot: players at the table (index n-1)"),
        ("to_move", m, "one-hot: the player to move, relative to the viewer"),
        ("phase", _PHASES, "one-hot: initial tickets, turn, second draw, keep tickets, over, tunnel") if tunnels else
        ("phase", _PHASES_WITHOUT_TUNNELS, "one-hot: initial tickets, turn, second draw, keep tickets, over"),
        ("tickets", t, "multi-hot over ticket ids: the viewer's tickets"),
        ("offered", t, "multi-hot: tickets on offer to the viewer (while it chooses)"),
        ("tickets_out", t, "multi-hot: tickets the viewer knows are out of play or in the deck "
                          "(boxed at setup, or put back by it)"),
        ("owner", r * m, "per track (id order), one-hot over relative seats: who claimed it (all 0: open)"),
        *hots,
    ])


@functools.lru_cache(maxsize=None)
def _scales(board: Board, rules: Ruleset, n: int) -> np.ndarray:
    """The divisor of every count (the blocks from ``clock`` to ``known_cards``) at ``n`` players."""
    m, k = board.max_players, NUM_CARD_KINDS
    colour = float(rules.cards_per_colour)
    all_cards = rules.cards_per_colour * (k - 1) + rules.locomotive_cards
    parts: list[list[float]] = [[1.0, n, _TURN_SCALE, n], [colour] * k, [float(rules.market_size)] * k, [colour] * k,
             [all_cards, max(len(board.tickets), 1)],
             [rules.trains_per_player] * m, [100.0] * m, [colour] * m, [3.0 * rules.initial_tickets] * m,
             [float(max(rules.ticket_draw, rules.initial_tickets))] * m, [colour] * (m * k)]
    if has_tunnels(board):
        reveal = float(max(rules.tunnel_reveal, 1))
        parts += [[reveal] * k, [float(max(t.length for t in board.tracks))] * k, [reveal]]
    if rules.stations_per_player:
        parts.append([float(rules.stations_per_player)] * m)
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
    if "tunnel" in off:
        out[off["tunnel"]:off["tunnel"] + 2 * k + 1] = _tunnel_counts(obs)
    if rules.stations_per_player:
        built = [rules.stations_per_player - left for left in obs.stations_left]
        out[off["station_counts"]:off["station_counts"] + m] = seats(tuple(built))
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
    if rules.stations_per_player:
        base = off["stations"]
        ones.extend([base + c * m + (o - me) % n for c, o in enumerate(obs.stations) if o >= 0])
    out[ones] = 1.0
    return out


def _tunnel_counts(obs: Observation) -> list[int]:
    """The tunnel block's counts: turned-over cards per kind, laid payment per kind, extra asked."""
    k = NUM_CARD_KINDS
    values = [0] * (2 * k + 1)
    for card in obs.tunnel_revealed:
        values[card] += 1
    laid = obs.tunnel_pending
    if laid is not None:
        values[k + laid.colour] += laid.cards
        values[2 * k - 1] += laid.locomotives
    values[2 * k] = obs.tunnel_extra
    return values


class _Plan(NamedTuple):
    """What ``state_tensor`` needs of a layout at ``n`` players, looked up once per game."""

    size: int
    scales: np.ndarray
    ones_at: tuple[int, int, int]  # offsets of num_players (its index already added), to_move, phase
    tickets: int
    offered: int
    tickets_out: int
    owner: int
    m: int
    stations: int  # -1 without stations


@functools.lru_cache(maxsize=None)
def _plan(board: Board, rules: Ruleset, n: int) -> _Plan:
    lay = layout(board, rules)
    off = lay.offsets
    m = board.max_players
    scales = _scales(board, rules, n)
    return _Plan(lay.size, scales,
                 (off["num_players"] + n - 1, off["to_move"], off["phase"]),
                 off["tickets"], off["offered"], off["tickets_out"], off["owner"], m, off.get("stations", -1))


@functools.lru_cache(maxsize=1024)
def _counts_gather(view: Viewer, me: int, max_players: int) -> np.ndarray:
    """Where in ``me``'s view row (``observation.Viewer``) each number of the tensor's counts
    block is (``layout``: from ``clock`` to ``known_cards``), seats relative to ``me``; a padded
    seat reads the row's zero."""
    n, k = view.num_players, NUM_CARD_KINDS
    seats = [(me + r) % n if r < n else -1 for r in range(max_players)]

    def per_seat(block: slice, width: int = 1) -> list[int]:
        return [V_ZERO if p < 0 else block.start + p * width + i for p in seats for i in range(width)]

    at: list[int] = [V_FINAL_ROUND, V_FINAL_LEFT, V_TURNS, V_PASSES]
    for block in (view.hand, view.market_kinds, view.discard):
        at.extend(range(block.start, block.stop))
    at += [V_PILE_N, V_DECK_N]
    for block in (view.trains, view.points, view.hand_sizes, view.ticket_counts, view.offer_sizes):
        at += per_seat(block)
    at += per_seat(view.known, k)
    if int(view.g[L.ID_DECLINE]) >= 0:  # a map with tunnels: its tunnel block
        at += [*range(view.revealed_kinds.start, view.revealed_kinds.stop),
               *range(view.laid_kinds.start, view.laid_kinds.stop), V_TUNNEL_EXTRA]
    if view.stations_per_player:  # stations built (the scale divides by the stations per player)
        at += per_seat(view.stations_built)
    return np.array(at, dtype=np.intp)


class TensorWriter(SeatTensorWriter):
    """One seat's tensors, state after state: ``writer(state)`` equals ``state_tensor(state,
    seat)``, but the multi-hot blocks (tickets, offer, tickets known out, claimed tracks) are
    kept from the last call (``TensorTemplate``) and only their changes are written, so an RL
    environment pays for the counts block and two one-hots per decision, not for every claimed
    track again.

    A change is seen, not assumed: each block's source (its part of the seat's view row,
    ``observation.Viewer``) is compared by value with the one it was written from, so any state
    (another game, a clone, an earlier position) is written right.
    """

    __slots__ = ("_plan", "_n", "_template", "_owner", "_tracks", "_gather", "_stations")

    def _game_of(self, state: "StateSlots") -> object:
        return state.tables

    def _start(self, state: "StateSlots") -> None:
        game = state.tables
        self._n = n = game.num_players
        self._plan = plan = _plan(game.board, game.ruleset, n)
        self._template = TensorTemplate(plan.size, (plan.ones_at[0],))
        tracks = len(game.track_length)
        self._owner = (-1,) * tracks
        self._tracks = range(tracks)
        self._gather = _counts_gather(state.face.viewer, self.me, plan.m)
        self._stations: tuple[int, ...] = (-1,) * len(game.board.cities) if plan.stations >= 0 else ()

    def _write(self, state: "StateSlots") -> np.ndarray:
        plan, me, n, template = self._plan, self.me, self._n, self._template
        view = state.face.viewer
        v = view.row(state, me)
        source, write = template.sources.get, template.write
        owner = v[view.owner]
        if owner != self._owner:
            old, base, m = self._owner, plan.owner, plan.m
            for t in compress(self._tracks, map(ne, owner, old)):  # C loops over the tracks
                o = owner[t]
                write(t, o, (base + t * m + (o - me) % n,) if o >= 0 else ())
            self._owner = owner
        if plan.stations >= 0:
            stations = v[view.stations]
            if stations != self._stations:
                old, base, m = self._stations, plan.stations, plan.m
                for c in range(len(stations)):
                    o = stations[c]
                    if o != old[c]:
                        write(("station", c), o, (base + c * m + (o - me) % n,) if o >= 0 else ())
                self._stations = stations
        held, offered, market, deck, boxed = v[V_TICKETS_N], v[V_OFFERS_N], v[V_MARKET_N], v[V_DECK_N], v[V_BOXED_N]
        at = view.rest
        mine = v[at:at + held]
        at += held
        if source("tickets") != mine:
            base = plan.tickets
            write("tickets", mine, [base + i for i in mine])
        offer = v[at:at + offered]
        at += offered + market
        if source("offered") != offer:
            base = plan.offered
            write("offered", offer, [base + i for i in offer])
        known_out = v[at:at + deck + boxed]  # the deck's tickets this seat put back, then its boxed ones
        if source("tickets_out") != known_out:
            base = plan.tickets_out
            write("tickets_out", known_out, [base + t for t in known_out if t >= 0])
        out = template.fresh()
        scales = plan.scales
        # the counts, cast to float32 before scaling, as observation_tensor does
        np.multiply(view.buffer.take(self._gather), scales, out=out[:scales.size], dtype=np.float32)
        _, to_move, phase = plan.ones_at
        out[to_move + (v[V_PLAYER] - me) % n] = 1.0
        out[phase + v[V_PHASE]] = 1.0
        return out


def state_tensor(state: "StateSlots", me: int) -> np.ndarray:
    """``observation_tensor(state.observation(me))`` written from the state directly (OpenSpiel's
    ``state.observation_tensor``). It reads only what ``observe`` hands ``me``; the tests check
    the two are equal at every step of random games, for every seat. An RL environment keeps a
    ``TensorWriter`` per seat instead, which writes only what changed since its last tensor."""
    return TensorWriter(me)(state)
