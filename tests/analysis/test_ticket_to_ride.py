"""Ticket to Ride's own part of the report (ttr_lab/games/ticket_to_ride/report.py), through the
game's hooks, on hand-made results with known answers."""

from __future__ import annotations

import subprocess
import sys

import pytest

from test_tables import frame_of, game
from ttr_lab.games.ticket_to_ride.game import TicketToRide


def test_tickets_and_bonuses_on_the_usa_map():
    f = frame_of(
        game(0, [1, 2], ["A", "B"]), game(0, [2, 1], ["B", "A"]),
        game(1, [1, 2], ["A", "B"]), game(1, [2, 1], ["A", "B"]),
        game(2, [1, 2], ["A", "B"], forfeit=1),  # no scores: left out
    )
    [_, (title, note, table)] = TicketToRide("usa").views.report_tables(f)
    assert title == "Tickets and bonuses" and "longest-trail bonus" in note
    t = table.set_index("entrant")
    assert list(t.index) == ["A", "B"]  # best win rate first
    assert list(t.columns) == ["tickets_held", "ticket_completion", "longest_trail", "longest_bonus_rate"]
    assert t.loc["A", "ticket_completion"] == 0.5 and t.loc["A", "longest_bonus_rate"] == 0.75
    assert t.loc["B", "longest_bonus_rate"] == 0.25


def test_tickets_and_bonuses_on_legendary_asia():
    f = frame_of(game(0, [1, 2, 3], ["A", "B", "C"], explorer=True), game(1, [2, 1, 3], ["A", "B", "C"], explorer=True))
    [_, (_, note, table)] = TicketToRide("legendary_asia").views.report_tables(f)
    t = table.set_index("entrant")
    assert "Asian Explorer" in note
    assert list(t.columns) == ["tickets_held", "ticket_completion", "explorer_bonus_rate", "largest_network", "mountain_routes"]
    assert t.loc["A", "explorer_bonus_rate"] == 0.5 and t.loc["C", "largest_network"] == 5


def test_points_by_source_add_up_and_split_out_mountain_points():
    game_ = TicketToRide("legendary_asia")
    mountain = [t.id for t in game_.board.tracks if t.mountain_spaces][:2]
    plain = [t.id for t in game_.board.tracks if not t.mountain_spaces][:2]
    f = frame_of(game(0, [1, 2], ["A", "B"], explorer=True), game(1, [2, 1], ["A", "B"], explorer=True))
    f["tracks"] = [mountain, plain, mountain, plain]  # A always holds the two mountain tracks
    f["score"] = f["route_points"] + f["ticket_points_completed"] - f["ticket_points_failed"] + f["explorer_bonus"]
    expected = sum(2 * game_.board.tracks[t].mountain_spaces for t in mountain)
    assert expected > 0
    [(title, _, table), _] = game_.views.report_tables(f)
    t = table.set_index("entrant")
    assert title == "Points by source" and "longest_bonus" not in t.columns
    assert t.loc["A", "mountains"] == expected and t.loc["B", "mountains"] == 0
    assert t.loc["A", "routes"] == 40 - expected and t.loc["A", "tickets_failed"] == -2
    parts = t.drop(columns="score").sum(axis=1)
    assert (parts - t["score"]).abs().max() < 1e-9  # the sources add up to the score
    [(_, _, usa), _] = TicketToRide("usa").views.report_tables(frame_of(game(0, [1, 2], ["A", "B"])))
    assert "mountains" not in usa.columns and "explorer_bonus" not in usa.columns and "longest_bonus" in usa.columns


def test_track_lift_is_winners_share_over_everyones():
    from ttr_lab.games.ticket_to_ride.report import track_lift

    # Seat 0 wins every game and claims tracks 0 and 10; seat 1 loses with tracks 1 and 11.
    lift = track_lift(TicketToRide("usa"), frame_of(*[game(deal, [1, 2], ["A", "B"]) for deal in range(6)]))
    # Track 0: all 6 claims by winners, who make half of all claims: (6/12) / (6/24) = 2.
    assert lift[0] == pytest.approx(2.0) and lift[10] == pytest.approx(2.0)
    assert lift[1] == 0.0 and lift[11] == 0.0
    assert lift[5] is None  # never claimed: nothing to say


