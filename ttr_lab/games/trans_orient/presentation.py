"""``TransOrientViews``: Trans-Orient Express as the platform shows it (``game.views``, a core
``GameViews``): the score parts, ``ttr-lab play``'s table, replay descriptions, the station
picture and the replay page. The work is in replay.py, drawing.py and replay_html.py, each
loaded only when asked (the rules never load matplotlib).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ttr_lab.core.outcome import SummaryMetric
from ttr_lab.core.views import GameViews

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ttr_lab.games.trans_orient.state import GameState


class TransOrientViews(GameViews):
    # The metrics that add up to the score (the report's "Score parts" table).
    score_parts = ("vp_travel", "vp_colour_bonus", "vp_luggage", "vp_visa", "vp_season", "vp_route")
    summary_metrics = (SummaryMetric("objectives_met", "shared objectives scored per game (0 to 3)", "objectives_met"),)

    def turn_number(self, state: "GameState", index: int) -> int | None:
        """Turns completed, at a turn boundary (``ttr-lab replay --turn``)."""
        from ttr_lab.games.trans_orient.replay import turn_number

        return turn_number(state)

    def describe_state(self, state: "GameState", record: Any, index: int) -> str:
        """A replayed position in words (``ttr-lab replay``)."""
        from ttr_lab.games.trans_orient.replay import describe_state

        return describe_state(state, record, index)

    def draw_state(self, state: "GameState", names: Sequence[str] | None = None) -> "Figure":
        """The station and every seat's cards as a picture (``ttr-lab replay --picture``);
        ``names``: each seat's strategy."""
        from ttr_lab.games.trans_orient.drawing import draw_state

        return draw_state(state, names)

    def record_html(self, record: Any) -> str:
        """A record in Jupyter: its result table and the replay viewer."""
        from ttr_lab.games.trans_orient.drawing import record_html

        return record_html(record)

    def replay_page(self, record: Any, review: dict[str, Any] | None = None) -> str:
        """The replay viewer as one self-contained HTML page (``ttr-lab replay --html``), with
        ``review`` (a review's per-game JSON) drawn if given."""
        from ttr_lab.games.trans_orient.replay_html import viewer_page

        return viewer_page(record, review)

    def live(self) -> Any:
        """Trans-Orient Express at a live table: the terminal's account and the browser's station (``live``)."""
        from ttr_lab.games.trans_orient.live import TransOrientLive

        return TransOrientLive(self.game)

    def result_summary(self, record: Any) -> tuple[str, list[str], list[list[str]], list[str]]:
        """``ttr-lab play``'s account of a finished game: (first line, headers, rows, lines)."""
        from ttr_lab.games.trans_orient.replay import result_summary

        return result_summary(record)
