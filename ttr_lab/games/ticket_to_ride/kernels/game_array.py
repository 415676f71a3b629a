"""The game array ``g`` of one (board, ruleset, player count), built once from the engine's own
tables, so the kernels read the very numbers the rules were written with (``layout`` says where
each lives).

Built in Python, from ``game.Tables`` and the action space's order (``actions.all_actions``): an
action id in a kernel is the id ``TicketToRide.action_space`` gives the same action.
"""

from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING

import numpy as np

from ttr_lab.games.ticket_to_ride.actions import (
    BuildStation, Claim, DeclineTunnel, DrawMarket, KeepTickets, PayTunnel, all_actions, max_offer,
    station_payment_costs,
)
from ttr_lab.games.ticket_to_ride.board import TicketDeck
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.ruleset import Rejects, TieBreak

if TYPE_CHECKING:
    from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
    from ttr_lab.games.ticket_to_ride.tables import Tables

_TIE_CODES = {
    TieBreak.TICKETS: L.TIE_TICKETS, TieBreak.LONGEST: L.TIE_LONGEST,
    TieBreak.EXPLORER: L.TIE_EXPLORER, TieBreak.MOUNTAINS: L.TIE_MOUNTAINS, TieBreak.STATIONS: L.TIE_STATIONS,
    TieBreak.GLOBETROTTER: L.TIE_GLOBETROTTER,
}


class _Builder:
    """Appends tables after the header and records their offsets in it."""

    def __init__(self) -> None:
        self.header = [0] * L.GAME_HEADER
        self.body: list[int] = []

    def table(self, slot: int, values: list[int]) -> None:
        self.header[slot] = L.GAME_HEADER + len(self.body)
        self.body.extend(int(v) for v in values)

    def array(self) -> np.ndarray:
        return np.array(self.header + self.body, dtype=np.int64)


def _keep_subsets(offered: int, minimum: int) -> list[int]:
    """The keep options of ``ActionTable.keep_options`` as masks, in its order."""
    if offered == 0:
        return [0]
    size_min = max(min(minimum, offered), 1)
    combos = [c for size in range(size_min, offered + 1) for c in itertools.combinations(range(offered), size)]
    combos.sort()
    return [sum(1 << i for i in c) for c in combos]


def _station_tables(b: _Builder, rules: "Ruleset", n: int, cities: int, actions: tuple) -> None:
    """The station numbers and the station builds' ids (``layout``'s station slots)."""
    h = b.header
    costs = station_payment_costs(rules)
    has = rules.stations_per_player > 0
    h[L.STATIONS_PER_PLAYER], h[L.STATION_POINTS] = rules.stations_per_player, rules.station_points
    h[L.STATION_CITIES], h[L.STATION_PLAYERS] = (cities, n) if has else (0, 0)
    top = h[L.MAX_STATION_COST] = max(costs, default=0)
    b.table(L.STATION_COSTS, list(rules.station_costs[:rules.stations_per_player]))
    builds = actions[h[L.ID_STATION]:h[L.ID_CLAIM]]
    assert all(type(a) is BuildStation for a in builds), "the station builds lie between the keeps and the claims"
    station_id = [-1] * (cities * (top + 1) * L.KINDS * (top + 1) if has else 0)
    for i, a in enumerate(builds):
        cost = a.cards + a.locomotives
        station_id[((a.city * (top + 1) + cost) * L.KINDS + a.colour) * (top + 1) + a.locomotives] = h[L.ID_STATION] + i
    b.table(L.STATION_ID, station_id)
    b.table(L.STATION_CITY, [a.city for a in builds])
    b.table(L.STATION_COLOUR, [a.colour for a in builds])
    b.table(L.STATION_CARDS, [a.cards for a in builds])
    b.table(L.STATION_LOCOS, [a.locomotives for a in builds])


