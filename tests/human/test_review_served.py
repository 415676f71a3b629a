""""review this game" on ``ttr-lab serve``: a finished game's review runs in the background with
its progress published, then answers the evaluation graph and the three costliest moves (links
into the replay, which then draws the review); asking again answers the same review. The requests
pass the server's guards (Host, Origin, token, JSON bodies) and name the game's last decision; a
game not over, a stale decision, a server without a reviewer are each refused in one JSON line.
The reviewer is a stand-in returning a hand-made review (``reviewing.py``), held at a gate so the
test sees it running: no search runs, no timing is assumed."""

from __future__ import annotations

import threading
import time

import pytest

from reviewing import hand_review
from serving import CHROMEDRIVER, CHROMIUM, Browser, request, served
from ttr_lab.core.errors import ConfigError
from ttr_lab.human.reviews import Busy, Reviews

GATE = threading.Event()
CALLS: list[str] = []


def stand_in(record, seats, advance):
    """Half the decisions, then wait at the gate, then the rest: a review seen running."""
    CALLS.append(record.seed)
    review = hand_review(record, seats[0])
    half = len(review.decisions) // 2
    advance(half)
    assert GATE.wait(120)
    advance(len(review.decisions) - half)
    return review.to_dict()


@pytest.fixture(scope="module")
def base():
    with served(reviewer=stand_in) as address:
        yield address


def _variant(base: str) -> int:
    return next(v["variant"] for v in request(base, "/api/tables")[1]["variants"] if v["label"] == "Ticket to Ride: USA")


def _start(base: str, seed: int) -> str:
    status, reply = request(base, "/api/games", {"variant": _variant(base), "players": 2, "seat": 0,
                                                 "strategies": ["random"], "seed": seed})
    assert status == 200, reply
    return reply["id"]


def _wait(base: str, path: str, ready, seconds: float = 120) -> dict:
    deadline = time.monotonic() + seconds  # an upper bound, never a pace
    while True:
        reply = request(base, path)[1]
        if ready(reply):
            return reply
        assert time.monotonic() < deadline, reply
        time.sleep(0.01)


def _finish(base: str, game: str) -> dict:
    """Play the person's seat to the end: a claim when one is offered, else the first action."""
    while True:
        view = _wait(base, f"/api/games/{game}", lambda v: v.get("actions") or v.get("over"))
        if view["over"]:
            return view
        claims = [i for i, a in enumerate(view["actions"]) if a["text"].startswith("claim")]
        first = claims[0] if claims and view["decision"] % 3 else 0  # some draws too, for the review's losses
        assert request(base, f"/api/games/{game}/act",
                       {"decision": view["decision"], "action": first})[0] == 200


def test_a_finished_game_is_reviewed_in_the_background_with_its_progress(base):
    GATE.clear()
    game = _start(base, 11)
    status, reply = request(base, f"/api/games/{game}/review", {"decision": 0})
    assert status == 409 and "not over" in reply["error"]  # the game has not ended
    view = _finish(base, game)
    assert request(base, "/api/tables")[1]["review"] is True
    assert request(base, f"/api/games/{game}/review")[0] == 404  # nobody asked yet
    status, reply = request(base, f"/api/games/{game}/review", {"decision": view["decision"] - 1})
    assert status == 409 and "not this game's last" in reply["error"]
    status, reply = request(base, f"/api/games/{game}/review", {"decision": "last"})
    assert status == 400 and "decision" in reply["error"]
    status, reply = request(base, f"/api/games/{game}/review", {"decision": view["decision"]})
    assert status == 200 and reply["state"] in ("waiting", "running") and reply["total"] > 0
    total = reply["total"]
    running = _wait(base, f"/api/games/{game}/review", lambda r: r["done"] > 0)
    assert running["state"] == "running" and 0 < running["done"] < total and "panel" not in running
    assert request(base, f"/api/games/{game}/review", {"decision": view["decision"]})[1]["state"] == "running"
    GATE.set()
    done = _wait(base, f"/api/games/{game}/review", lambda r: r["state"] != "running")
    assert done["state"] == "done" and done["done"] == total and done["error"] is None
    panel = done["panel"]
    assert 'class="review-graph"' in panel and panel.count('class="review-costly"') == 3
    assert f'href="/games/{game}/replay#step=' in panel and 'target="_blank"' in panel
    assert done["replay"] == f"/games/{game}/replay"
    status, page = request(base, f"/games/{game}/replay")
    assert status == 200 and page.count('class="review-dot"') == total and 'class="review-move"' in page
    assert request(base, f"/api/games/{game}/review", {"decision": view["decision"]})[1]["state"] == "done"
    assert CALLS.count(11) == 1  # asked three times, reviewed once


