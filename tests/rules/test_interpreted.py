"""The kernels run as plain Python too (``NUMBA_DISABLE_JIT=1``: debugging, coverage): the
rule tests of claims, card draws and tickets, and the kernels' own checks, pass both ways (but
the brute-force comparison of longest trails on larger networks: the same Python either way)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
INTERPRETED = ["test_claim.py", "test_draw_cards.py", "test_tickets.py", "test_market_size.py", "test_kernels.py"]


def test_the_rule_tests_pass_with_the_kernels_interpreted():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", "-k", "not playouts_play and not larger_networks",
         *(str(HERE / name) for name in INTERPRETED)],
        env=env, cwd=HERE.parent.parent, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]