@functools.lru_cache(maxsize=256)
def game_array(game: "Tables") -> np.ndarray:
    """The ``g`` array of ``game`` (cached: one per Tables, which is itself shared)."""
    board, rules, n = game.board, game.ruleset, game.num_players
    tracks, tickets = board.tracks, board.tickets
    b = _Builder()
    h = b.header
    offer = max_offer(rules)
    actions = all_actions(board, rules)
    h[L.N_PLAYERS], h[L.N_TRACKS], h[L.N_CITIES] = n, len(tracks), len(board.cities)
    h[L.N_TICKETS], h[L.N_CARDS], h[L.MARKET_SIZE], h[L.MAX_OFFER] = len(tickets), len(game.deck), rules.market_size, offer
    h[L.INITIAL_HAND], h[L.INITIAL_TICKETS], h[L.INITIAL_LONG] = rules.initial_hand, rules.initial_tickets, rules.initial_long_tickets
    h[L.INITIAL_KEEP_MIN], h[L.TICKET_DRAW], h[L.TICKET_KEEP_MIN] = rules.initial_keep_min, rules.ticket_draw, rules.ticket_keep_min
    h[L.LOCO_LIMIT], h[L.MAX_REDEALS], h[L.REDEAL_MIN] = rules.market_locomotive_limit, rules.max_redeals, rules.redeal_min_non_locomotives
    h[L.END_TRAINS], h[L.DOUBLES_SHARED] = rules.end_trains, int(game.doubles_shared)
    h[L.TRAINS_PER_PLAYER], h[L.LONGEST_BONUS], h[L.EXPLORER_BONUS] = rules.trains_per_player, rules.longest_path_bonus, rules.explorer_bonus
    h[L.REJECTS_BOX] = int(rules.initial_rejects is Rejects.BOX)
    h[L.GLOBETROTTER_BONUS] = rules.globetrotter_bonus
    if len(rules.tie_breaks) > len(_TIE_CODES):
        raise ValueError(f"at most {len(_TIE_CODES)} tie-breaks")
    h[L.N_TIE_BREAKS] = len(rules.tie_breaks)
    for i, t in enumerate(rules.tie_breaks):
        h[L.TIE_BREAKS + i] = _TIE_CODES[t]
    h[L.HAS_MOUNTAINS] = int(any(t.mountain_spaces for t in tracks))
    # Action ids, read off the action space's own order rather than restated.
    kinds = [type(a) for a in actions]
    h[L.ID_MARKET] = kinds.index(DrawMarket)
    h[L.ID_TICKETS] = 1 + rules.market_size
    h[L.ID_PASS] = 2 + rules.market_size
    h[L.ID_KEEP] = kinds.index(KeepTickets)
    h[L.ID_CLAIM] = kinds.index(Claim)
    # The station builds lie between the tunnel decisions and the claims (an empty range, at the
    # claims' id, without stations).
    h[L.ID_STATION] = kinds.index(BuildStation) if BuildStation in kinds else h[L.ID_CLAIM]
    h[L.N_ACTIONS] = len(actions)
    # Tunnels: a map without them has no tunnel decisions, their range empty at the stations' id.
    pays = [a for a in actions if type(a) is PayTunnel]
    has_tunnels = DeclineTunnel in kinds
    reveal = rules.tunnel_reveal if has_tunnels else 0
    h[L.TUNNEL_REVEAL] = reveal
    h[L.ID_TUNNEL] = kinds.index(PayTunnel) if pays else (kinds.index(DeclineTunnel) if has_tunnels else h[L.ID_STATION])
    h[L.ID_DECLINE] = kinds.index(DeclineTunnel) if has_tunnels else -1
    longest = max(t.length for t in tracks)
    h[L.MAX_LENGTH] = longest
    h[L.N_GROUPS] = len(game.groups)
    regular = [t.id for t in tickets if t.deck is TicketDeck.REGULAR]
    longs = [t.id for t in tickets if t.deck is TicketDeck.LONG]
    h[L.N_REGULAR], h[L.N_LONG] = len(regular), len(longs)

    b.table(L.T_LENGTH, list(game.track_length))
    b.table(L.T_COLOUR, list(game.track_colour))
    b.table(L.T_FERRY, list(game.track_ferry))
    b.table(L.T_TRAINS, list(game.track_trains))
    b.table(L.T_POINTS, list(game.track_points))
    b.table(L.T_TWIN, list(game.track_twin))
    b.table(L.T_CITY_A, [t.a for t in tracks])
    b.table(L.T_CITY_B, [t.b for t in tracks])
    b.table(L.T_GROUP, list(game.track_group))
    b.table(L.T_MOUNTAIN, [t.mountain_spaces for t in tracks])
    claim_id = [-1] * (len(tracks) * L.KINDS * (longest + 1))
    claims = [a for a in actions if type(a) is Claim]
    for i, a in enumerate(claims):
        claim_id[(a.track * L.KINDS + a.colour) * (longest + 1) + a.locomotives] = h[L.ID_CLAIM] + i
    b.table(L.CLAIM_ID, claim_id)
    b.table(L.CLAIM_TRACK, [a.track for a in claims])
    b.table(L.CLAIM_COLOUR, [a.colour for a in claims])
    b.table(L.CLAIM_CARDS, [a.cards for a in claims])
    b.table(L.CLAIM_LOCOS, [a.locomotives for a in claims])
    starts: list[int] = []
    counts: list[int] = []
    members: list[int] = []
    for group in game.initial_groups:
        starts.append(len(members))
        counts.append(len(group))
        members.extend(group)
    b.table(L.GROUP_START, starts)
    b.table(L.GROUP_COUNT, counts)
    b.table(L.GROUP_TRACKS, members)
    b.table(L.GROUP_LENGTH, [k[1] for k in game.groups])
    b.table(L.GROUP_FERRY, [k[2] for k in game.groups])
    b.table(L.GROUP_NEED, [k[3] for k in game.groups])
    starts, counts = [], []
    order: list[int] = []
    for row in game.colour_groups:
        starts.append(len(order))
        counts.append(len(row))
        order.extend(gi for _, _, _, gi in row)
    b.table(L.COLOUR_GROUP_START, starts)
    b.table(L.COLOUR_GROUP_COUNT, counts)
    b.table(L.GROUP_ORDER, order)
    b.table(L.TICKET_A, [t.a for t in tickets])
    b.table(L.TICKET_B, [t.b for t in tickets])
    b.table(L.TICKET_POINTS, [t.points for t in tickets])
    b.table(L.REGULAR_TICKETS, regular)
    b.table(L.LONG_TICKETS, longs)
    b.table(L.DECK_CARDS, list(game.deck))
    starts, counts = [], []
    masks: list[int] = []
    for offered in range(offer + 1):
        for minimum in range(offer + 1):
            subsets = _keep_subsets(offered, minimum)
            starts.append(len(masks))
            counts.append(len(subsets))
            masks.extend(subsets)
    b.table(L.KEEP_START, starts)
    b.table(L.KEEP_COUNT, counts)
    b.table(L.KEEP_MASKS, masks)
    # The Grand Tour's table only where it is played, so a game without it skips the search.
    tour = list(rules.grand_tour_bonus) if rules.grand_tour else []
    h[L.N_GRAND_TOUR] = len(tour)
    b.table(L.GRAND_TOUR, tour)
    b.table(L.T_TUNNEL, [int(t.tunnel) for t in tracks])
    pay_id = [-1] * ((reveal + 1) * (reveal + 1))
    for i, pay in enumerate(pays):
        pay_id[(pay.cards + pay.locomotives) * (reveal + 1) + pay.locomotives] = h[L.ID_TUNNEL] + i
    b.table(L.PAY_ID, pay_id)
    b.table(L.PAY_CARDS, [pay.cards for pay in pays])
    b.table(L.PAY_LOCOS, [pay.locomotives for pay in pays])
    _station_tables(b, rules, n, len(board.cities), actions)
    # The state's fields, after its header, at the offsets its declaration gives this game.
    sized = L.STATE.sized(L.dims_of(h))
    for part in L.STATE.body:
        h[L.GAME.offsets[f"s_{part.name}"]] = sized.offsets[part.name]
    h[L.S_SIZE] = sized.size
    g = b.array()
    g.setflags(write=False)
    return g
