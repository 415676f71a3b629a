"""The report's Tunnels and Long tickets tables (ttr_lab/games/ticket_to_ride/record_tables.py),
on hand-made Europe records with known answers."""

from __future__ import annotations

from test_tables import frame_of, game
from ttr_lab.core.record import GameRecord
from ttr_lab.core.results import StoredRecord
from ttr_lab.games.ticket_to_ride.board import TicketDeck
from ttr_lab.games.ticket_to_ride.game import TicketToRide

EUROPE = TicketToRide("europe")
TUNNELS = [t.id for t in EUROPE.board.tracks if t.tunnel]
PLAIN = next(t.id for t in EUROPE.board.tracks if not t.tunnel and not t.ferry_locomotives)
LONG = [t for t in EUROPE.board.tickets if t.deck == TicketDeck.LONG]
REGULAR = next(t for t in EUROPE.board.tickets if t.deck == TicketDeck.REGULAR)


def _claim(track):
    return f"claim #{track} with {EUROPE.board.tracks[track].length} loco"


def _ticket(ticket, completed):
    return {"ticket": ticket.id, "name": ticket.label, "points": ticket.points, "completed": completed}


def _player(seat, tickets):
    return {"player": seat, "route_points": 0, "tickets": tickets, "ticket_points": 0, "tickets_completed": 0,
            "tickets_failed": 0, "longest_trail": 0, "longest_bonus": 0, "total": 0, "rank": 1, "trains_left": 0,
            "cards_left": 0}


def _stored(game_id, entrants, actions, tickets):
    result = {"players": [_player(s, tickets[s]) for s in range(2)], "stalled": False, "turns": 10}
    record = GameRecord("ticket_to_ride", {"map": "europe"}, 2, 1, ("x", "y"), tuple(actions), result)
    return StoredRecord(record, game_id, tuple(entrants))


def _games():
    a = _stored("g1", ["A", "B"], [
        (0, _claim(TUNNELS[0])), (0, "pay 1 card + 1 loco"),  # A: tried, paid 2 extra
        (1, _claim(TUNNELS[1])), (1, "decline"),            # B: tried, declined
        (0, _claim(TUNNELS[2])),                     # A: tried, no match: taken, 0 extra
        (1, _claim(PLAIN)),                                  # not a tunnel
    ], [[_ticket(LONG[0], True), _ticket(REGULAR, True)], [_ticket(LONG[1], False)]])
    b = _stored("g2", ["B", "A"], [
        (0, _claim(TUNNELS[0])), (0, "pay 2 loco"),          # B: tried, paid 2 extra
        (1, _claim(TUNNELS[3])), (1, "decline"),            # A: tried, declined
    ], [[_ticket(LONG[2], True)], [_ticket(LONG[3], False), _ticket(REGULAR, False)]])
    frame = frame_of(game(1, [1, 2], ["A", "B"], game_id="g1"), game(1, [1, 2], ["B", "A"], game_id="g2"))
    return frame, [a, b]


def test_tunnel_claims_counted_per_entrant_from_the_records():
    frame, records = _games()
    sections = {title: table for title, _, table in EUROPE.views.report_tables(frame, records)}
    t = sections["Tunnels"].set_index("entrant")
    assert t.loc["A", ["games", "tried", "paid", "declined", "extra_cards"]].tolist() == [2, 3, 2, 1, 2]
    assert t.loc["A", "extra_per_paid"] == 1.0
    assert t.loc["B", ["games", "tried", "paid", "declined", "extra_cards"]].tolist() == [2, 2, 1, 1, 2]


def test_long_tickets_kept_and_completed_per_entrant():
    frame, records = _games()
    sections = {title: table for title, _, table in EUROPE.views.report_tables(frame, records)}
    t = sections["Long tickets"].set_index("entrant")
    assert t.loc["A", ["kept", "completed"]].tolist() == [2, 1] and t.loc["A", "completion"] == 0.5
    assert t.loc["B", ["kept", "completed"]].tolist() == [2, 1]
    assert 0 < t.loc["A", "completion_low"] < 0.5 < t.loc["A", "completion_high"] < 1


def test_only_games_in_the_frame_count_and_other_boards_have_no_such_sections():
    frame, records = _games()
    sections = {title: table for title, _, table in EUROPE.views.report_tables(frame[frame["game_id"] == "g1"], records)}
    assert sections["Tunnels"].set_index("entrant").loc["B", "tried"] == 1  # g2 left out
    usa = {title for title, _, _ in TicketToRide("usa").views.report_tables(frame, records)}
    assert not {"Tunnels", "Long tickets"} & usa


def test_stations_built_and_tracks_borrowed_per_entrant_from_the_stored_results():
    frame, (a, b) = _games()
    rows = a.record.result["players"]
    # A (seat 0 of g1) built 2 stations, one borrowing track 5; B built 1 borrowing nothing.
    rows[0].update(stations_built=2, station_points=4, station_tracks=[[3, 5], [9, -1]])
    rows[1].update(stations_built=1, station_points=8, station_tracks=[[4, -1]])
    sections = {title: table for title, _, table in EUROPE.views.report_tables(frame, [a, b])}
    t = sections["Stations"].set_index("entrant")
    assert t.loc["A", ["games", "built_per_game", "borrowed_per_game", "borrowed_per_station"]].tolist() == [1, 2, 1, 0.5]
    assert t.loc["B", ["games", "built_per_game", "borrowed_per_game"]].tolist() == [1, 1, 0]  # g2 has no stations
    _, records = _games()
    assert "Stations" not in {title for title, _, _ in EUROPE.views.report_tables(frame, records)}
