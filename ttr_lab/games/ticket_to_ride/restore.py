"""``restore_state``: the state a ``snapshot()`` describes, read back (``snapshot.py`` writes
one; reading needs the state, which writing must not import: the state's ``snapshot()`` calls it).
"""

from __future__ import annotations

from typing import Any

from ttr_lab.games.ticket_to_ride.board import Board
from ttr_lab.games.ticket_to_ride.colours import NUM_CARD_KINDS, card_index
from ttr_lab.games.ticket_to_ride.tables import Phase, tables_for
from ttr_lab.games.ticket_to_ride.fields import from_plain
from ttr_lab.games.ticket_to_ride.kernels import layout as L
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset
from ttr_lab.games.ticket_to_ride.snapshot import plain_parts
from ttr_lab.games.ticket_to_ride.state import GameState, assemble_state


def restore_state(board: Board, snap: dict[str, Any], ruleset: Ruleset | None = None) -> GameState:
    """The state a ``snapshot()`` describes. A snapshot is the position, not the path: the public
    history is counted, not listed (a record lists it), so a restored state's ``history()``
    starts empty.

    For debugging, bug reports and hand-built test positions. Checks that cards and tickets are
    conserved, so a position cannot silently contain 111 cards.
    """
    game = tables_for(board, int(snap["num_players"]), ruleset)
    n = game.num_players

    def counts(named: dict[str, int]) -> list[int]:
        out = [0] * NUM_CARD_KINDS
        for name, count in named.items():
            out[card_index(name)] += int(count)
        return out

    phase = int(Phase[str(snap["phase"]).upper()])
    hands = [c for p in range(n) for c in counts(snap["hands"][p])]
    known = snap.get("known_cards") or [{}] * n
    discard = [0] * NUM_CARD_KINDS
    for c in snap["discard"]:
        discard[card_index(c)] += 1
    owner = [-1] * len(board.tracks)
    for t, p in snap["claimed"].items():
        owner[int(t)] = int(p)
    ticket_deck = tuple(int(t) for t in snap["ticket_deck"])
    returned_by = tuple(int(r) for r in snap.get("ticket_deck_returned_by") or [-1] * len(ticket_deck))
    if len(returned_by) != len(ticket_deck):
        raise ValueError("snapshot's ticket_deck_returned_by must have one entry per ticket in the deck")
    boxed = tuple(int(t) for t in snap.get("boxed_tickets") or ())
    stations, built = _stations(board, game.ruleset, n, snap)
    s = assemble_state(
        game,
        phase=int(Phase.OVER) if snap.get("terminal") else phase,
        player=int(snap["current_player"]),
        hands=hands,
        known=[min(k, h) for k, h in zip((c for p in range(n) for c in counts(known[p])), hands)],
        pile=[card_index(c) for c in reversed(snap["draw_pile"])],
        discard=discard,
        market=[card_index(c) for c in snap["market"]],
        owner=owner,
        trains=[int(x) for x in snap["trains"]],
        points=[int(x) for x in snap["route_points"]],
        tickets=[tuple(int(t) for t in held) for held in snap["tickets_held"]],
        offers=[tuple(int(t) for t in o) for o in snap["offered_tickets"]],
        ticket_deck=ticket_deck,
        returned_by=returned_by,
        boxed=boxed,
        boxed_by=tuple(int(r) for r in snap.get("boxed_by") or [-1] * len(boxed)),
        rng=int(snap.get("rng_state", 0)),
        final_turns=int(snap.get("final_turns_left", 0 if snap.get("final_round") else -1)),
        passes=int(snap.get("passes_in_a_row", 0)),
        turns=int(snap.get("turns", 0)),
        stalled=bool(snap.get("stalled", False)),
        log_len=int(snap.get("history_length", 0)),  # the count, not the events
        stations=stations,
        stations_built=built,
        # Fields a snapshot holds as plain numbers; one it lacks keeps its declared fill.
        **{p.face_name: from_plain(p, snap[p.face_name]) for p in plain_parts() if p.face_name in snap},
    )
    claims = int(s.face.g[L.N_ACTIONS] - s.face.g[L.ID_CLAIM])
    if not -1 <= s.tunnel_claim < claims:
        raise ValueError(f"snapshot's tunnel_claim must be -1 or a claim 0..{claims - 1}, got {s.tunnel_claim}")
    laid = s.tunnel_pending
    if (laid is None) != (s.phase != Phase.TUNNEL) and not s.is_terminal():
        raise ValueError("snapshot's tunnel_claim must name a claim exactly while the phase is tunnel")
    if laid is not None and not s.tables.board.tracks[laid.track].tunnel:
        raise ValueError(f"snapshot's tunnel_claim is a claim of {laid.track}, which is no tunnel")
    # A waiting tunnel's laid payment and turned-over cards are out of every hand and pile.
    cards = (sum(s.hands) + len(s.pile) + sum(s.discard) + len(s.market) + len(s.revealed)
             + (laid.cards + laid.locomotives if laid is not None else 0))
    if cards != len(game.deck):
        raise ValueError(f"snapshot holds {cards} train cards, the game has {len(game.deck)}")
    if not s.pile and any(s.discard):
        raise ValueError("snapshot has an empty draw pile beside a non-empty discard pile; the rules reshuffle at once")
    if len(s.market) < game.ruleset.market_size and s.pile:
        raise ValueError("snapshot has a short market while the draw pile holds cards; the rules refill at once")
    tickets = [t for held in s.tickets for t in held] + [t for o in s.offers for t in o] + list(s.ticket_deck) + list(s.boxed)
    if len(tickets) != len(set(tickets)):
        raise ValueError("snapshot lists a ticket twice")
    return s


def _stations(board: Board, rules: Ruleset, n: int, snap: dict[str, Any]) -> tuple[list[int], list[int]]:
    """The stations field (per city its owner, or -1) and stations built per player that ``snap``
    describes (``"stations": {city: owner}``); both empty on a game without stations."""
    placed = snap.get("stations") or {}
    if not rules.stations_per_player:
        if placed:
            raise ValueError("snapshot places train stations, but this game's ruleset has none (stations_per_player 0)")
        return [], []
    stations = [-1] * len(board.cities)
    for name, owner in placed.items():
        city = board.city(str(name))
        if not 0 <= int(owner) < n:
            raise ValueError(f"snapshot's station at {board.cities[city]} belongs to no player ({owner!r})")
        stations[city] = int(owner)
    counted = [stations.count(p) for p in range(n)]
    built = [int(b) for b in snap.get("stations_built") or counted]
    if built != counted:
        raise ValueError(f"snapshot's stations_built {built} differ from the stations it places, {counted}")
    if max(built, default=0) > rules.stations_per_player:
        raise ValueError(f"snapshot gives a player {max(built)} stations; the ruleset allows {rules.stations_per_player}")
    return stations, built
