"""``TicketToRideViews``: Ticket to Ride as the platform shows it (``game.views``, a core
``GameViews``): the score parts, the report's ticket and bonus sections and figures, the
end-of-tournament summary columns, ``ttr-lab play``'s table, replay descriptions, the board
picture and the replay page. The work is in report.py, summary.py, replay.py, drawing.py and
replay_html.py, each loaded only when asked (the rules never load pandas or matplotlib).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ttr_lab.core.outcome import SummaryMetric
from ttr_lab.core.views import GameViews

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from ttr_lab.games.ticket_to_ride.game import TicketToRide
    from ttr_lab.games.ticket_to_ride.state import GameState

# The metrics whose sum is the score (route points, ticket points, the end bonuses the ruleset
# awards: the longest trail, the Asian Explorer, the Globetrotter, the Grand Tour), first, so the
# report can stack them; then the completed and failed tickets that make up the ticket points.
SCORE_PARTS = ("route_points", "ticket_points", "longest_bonus", "explorer_bonus", "globetrotter_bonus",
               "grand_tour_bonus", "ticket_points_completed", "ticket_points_failed")
_BONUS_RULE = {"longest_bonus": "longest_path_bonus", "explorer_bonus": "explorer_bonus",
               "globetrotter_bonus": "globetrotter_bonus", "grand_tour_bonus": "grand_tour"}


class TicketToRideViews(GameViews):
    game: "TicketToRide"

    # The result columns summary_columns reads (the end-of-tournament summary reads only these).
    report_reads = "digest"  # its report hooks read per-entrant means and track counts, not rows
    summary_inputs = ("score", "tickets_held", "tickets_completed", "longest_bonus", "explorer_bonus",
                      "globetrotter_bonus")
    summary_metrics = (SummaryMetric("completion", "tickets completed / tickets held", "tickets_completed",
                                     "tickets_held"),)
    # The maps of claimed tracks: a hundred tracks' shares from a few dozen games are noise.
    figure_min_games = {"tracks_claimed": 200, "tracks_claimed_by_winners": 200, "tracks_by_entrant": 200}

    @property
    def score_parts(self) -> tuple[str, ...]:  # type: ignore[override]
        """The metrics whose sum is the score, with the ticket points' completed and failed parts;
        an end bonus only where this ruleset awards it."""
        ruleset = self.game.ruleset
        return tuple(p for p in SCORE_PARTS if p not in _BONUS_RULE or getattr(ruleset, _BONUS_RULE[p]))

    def turn_number(self, state: "GameState", index: int) -> int | None:
        """Turns completed, at a turn boundary (a player to take a turn, or the game over)."""
        return state.turns if state.phase_name.name in ("TURN", "OVER") else None

    def describe_state(self, state: "GameState", record: Any, index: int) -> str:
        """Where a replayed game is, in a few lines (``ttr-lab replay``)."""
        from ttr_lab.games.ticket_to_ride.replay import describe_state

        return describe_state(state, record, index)

    def draw_state(self, state: "GameState", names: Sequence[str] | None = None) -> "Figure":
        """The board with every claim so far (``ttr-lab replay --picture``); ``names``: the
        strategy of each seat, for the legend."""
        from ttr_lab.games.ticket_to_ride.drawing import draw_state

        return draw_state(state, names=names)

    def result_summary(self, record: Any) -> tuple[str, list[str], list[list[str]], list[str]]:
        """``ttr-lab play``'s account of a finished game: (first line, headers, rows, lines)."""
        from ttr_lab.games.ticket_to_ride.summary import ending, result_summary

        headers, rows, lines = result_summary(record, self.score_parts)
        return ending(record), headers, rows, lines

    def record_html(self, record: Any) -> str:
        """A record in Jupyter: its result table and the replay viewer (``replay_html``)."""
        from ttr_lab.games.ticket_to_ride.replay_html import record_html

        return record_html(record)

    def replay_page(self, record: Any, review: dict[str, Any] | None = None) -> str:
        """The replay viewer as one self-contained HTML page (``ttr-lab replay --html``), with
        ``review`` (a review's per-game JSON) drawn if given."""
        from ttr_lab.games.ticket_to_ride.replay_html import viewer_page

        return viewer_page(record, review)

    def live(self) -> Any:
        """Ticket to Ride at a live table: the terminal's account and the browser's board (``live``)."""
        from ttr_lab.games.ticket_to_ride.live import TicketToRideLive

        return TicketToRideLive(self.game)

    def summary_columns(self, frame: "pd.DataFrame") -> "pd.DataFrame":
        """Beside win rates at the end of a tournament: ticket completion, end-bonus rate."""
        from ttr_lab.games.ticket_to_ride import report

        return report.summary_columns(self.game, frame)

    def summary_sums(self, frame: "pd.DataFrame") -> "pd.DataFrame":
        from ttr_lab.games.ticket_to_ride import report

        return report.summary_sums(self.game, frame)

    def summary_from_sums(self, sums: "pd.DataFrame") -> "pd.DataFrame":
        from ttr_lab.games.ticket_to_ride import report

        return report.summary_from_sums(self.game, sums)

    def report_tables(self, frame: "pd.DataFrame", records: Sequence[Any] = ()) -> list[tuple[str, str, "pd.DataFrame"]]:
        """The report's "Tickets and bonuses" section (ticket completion, end-bonus rates)."""
        from ttr_lab.games.ticket_to_ride import report

        return report.report_tables(self.game, frame, records)

    def report_figures(self, frame: "pd.DataFrame", records: Sequence[Any] = (),
                       skip: Sequence[str] = ()) -> list[tuple[str, str, "Figure"]]:
        """The report's ticket, end-bonus and track-heatmap figures (none of ``skip``)."""
        from ttr_lab.games.ticket_to_ride import report

        return report.report_figures(self.game, frame, records, skip)
