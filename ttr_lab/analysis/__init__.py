"""Analysis of tournament results: tables (pandas), ratings, figures (matplotlib), the report."""

from ttr_lab.analysis.tables import (
    entrant_table, head_to_head, pairwise_tests, player_count_table, score_parts, seat_table,
)

__all__ = ["entrant_table", "head_to_head", "pairwise_tests", "player_count_table", "score_parts", "seat_table"]
