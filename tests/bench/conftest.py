"""The experiment scripts of ``benchmarks/`` import each other as siblings (as ``python
benchmarks/X.py`` runs them): their folder is on the path for these tests."""

from __future__ import annotations

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))
