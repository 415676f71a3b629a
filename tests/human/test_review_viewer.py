"""The replay viewer with a review (``ttr-lab replay RECORD --review REVIEW.json --html``), in a
real headless Chromium driven by clicks: the evaluation graph is drawn under the board with a dot
per reviewed decision coloured by what it lost, the three costliest moves are listed costliest
first, a click on one (or on a dot) jumps to its position, where the move played and the best one
are marked on the board and named in words. A review of another game is refused in one line.
The review is hand-made (``reviewing.py``): no search runs. Browser tests skip, with the reason,
where no Chromium or chromedriver is installed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reviewing import hand_review
from serving import CHROMEDRIVER, CHROMIUM, Browser
from ttr_lab.cli import app
from ttr_lab.core.play import play_game
from ttr_lab.core.registry import build
from ttr_lab.core.review_view import SCALE, lost_colour, review_data
from ttr_lab.games.ticket_to_ride import Claim, TicketToRide

browser_needed = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                    reason="no Chromium or chromedriver installed (apt-get install chromium chromium-driver)")


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reviewed")
    record = play_game(TicketToRide("usa"), [build(n, game="ticket_to_ride") for n in ("greedy", "random")], seed=4)
    record.save(folder / "game.json")
    review = hand_review(record, 0)
    (folder / "review.json").write_text(review.to_json(), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(folder / "game.json"), "--review", str(folder / "review.json"),
                                      "--html", str(folder / "game.html")])
    assert result.exit_code == 0, result.output
    return folder, record, review


def test_the_page_holds_the_graph_and_the_costliest_moves(viewer):
    folder, record, review = viewer
    text = (folder / "game.html").read_text()
    assert text.count('class="review-dot"') == len(review.decisions) == sum(1 for s, _ in record.actions if s == 0)
    assert text.count('class="review-costly"') == 3 and "the three moves that cost seat 0 (greedy) the most" in text


def test_the_costliest_are_the_reviews_own_and_the_colours_rise_with_the_loss(viewer):
    _, record, review = viewer
    data = review_data(review.to_dict(), record.actions)
    assert data["costliest"][0] == [d.decision for d in review.costliest(0)]
    assert [d.points_lost for d in review.costliest(0)] == [15.0, 9.0, 4.0]
    assert [lost_colour(p) for p, _ in SCALE] == [c for _, c in SCALE] and lost_colour(1000) == SCALE[-1][1]
    middle, (low, high) = lost_colour(3.5), (SCALE[1][1], SCALE[2][1])  # halfway from 2 to 5 points
    for i in (1, 3, 5):
        assert abs(int(middle[i:i + 2], 16) - (int(low[i:i + 2], 16) + int(high[i:i + 2], 16)) / 2) <= 1


def test_a_review_of_another_game_is_refused_in_one_line(viewer, tmp_path):
    folder, record, review = viewer
    other = play_game(TicketToRide("usa"), [build(n, game="ticket_to_ride") for n in ("random", "random")], seed=9)
    other.save(tmp_path / "other.json")
    result = CliRunner().invoke(app, ["replay", str(tmp_path / "other.json"), "--review", str(folder / "review.json"),
                                      "--html", str(tmp_path / "other.html")])
    assert result.exit_code == 2 and "review of another game" in result.output, result.output
    assert len(result.output.strip().splitlines()[-1:]) == 1 and "Traceback" not in result.output
    assert not (tmp_path / "other.html").exists()
    (tmp_path / "bad.json").write_text(json.dumps({"format": 1, "decisions": "x"}))
    result = CliRunner().invoke(app, ["replay", str(folder / "game.json"), "--review", str(tmp_path / "bad.json"),
                                      "--html", str(tmp_path / "bad.html")])
    assert result.exit_code == 2 and "not a game review" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(app, ["replay", str(folder / "game.json"), "--review", str(folder / "review.json")])
    assert result.exit_code == 2 and "give --html" in result.output


def _state(browser: Browser) -> dict:
    return browser.run("""const root = document.querySelector(".ttr-viewer"), box = root.querySelector(".review-move");
      const tracks = c => [...root.querySelectorAll("line." + c)].map(l => +l.dataset.track);
      return {step: +root.dataset.step, hash: location.hash, decision: box.dataset.decision, text: box.textContent,
              played: tracks("review-played"), best: tracks("review-best")};""")


@browser_needed
def test_a_click_on_a_costly_move_jumps_to_its_position_with_both_moves_marked(viewer, tmp_path):
    folder, record, review = viewer
    game = record.load_game()
    browser = Browser(width=1280, height=1400)
    try:
        browser.go((folder / "game.html").resolve().as_uri())
        browser.wait("return document.querySelector('.ttr-viewer').dataset.step")
        assert len(browser.find_all(".review-graph .review-dot circle")) == len(review.decisions)
        assert _state(browser)["step"] == len(record.actions)  # opens at the end, the costliest listed there
        costly = review.costliest(0)
        links = browser.find_all(".review-costly")
        for link, d in zip(links, costly):
            browser.click(link)
            seen = _state(browser)
            assert seen["step"] == d.decision and seen["hash"] == f"#step={d.decision}"
            assert seen["decision"] == str(d.decision) and f"{d.points_lost:.1f} points lost" in seen["text"]
            assert d.played in seen["text"] and d.best in seen["text"]
            played, best = game.parse_action(d.played), game.parse_action(d.best)
            assert seen["played"] == ([played.track] if isinstance(played, Claim) else [])
            assert seen["best"] == ([best.track] if isinstance(best, Claim) else [])
        assert any(isinstance(game.parse_action(d.best), Claim) for d in costly)  # a best claim was drawn
        quiet = next(d for d in review.decisions if d.points_lost == 0 and d.decision > 5)
        browser.click(browser.find_all(f'.review-graph a[data-jump="{quiet.decision}"]')[0])
        seen = _state(browser)
        assert seen["step"] == quiet.decision and "within noise" in seen["text"] and seen["played"] == []
        browser.run("history.replaceState(null, '', '#step=%d'); window.dispatchEvent(new HashChangeEvent('hashchange'));"
                    % costly[0].decision)
        shot = tmp_path / "reviewed.png"
        shot.write_bytes(browser.screenshot())
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    finally:
        browser.close()


def test_a_records_review_writes_its_viewer_beside_the_table(viewer, tmp_path):
    folder, record, _ = viewer
    result = CliRunner().invoke(app, ["review", str(folder / "game.json"), "--seats", "0", "--budget", "4",
                                      "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "r" / "viewer.html").read_text()
    reviewed = json.loads((tmp_path / "r" / "games" / "game.json").read_text())
    assert f"{tmp_path / 'r' / 'viewer.html'}" in result.output.replace("\n", "")
    assert page.count('class="review-dot"') == len(reviewed["decisions"]) == sum(1 for s, _ in record.actions if s == 0)
