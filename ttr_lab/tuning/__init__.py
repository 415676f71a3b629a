"""Tuning a strategy's parameters: trials on Ray Tune (or serially), each a seeded,
seat-rotated match against a field; the best validated on fresh seeds. Entry point:
``run_tuning(load_config(path))``, or ``ttr-lab tune CONFIG``."""

from ttr_lab.tuning.config import TuneConfig, load_config, parse_config
from ttr_lab.tuning.runner import run_tuning

__all__ = ["TuneConfig", "load_config", "parse_config", "run_tuning"]
