"""A real headless Chromium plays a whole game of Ticket to Ride against a shipped strategy by
clicks on ``ttr-lab serve``'s page: it picks the map and the opponent, starts, ticks tickets to
keep, claims tracks by clicking them on the board (choosing a payment when asked), draws from the
draw pile, and at the end finds the outcome and a record that replays to the same game. Skipped,
with the reason, where no Chromium or chromedriver is installed (``.ci/run`` installs both)."""

from __future__ import annotations

import time

import pytest

from serving import CHROMEDRIVER, CHROMIUM, Browser, request, served
from ttr_lab.core.record import GameRecord

pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                reason="no Chromium or chromedriver installed (apt-get install chromium chromium-driver)")


def _pick(browser: Browser, select: str, text: str) -> None:
    """Click the option of ``select`` whose text is ``text`` (as a person picks it)."""
    options = browser.find_all(f"{select} option")
    texts = browser.run(f"return [...document.querySelectorAll('{select} option')].map(o => o.textContent)")
    browser.click(browser.find_all(select)[0])
    browser.click(options[texts.index(text)])


def _decide(browser: Browser) -> str:
    """One decision by clicks: keep every offered ticket, else claim a track, else draw blind
    (else the one button offered). Returns what was clicked."""
    boxes = browser.find_all("#keep input[type=checkbox]")
    if boxes:
        for box in boxes:
            browser.click(box)
        browser.click(browser.find_all("#keep-button")[0])
        return "keep"
    for track in browser.find_all("#board line.playable")[:3]:
        try:
            browser.click(track)
        except LookupError:  # another element over the line's middle: try the next track
            continue
        choices = browser.find_all("#chooser button[data-action]")
        if browser.run("return getComputedStyle(document.querySelector('#chooser')).display") != "none" and choices:
            browser.click(choices[0])
        return "claim"
    pile = browser.find_all(".draw-pile.playable") or browser.find_all(".playable") or browser.find_all("#buttons button")
    browser.click(pile[0])
    return "draw"


def test_chromium_plays_a_whole_game_by_clicks():
    with served() as base:
        browser = Browser()
        try:
            browser.go(base + "/")
            browser.wait("return document.querySelectorAll('#board line[data-track]').length")  # the default board, ready
            _pick(browser, "#variant", "Ticket to Ride: USA")
            _pick(browser, "#players", "2")
            _pick(browser, "#opponents select", "greedy")
            browser.click(browser.find_all("#start")[0])
            game_id = browser.wait("return document.body.dataset.game")
            clicked = []
            deadline = time.monotonic() + 240  # an upper bound; a loaded machine's game takes seconds
            while browser.wait("return document.body.dataset.turn === 'you' || document.body.dataset.turn === 'over'"
                               " ? document.body.dataset.turn : ''") == "you":
                assert time.monotonic() < deadline, f"no end after {len(clicked)} decisions"
                version = browser.run("return document.body.dataset.version")
                clicked.append(_decide(browser))
                browser.wait(f"return document.body.dataset.version !== '{version}'")
            assert {"keep", "claim", "draw"} <= set(clicked)
            browser.wait("return document.querySelector('#record-link') !== null")
            assert "game over" in browser.run("return document.querySelector('#outcome').textContent")
            status, text = request(base, f"/games/{game_id}/record.json")
            assert status == 200
            record = GameRecord.from_dict(text)
            assert record.strategies == ("human", "greedy") and record.options == {"map": "usa"}
            assert record.replay().is_terminal()  # the record replays to the same end (checked against its result)
            assert sum(1 for seat, _ in record.actions if seat == 0) == len(clicked)
        finally:
            browser.close()


def test_a_click_on_a_list_already_replaced_is_refused_and_the_page_shows_the_choices_now():
    with served() as base:
        browser = Browser()
        try:
            browser.go(base + "/")
            browser.wait("return document.querySelectorAll('#board line[data-track]').length")
            _pick(browser, "#variant", "Ticket to Ride: USA")
            browser.click(browser.find_all("#start")[0])
            game_id = browser.wait("return document.body.dataset.game")
            browser.wait("return document.body.dataset.turn === 'you'")
            # The same click twice on the list the page shows, the second after the first was taken
            # (a double click, or a click before the next poll): the page still holds the old list.
            browser.run("window.done = null; (async () => { const old = current; await play(0); current = old;"
                        " await play(0); window.done = {message: document.querySelector('#message').textContent,"
                        " first: old.decision}; })();")
            done = browser.wait("return window.done")
            assert f"decision {done['first']} is not open" in done["message"], done
            deadline = time.monotonic() + 120  # an upper bound
            while not ((view := request(base, f"/api/games/{game_id}")[1])["actions"] or view["over"]):
                assert time.monotonic() < deadline
                time.sleep(0.02)
            assert view["over"] or view["decision"] == done["first"] + 1  # one move was played, not two
            # The page shows the choices as they stand (its own poll would too; the refusal does at once).
            browser.wait("return document.body.dataset.turn === 'you' || document.body.dataset.turn === 'over'")
            shown = browser.run("return current.decision")
            assert shown > done["first"]
        finally:
            browser.close()
