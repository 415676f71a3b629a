"""Analysis of tournament results, for any game: tables (pandas), ratings, figures (matplotlib),
the report. It knows games only through the core's ``Game`` protocol (``game_of`` finds the
game of a results folder); a game's own tables and figures come from its optional hooks."""

from ttr_lab.analysis.breakdowns import (
    game_length_table, game_lengths, score_breakdown, score_summands, think_times, win_rate_over_games,
)
from ttr_lab.analysis.game import game_of
from ttr_lab.analysis.presentation import present
from ttr_lab.analysis.tables import (
    entrant_table, head_to_head, metric_table, pairwise_tests, player_count_table, score_parts, seat_table,
)
from ttr_lab.analysis.verdict import metric_differences, upsets, verdict

__all__ = ["entrant_table", "game_length_table", "game_lengths", "game_of", "head_to_head", "metric_differences",
           "metric_table", "pairwise_tests", "player_count_table", "present", "score_breakdown", "score_parts",
           "score_summands", "seat_table", "think_times", "upsets", "verdict", "win_rate_over_games"]