@pytest.mark.parametrize("map_name, bonus, title", [("usa", "Longest-trail bonus frequency", "Longest-trail bonus"),
                                                    ("legendary_asia", "Asian Explorer bonus frequency",
                                                     "Asian Explorer bonus")])
def test_figures(map_name, bonus, title):
    f = frame_of(*[game(d, [1, 2], ["A", "B"], explorer=map_name != "usa") for d in range(3)])
    figures = TicketToRide(map_name).views.report_figures(f)
    assert [key for key, _, _ in figures] == ["ticket_completion", "longest_route", "tracks_claimed",
                                              "tracks_claimed_by_winners", "tracks_by_entrant"]  # the key names the report's file
    assert figures[1][1] == bonus and figures[1][2].axes[0].get_title() == title  # trail, as every table says
    assert "route" not in (figures[1][1] + figures[1][2].axes[0].get_title()).lower()


def test_score_parts_follow_the_ruleset():
    assert TicketToRide("usa").views.score_parts == ("route_points", "ticket_points", "longest_bonus",
                                               "ticket_points_completed", "ticket_points_failed")
    assert TicketToRide("legendary_asia").views.score_parts == ("route_points", "ticket_points", "explorer_bonus",
                                                          "ticket_points_completed", "ticket_points_failed")
    declared = {m.name for m in TicketToRide("usa").metrics}
    assert set(TicketToRide("usa").views.score_parts) <= declared


def test_the_rules_import_no_tables_or_plots():
    # numpy is the rules' own (the compiled kernels work on its arrays); tables and plots are not.
    code = ("import sys, ttr_lab.games.ticket_to_ride.game, ttr_lab.games.ticket_to_ride.report; "
            "print(sorted(m for m in ('pandas', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _label_extents(fig):
    """Each city label's box on the rendered figure, by name."""
    from ttr_lab.core.figures import png_bytes

    png_bytes(fig)  # renders, so every text has its final extent
    ax = fig.axes[0]
    return {t.get_text(): t.get_window_extent() for t in ax.texts}


@pytest.mark.parametrize("map_name", ["usa", "legendary_asia"])
def test_board_maps_keep_every_city_label_clear_of_the_others(map_name):
    from ttr_lab.games.ticket_to_ride.drawing import draw_track_heat, draw_track_lift

    board = TicketToRide(map_name).board
    n = len(board.tracks)
    for fig in (draw_track_heat(board, [i % 4 for i in range(n)], "claims", "claims per game"),
                draw_track_lift(board, [0.5 + (i % 4) / 2 for i in range(n)], [1.0] * n, "lift")):
        boxes = _label_extents(fig)
        assert set(board.cities) <= set(boxes)
        names = sorted(board.cities)
        clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if boxes[a].overlaps(boxes[b])]
        assert not clashes, f"{map_name}: labels drawn over each other: {clashes}"
    if map_name == "usa":  # the pair that used to collide: Oklahoma City's label lay over Little Rock's
        assert not boxes["Little Rock"].overlaps(boxes["Oklahoma City"])


def test_the_lift_colour_bar_reads_as_plain_ratios():
    from ttr_lab.games.ticket_to_ride.drawing import draw_track_lift

    board = TicketToRide("usa").board
    n = len(board.tracks)
    fig = draw_track_lift(board, [0.4 + (i % 6) / 2.5 for i in range(n)], [1.0] * n, "lift")
    _label_extents(fig)
    bar = fig.axes[1]
    labels = [t.get_text() for t in bar.get_yticklabels() if t.get_text()]
    assert labels == ["0.5", "1", "2"] and not any(t.get_text() for t in bar.yaxis.get_minorticklabels())
