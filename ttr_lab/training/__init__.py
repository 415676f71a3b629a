"""Training a policy and value network (``ttr-lab train``): the loop, the fit, checkpoints and
curves, the same for every game; each game's own part in ``ttr_lab.training.<game>`` (``games.py``).
The network is ``ttr_lab.strategies.network``, saved in the one weights format (``strategies/weights.py``)."""

from ttr_lab.training.config import TrainConfig, load_config
from ttr_lab.training.loop import Run, train

__all__ = ["Run", "TrainConfig", "load_config", "train"]
