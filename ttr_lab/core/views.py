"""``GameViews``: how a game is presented (report sections, summaries, replays, drawings), kept
off the rules object as pgx keeps rendering apart from ``step``.

Every ``Game`` has a ``views`` property returning a ``GameViews`` for itself; a game overrides
what it has to say and inherits the rest. The defaults are what the platform shows for a game
that says nothing: the score alone, no extra sections, an outcome table, every action a turn.
A game builds its views lazily (``import`` inside the property), so loading the rules never
loads pandas or matplotlib.

    views = load_game("ticket_to_ride").views
    views.report_tables(frame)      # the report's sections of the game's own
    views.offers("draw_state")      # False where the game draws nothing
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ttr_lab.core.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from ttr_lab.core.game import Game
    from ttr_lab.core.live import LiveView
    from ttr_lab.core.outcome import SummaryMetric


class GameViews:
    """The presentation of one game, with defaults a game replaces where it has its own.
    ``state`` is one of the game's states, ``record`` a ``GameRecord`` of it (typed ``Any`` so a
    game's subclass can name its own state class)."""

    # Metric names whose sum is the score, then any sub-parts worth showing; the report's
    # "Score parts" table describes each per entrant. Empty: the score alone.
    score_parts: tuple[str, ...] = ()
    # The result columns ``summary_columns`` reads, so the summary of a large tournament reads
    # only those; None: it may read any column (all are read).
    summary_inputs: tuple[str, ...] | None = ()
    # Figures per entrant over its games (``ttr_lab.core.outcome.SummaryMetric``), by name: what
    # the generic summary (``analysis.stats.summarize``) and tuning report beside the win rate.
    summary_metrics: tuple["SummaryMetric", ...] = ()
    # The game's report figures that say nothing on a few games: key -> the fewest games they
    # are drawn from (the report names those it skips, and why).
    figure_min_games: Mapping[str, int] = {}
    # What ``report_tables`` and ``report_figures`` are handed: "frame", every row as one pandas
    # frame, or "digest", the analysis' ``ResultsDigest`` (read a chunk at a time, so a report of
    # millions of games fits in memory).
    report_reads: str = "frame"

    def __init__(self, game: "Game") -> None:
        self.game = game

    def offers(self, name: str) -> bool:
        """Whether the game replaces the default ``name`` (``draw_state``, ``replay_page``...):
        for tools that refuse early what a game cannot show."""
        return getattr(type(self), name) is not getattr(GameViews, name)

    # -- tournament report and summary ------------------------------------------------------------

    def report_tables(self, frame: "pd.DataFrame", records: Sequence[Any] = ()) -> list[tuple[str, str, "pd.DataFrame"]]:
        """Report sections of the game's own, as (title, one-line note, table); ``frame``: the
        results, one row per player per game, forfeited games included with no score;
        ``records``: the folder's stored game records (``StoredRecord``s), when it kept them."""
        return []

    def report_figures(self, frame: "pd.DataFrame", records: Sequence[Any] = ()) -> list[tuple[str, str, "Figure"]]:
        """Report figures of the game's own, as (key, caption, Figure); ``key`` names the files
        ``report/<key>.png`` and ``.svg``, so it is a plain file name."""
        return []

    def summary_columns(self, frame: "pd.DataFrame") -> "pd.DataFrame | None":
        """Columns per entrant the end-of-tournament summary shows beside win rates (indexed by
        entrant; ``attrs["percent"]`` names the shares, ``attrs["caption"]`` says what they are);
        None: none."""
        return None

    def summary_sums(self, frame: "pd.DataFrame") -> "pd.DataFrame | None":
        """Per entrant (the index), sums over ``frame``'s rows that add up, chunk of games by
        chunk, to the sums over every row: what ``summary_from_sums`` turns into the
        ``summary_columns``, so the summary of a big results folder reads a chunk at a time.
        None: this game's ``summary_columns`` (if any) reads every row at once."""
        return None

    def summary_from_sums(self, sums: "pd.DataFrame") -> "pd.DataFrame | None":
        """``summary_columns`` from the ``summary_sums`` of every row."""
        return None

    # -- one game --------------------------------------------------------------------------------

    def result_summary(self, record: Any) -> tuple[str, list[str], list[list[str]], list[str]]:
        """A finished game as ``ttr-lab play`` prints it: (how it ended, headers, rows of plain
        strings, free lines). Default: rank, seat, strategy, the score parts, the total."""
        outcome = record.outcome()
        parts = [p for p in self.score_parts if any(p in o.metrics for o in outcome.players)]
        headers = ["rank", "seat", "strategy", *parts, "total"]
        order = sorted(range(len(outcome.players)), key=lambda s: (outcome.players[s].rank, s))
        rows = [[str(outcome.players[s].rank), str(s), record.strategies[s],
                 *(str(outcome.players[s].metrics.get(p, "")) for p in parts), str(outcome.players[s].score)]
                for s in order]
        return outcome.termination.value, headers, rows, []

    def turn_number(self, state: Any, index: int) -> int | None:
        """Turns completed at ``state`` (reached after ``index`` actions) when it is at a turn
        boundary, else None (``GameRecord.state_at(turn=...)``). Default: every action a turn."""
        return index

    def describe_state(self, state: Any, record: Any, index: int) -> str:
        """A replayed position (after ``index`` actions of ``record``) in words (``ttr-lab replay``)."""
        where = "game over" if state.is_terminal() else f"seat {state.current_player} to play"
        lines = [f"{self.game.title}, seed {record.seed}: after {index} actions, {where}"]
        lines.extend(record.closing_lines(state, index))
        return "\n".join(lines)

    def draw_state(self, state: Any, names: Sequence[str] | None = None) -> "Figure":
        """A replayed position as a matplotlib ``Figure`` (``names``: each seat's strategy)."""
        raise ConfigError(f"{self.game.title} has no board picture")

    def replay_page(self, record: Any, review: dict[str, Any] | None = None) -> str:
        """The whole game as one self-contained HTML page (``ttr-lab replay --html``); ``review``:
        a review of the game (its per-game JSON, as a dict) drawn with it."""
        raise ConfigError(f"{self.game.title} has no HTML replay viewer")

    def record_html(self, record: Any) -> str | None:
        """A record in Jupyter as HTML; None: Jupyter shows its text form."""
        return None

    def live(self) -> "LiveView":
        """How a person at the table sees the game (``ttr-lab play --human``, ``ttr-lab serve``):
        ``ttr_lab.core.live.LiveView``'s defaults, or the game's own subclass."""
        from ttr_lab.core.live import LiveView

        return LiveView(self.game)

