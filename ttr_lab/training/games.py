"""What training needs from a game, and where each game's lives.

The loop, the fit, the checkpoints, the curves and the config are the same for every game; what
differs is how samples are collected (the teacher, the searched self-play games), what the
network reads beside the observation tensor, how a checkpoint is judged and which settings make
sense together. A game that can be trained has a package ``ttr_lab.training.<its name>`` whose
``TRAINING`` is a ``GameTraining`` (Ticket to Ride's: ``training/ticket_to_ride/``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ttr_lab.core.errors import ConfigError

if TYPE_CHECKING:
    from ttr_lab.strategies.network import Network
    from ttr_lab.training.config import TrainConfig
    from ttr_lab.training.samples import Samples


@dataclass(frozen=True)
class GameTraining:
    check: Callable[["TrainConfig", str], None]  # the game's own checks of a config (str: its file)
    initial_network: Callable[[Any, "TrainConfig"], "Network"]  # a run's first network (init's, or fresh)
    collect: Callable[["Network", Any, "TrainConfig", int], "Samples"]  # an imitation iteration's samples
    searched: Callable[["Network", Any, "TrainConfig", int], "Samples"]  # an expert iteration's samples
    # the samples of one searched self-play game per seed, in seed order (the held-out games)
    played_games: Callable[["Network", Any, "TrainConfig", list[int]], list["Samples"]]
    # (net, game, players, opponent, games, seed) -> the network's summed win share, games played
    judge: Callable[["Network", Any, int, str, int, int], tuple[float, int]]
    opponent_names: Mapping[str, str]  # each judged opponent's name in the curve


def training_for(game: str) -> GameTraining:
    """The training of the game named ``game``, or a ConfigError saying it has none."""
    package = f"{__package__}.{game}"
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as exc:
        if exc.name != package:
            raise
        raise ConfigError(f"game: {game} has no training (no package {package})") from None
    training: GameTraining = module.TRAINING
    return training
