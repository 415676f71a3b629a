"""Tournaments: thousands of seeded, seat-rotated games spread over Ray (or played serially),
stored as they finish, resumable. Entry point: ``run_tournament(config)``."""

from typing import TYPE_CHECKING, Any

from ttr_lab.core.registry import StrategySpec
from ttr_lab.tournament.config import TournamentConfig, load_config

if TYPE_CHECKING:
    from ttr_lab.tournament.runner import run_tournament

EntrantConfig = StrategySpec  # its former name here: an entrant is the core's one strategy spec


def __getattr__(name: str) -> Any:
    # The runner (and with it pandas, the store, the summary) is imported on first use: a Ray
    # worker imports this package to play its batches and needs none of it (about 1 s of every
    # worker's start-up, on the critical path of a run's start).
    if name == "run_tournament":
        from ttr_lab.tournament.runner import run_tournament

        return run_tournament
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["EntrantConfig", "StrategySpec", "TournamentConfig", "load_config", "run_tournament"]
