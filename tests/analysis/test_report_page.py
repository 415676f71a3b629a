"""``report.html`` as a reader first sees it: the top of the page at 1280 px wide, shot in
headless Chromium, must be the verdict (its words and the win-rate figure beside them), not the
long tables. Skipped, with the reason, where no Chromium is installed (``.ci/run`` installs it)."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from test_report import store_rows
from test_tables import game
from ttr_lab.analysis.report import build_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
WIDTH, HEIGHT = 1280, 1000
VERDICT_BACKGROUND = (0xF4, 0xF7, 0xFB)  # section#verdict's background in the report's CSS


def _chromium(*args: str) -> subprocess.CompletedProcess:
    if CHROMIUM is None:
        pytest.skip("no Chromium installed (apt-get install chromium; .ci/run installs it)")
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("report_page")
    rows = []
    for deal in range(8):  # A ahead of B ahead of C in every deal, in both seatings
        rows += game(deal, [1, 2, 3], ["A", "B", "C"], totals=[110, 90, 70])
        rows += game(deal, [3, 1, 2], ["C", "A", "B"], totals=[65, 115, 95])
    store_rows(folder, rows, players=3)
    build_report(folder, quiet=True)
    return folder / "report.html"


def screenshot(page: Path, out: Path) -> "object":
    """The top ``HEIGHT`` px of ``page`` at ``WIDTH`` px wide, as a PIL image (kept in ``out``)."""
    from PIL import Image

    _chromium(f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={out}", page.resolve().as_uri())
    return Image.open(io.BytesIO(out.read_bytes())).convert("RGB")


def test_the_report_opens_with_its_verdict(report, tmp_path):
    image = screenshot(report, tmp_path / "report-top.png")
    assert image.size == (WIDTH, HEIGHT)
    # The verdict's panel fills much of the first screen (a report that opened with tables would
    # show none of its colour), and the key figure is drawn inside it.
    pixels = np.asarray(image)
    share = float(np.all(pixels == VERDICT_BACKGROUND, axis=-1).mean())
    assert share > 0.15, f"the verdict's panel covers {share:.1%} of the first screen"
    dom = _chromium("--dump-dom", report.resolve().as_uri()).stdout
    verdict = dom.index('<section id="verdict">')
    assert verdict < dom.index("<h2>Entrants</h2>") and dom.index("<h2>Verdict</h2>") < dom.index("<table")
    section = dom[verdict:dom.index("</section>", verdict)]
    assert "A is first" in section and "significantly ahead" in section  # written from the data
    assert 'alt="Win rate with 95% intervals"' in section  # the key figure beside the words
