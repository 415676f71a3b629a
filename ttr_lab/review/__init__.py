"""Reviewing a game: for each decision, what the strongest search would have played, what the
move played lost against it (paired, with its standard error) and the seat's expected final lead
(``review_game``, ``review_games``; the outputs in ``outputs``; docs/review.md)."""

from ttr_lab.review.reviewed import ReviewedDecision, ReviewedGame
from ttr_lab.review.runner import DEFAULT_BUDGET, GameToReview, review_game, review_games

__all__ = ["DEFAULT_BUDGET", "GameToReview", "ReviewedDecision", "ReviewedGame", "review_game", "review_games"]
