"""Every shipped weights file is named, in the header of the training config that made it, as
that run's network: the config is found by the name the file's metadata records (``trained_by``),
so a header naming the wrong run, or none, for a file that ships is caught."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from ttr_lab.strategies.network import Network
from ttr_lab.strategies.ticket_to_ride.learned import shipped_weights

CONFIGS = Path(__file__).resolve().parents[2] / "configs" / "train"


@pytest.mark.parametrize("tensor_only", [False, True], ids=["learned", "tensor only"])
def test_the_config_that_trained_a_shipped_file_names_it_in_its_header(tensor_only):
    path = shipped_weights("usa", tensor_only=tensor_only)
    run = re.match(r"ttr-lab train \(([^)]+)\)", Network.load(str(path)).meta["trained_by"])
    assert run, Network.load(str(path)).meta
    configs = [c for c in sorted(CONFIGS.glob("*.yaml")) if (yaml.safe_load(c.read_text()) or {}).get("name") == run[1]]
    assert len(configs) == 1, (run[1], configs)
    header = "".join(line for line in configs[0].read_text().splitlines(keepends=True) if line.startswith("#"))
    assert path.name in header, f"{configs[0].name}'s header does not name {path.name}, the run's shipped network"