@pytest.mark.parametrize("name, headers, guarded, words", [
    ("no token", {}, False, "token"),
    ("another site", {"Origin": "http://evil.example"}, True, "another site"),
    ("not JSON", {"Content-Type": "text/plain"}, True, "JSON"),
])
def test_a_review_request_passes_the_servers_guard(base, name, headers, guarded, words):
    game = _start(base, 12)
    status, reply = request(base, f"/api/games/{game}/review", {"decision": 0}, headers=headers, guarded=guarded)
    assert status in (403, 415) and words in reply["error"], (name, reply)


def test_a_server_without_a_reviewer_offers_none():
    with served() as address:
        assert request(address, "/api/tables")[1]["review"] is False
        game = _start(address, 13)
        _finish(address, game)
        view = request(address, f"/api/games/{game}")[1]
        status, reply = request(address, f"/api/games/{game}/review", {"decision": view["decision"]})
        assert status == 404 and "offers no review" in reply["error"]


class _Record:
    def __init__(self, n: int) -> None:
        self.actions = [(0, "draw blind")] * n


def test_reviews_are_bounded_one_at_a_time_and_a_failure_is_said():
    gate, started = threading.Event(), threading.Event()

    def slow(record, seats, advance):
        started.set()
        assert gate.wait(120)
        raise ConfigError("no review for this game")

    reviews = Reviews(slow, max_waiting=2, max_kept=8)
    try:
        reviews.ask("a", _Record(3), [0])
        assert started.wait(60)
        reviews.ask("b", _Record(3), [0])
        reviews.ask("c", _Record(3), [0])
        with pytest.raises(Busy, match="2 reviews are waiting"):
            reviews.ask("d", _Record(3), [0])
        assert reviews.ask("b", _Record(3), [0]).state == "waiting"  # asking again is no new review
        assert [reviews.status(k)["state"] for k in "abc"] == ["running", "waiting", "waiting"]
        gate.set()
        deadline = time.monotonic() + 60
        while reviews.status("c")["state"] != "failed":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert reviews.status("a") == {"state": "failed", "done": 0, "total": 3, "error": "no review for this game"}
        assert reviews.review_of("a") is None
    finally:
        reviews.stop()


@pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                    reason="no Chromium or chromedriver installed (apt-get install chromium chromium-driver)")
def test_the_page_offers_review_this_game_and_shows_the_graph(base):
    GATE.set()
    browser = Browser()
    try:
        browser.go(base + "/")
        browser.wait("return document.querySelectorAll('#board line[data-track]').length")
        browser.run("document.querySelector('#seed').value = '14'")
        browser.click(browser.find_all("#start")[0])
        game = browser.wait("return document.body.dataset.game")
        _finish(base, game)  # the person's moves sent as the page sends them; the page follows the game
        browser.wait("return document.querySelector('#review-button') !== null")
        browser.click(browser.find_all("#review-button")[0])
        browser.wait("return (document.querySelector('#review') || {}).dataset?.state === 'done'")
        assert len(browser.find_all("#review .review-graph .review-dot")) > 0
        links = browser.run("return [...document.querySelectorAll('#review .review-costly')].map(a => a.getAttribute('href'))")
        assert len(links) == 3 and all(h.startswith(f"/games/{game}/replay#step=") for h in links)
    finally:
        browser.close()


def test_the_command_lines_reviewer_reviews_the_seats_asked_at_its_budget(monkeypatch):
    import ttr_lab.review.runner as runner
    from ttr_lab.cli.serve import reviewer

    asked = []

    class Found:
        def to_dict(self):
            return {"found": True}

    def fake(record, seats, budget, seed, game_id, progress):
        asked.append((record, list(seats), budget, seed))
        progress(1)
        return Found()

    monkeypatch.setattr(runner, "review_game", fake)
    ticks = []
    assert reviewer(37)("RECORD", [1], ticks.append) == {"found": True}
    assert asked == [("RECORD", [1], 37, 0)] and ticks == [1]


def test_a_review_running_stops_with_the_server():
    seen = threading.Event()

    def endless(record, seats, advance):
        while True:
            advance(0)
            seen.set()

    others = {t for t in threading.enumerate() if t.name == "reviews"}  # other servers' (the module's)
    with served(reviewer=endless) as address:
        game = _start(address, 15)
        view = _finish(address, game)
        assert request(address, f"/api/games/{game}/review", {"decision": view["decision"]})[0] == 200
        assert seen.wait(60)
        reviews = [t for t in threading.enumerate() if t.name == "reviews" and t not in others]
    assert len(reviews) == 1
    for thread in reviews:
        thread.join(60)
        assert not thread.is_alive()
