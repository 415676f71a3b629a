"""Tournaments: thousands of seeded, seat-rotated games spread over Ray (or played serially),
stored as they finish, resumable. Entry point: ``run_tournament(config)``."""

from ttr_lab.tournament.config import EntrantConfig, TournamentConfig, load_config
from ttr_lab.tournament.runner import run_tournament

__all__ = ["EntrantConfig", "TournamentConfig", "load_config", "run_tournament"]
