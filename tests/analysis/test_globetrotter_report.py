"""The report on the USA 1910 decks: the Globetrotter bonus as a score part, a table column and
the summary's bonus where the variant awards it (hand-made results with known answers)."""

from __future__ import annotations

from test_tables import frame_of, game
from ttr_lab.games.ticket_to_ride.game import TicketToRide


def trotter_frame(variant):
    """Two games of A and B; A takes the Globetrotter's 15 in the first, both in the second."""
    f = frame_of(game(0, [1, 2], ["A", "B"]), game(1, [1, 2], ["A", "B"]))
    f["variant"] = variant
    f["globetrotter_bonus"] = [15, 0, 15, 15]
    if not TicketToRide(variant).ruleset.longest_path_bonus:
        f["longest_bonus"] = 0
    f["score"] = (f["route_points"] + f["ticket_points_completed"] - f["ticket_points_failed"] + f["longest_bonus"]
                  + f["globetrotter_bonus"])
    return f


def test_score_parts_name_the_globetrotter_where_awarded():
    assert TicketToRide("usa_1910").views.score_parts == ("route_points", "ticket_points", "globetrotter_bonus",
                                                          "ticket_points_completed", "ticket_points_failed")
    assert TicketToRide("usa_mega").views.score_parts == ("route_points", "ticket_points", "longest_bonus",
                                                          "globetrotter_bonus", "ticket_points_completed",
                                                          "ticket_points_failed")
    assert "globetrotter_bonus" not in TicketToRide("usa_big_cities").views.score_parts


def test_tables_show_the_globetrotter_and_the_sources_add_up():
    for variant in ("usa_1910", "usa_mega"):
        [(_, _, sources), (_, note, table)] = TicketToRide(variant).views.report_tables(trotter_frame(variant))
        t = table.set_index("entrant")
        assert "Globetrotter" in note
        assert t.loc["A", "globetrotter_bonus_rate"] == 1.0 and t.loc["B", "globetrotter_bonus_rate"] == 0.5
        s = sources.set_index("entrant")
        assert s.loc["A", "globetrotter_bonus"] == 15 and s.loc["B", "globetrotter_bonus"] == 7.5
        assert (s.drop(columns="score").sum(axis=1) - s["score"]).abs().max() < 1e-9
        assert ("longest_trail" in t.columns) == (variant == "usa_mega")
    [(_, _, sources), (_, note, table)] = TicketToRide("usa_big_cities").views.report_tables(trotter_frame("usa_big_cities"))
    assert "Globetrotter" not in note and "globetrotter_bonus" not in sources and "globetrotter_bonus_rate" not in table


def test_summary_bonus_is_the_globetrotter_when_there_is_no_longest_path():
    views = TicketToRide("usa_1910").views
    table = views.summary_columns(trotter_frame("usa_1910"))
    assert "Globetrotter" in table.attrs["caption"]
    assert table.loc["A", "bonus"] == 1.0 and table.loc["B", "bonus"] == 0.5
    mega = TicketToRide("usa_mega").views.summary_columns(trotter_frame("usa_mega"))
    assert "longest-trail" in mega.attrs["caption"]
