"""Tournaments: thousands of seeded, seat-rotated games spread over Ray (or played serially),
stored as they finish, resumable. Entry point: ``run_tournament(config)``."""

from ttr_lab.core.registry import StrategySpec
from ttr_lab.tournament.config import TournamentConfig, load_config
from ttr_lab.tournament.runner import run_tournament

EntrantConfig = StrategySpec  # its former name here: an entrant is the core's one strategy spec

__all__ = ["EntrantConfig", "StrategySpec", "TournamentConfig", "load_config", "run_tournament"]
