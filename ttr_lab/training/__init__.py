"""Training a policy and value network by self-play on the batched env (``ttr-lab train``): the
network is ``ttr_lab.strategies.ticket_to_ride.network``, what it plays as is the ``learned`` strategy."""

from ttr_lab.training.config import TrainConfig, load_config
from ttr_lab.training.loop import Run, train

__all__ = ["Run", "TrainConfig", "load_config", "train"]
