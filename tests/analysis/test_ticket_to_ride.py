"""Ticket to Ride's own part of the report (ttr_lab/games/ticket_to_ride/report.py), through the
game's hooks, on hand-made results with known answers."""

from __future__ import annotations

import subprocess
import sys

import pytest

from test_tables import frame_of, game
from ttr_lab.games.ticket_to_ride.definition import TicketToRide


def test_tickets_and_bonuses_on_the_usa_map():
    f = frame_of(
        game(0, [1, 2], ["A", "B"]), game(0, [2, 1], ["B", "A"]),
        game(1, [1, 2], ["A", "B"]), game(1, [2, 1], ["A", "B"]),
        game(2, [1, 2], ["A", "B"], forfeit=1),  # no scores: left out
    )
    [(title, note, table)] = TicketToRide("usa").report_tables(f)
    assert title == "Tickets and bonuses" and "longest-trail bonus" in note
    t = table.set_index("entrant")
    assert list(t.index) == ["A", "B"]  # best win rate first
    assert list(t.columns) == ["tickets_held", "ticket_completion", "longest_trail", "longest_bonus_rate"]
    assert t.loc["A", "ticket_completion"] == 0.5 and t.loc["A", "longest_bonus_rate"] == 0.75
    assert t.loc["B", "longest_bonus_rate"] == 0.25


def test_tickets_and_bonuses_on_legendary_asia():
    f = frame_of(game(0, [1, 2, 3], ["A", "B", "C"], explorer=True), game(1, [2, 1, 3], ["A", "B", "C"], explorer=True))
    [(_, note, table)] = TicketToRide("legendary_asia").report_tables(f)
    t = table.set_index("entrant")
    assert "Asian Explorer" in note
    assert list(t.columns) == ["tickets_held", "ticket_completion", "explorer_bonus_rate", "largest_network", "mountain_routes"]
    assert t.loc["A", "explorer_bonus_rate"] == 0.5 and t.loc["C", "largest_network"] == 5


@pytest.mark.parametrize("map_name, bonus", [("usa", "Longest-route bonus frequency"),
                                             ("legendary_asia", "Asian Explorer bonus frequency")])
def test_figures(map_name, bonus):
    f = frame_of(*[game(d, [1, 2], ["A", "B"], explorer=map_name != "usa") for d in range(3)])
    figures = TicketToRide(map_name).report_figures(f)
    assert [key for key, _, _ in figures] == ["ticket_completion", "longest_route", "tracks_claimed",
                                              "tracks_claimed_by_winners"]
    assert figures[1][1] == bonus


def test_score_parts_follow_the_ruleset():
    assert TicketToRide("usa").score_parts == ("route_points", "ticket_points", "ticket_points_completed",
                                               "ticket_points_failed", "longest_bonus")
    assert TicketToRide("legendary_asia").score_parts[-1] == "explorer_bonus"
    declared = {m.name for m in TicketToRide("usa").metrics}
    assert set(TicketToRide("usa").score_parts) <= declared


def test_the_rules_import_no_tables_or_plots():
    code = ("import sys, ttr_lab.games.ticket_to_ride.definition, ttr_lab.games.ticket_to_ride.report; "
            "print(sorted(m for m in ('pandas', 'numpy', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
