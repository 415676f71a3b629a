"""A real headless Chromium claims a tunnel on the Europe board by clicks on ``ttr-lab serve``'s
page, sees the cards the claim turned over (the ones the server's observation holds) with the
extra cards they ask, and answers with the buttons: it declines one tunnel and pays another, and
the log of moves shows both. Skipped, with the reason, where
no Chromium or chromedriver is installed."""

from __future__ import annotations

import time

import pytest

from serving import CHROMEDRIVER, CHROMIUM, Browser, request, served
from test_play_browser import _pick

pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                reason="no Chromium or chromedriver installed (apt-get install chromium chromium-driver)")

TUNNEL_BOX = "return getComputedStyle(document.querySelector('#board .tunnel-box')).display !== 'none'"


def _buttons(browser: Browser) -> dict[str, str]:
    """The action buttons offered, by their text."""
    texts = browser.run("return [...document.querySelectorAll('#buttons button')].map(b => b.textContent)")
    return dict(zip(texts, browser.find_all("#buttons button")))


def _claim_tunnel(browser: Browser) -> bool:
    """Click a tunnel the person may claim (its first payment, if asked which); False if none."""
    for track in browser.find_all("#board line.tunnel.playable")[:3]:
        try:
            browser.click(track)
        except LookupError:  # another element over the line's middle: try the next
            continue
        if browser.run("return getComputedStyle(document.querySelector('#chooser')).display") != "none":
            browser.click(browser.find_all("#chooser button[data-action]")[0])
        return True
    return False


def test_chromium_declines_one_tunnel_and_pays_another():
    with served() as base:
        browser = Browser()
        try:
            browser.go(base + "/")
            browser.wait("return document.querySelectorAll('#board line[data-track]').length")
            _pick(browser, "#variant", "Ticket to Ride: Europe")
            _pick(browser, "#players", "2")
            _pick(browser, "#opponents select", "greedy")
            browser.run("document.querySelector('#seed').value = '3'")
            browser.click(browser.find_all("#start")[0])
            game_id = browser.wait("return document.body.dataset.game")
            answered: list[str] = []
            deadline = time.monotonic() + 240  # an upper bound; a loaded machine's game takes seconds
            while len(answered) < 2 and browser.wait(
                    "return ['you', 'over'].includes(document.body.dataset.turn) && document.body.dataset.turn") == "you":
                assert time.monotonic() < deadline, f"answered {answered} only"
                version = browser.run("return document.body.dataset.version")
                boxes = browser.find_all("#keep input[type=checkbox]")
                if browser.run(TUNNEL_BOX):
                    # The cards shown are those the server's view of this seat holds, and the
                    # choice is offered as buttons: decline always, pay when the hand can.
                    view = request(base, f"/api/games/{game_id}")[1]
                    shown = browser.run("return [...document.querySelectorAll('#board .tunnel-box .revealed .card')]"
                                        ".map(e => e.textContent.trim())")
                    assert shown == view["step"]["tunnel"]["revealed"] and len(shown) == 3
                    extra = view["step"]["tunnel"]["extra"]
                    assert f"{extra} extra card" in browser.run("return document.querySelector('#board .tunnel-box').textContent")
                    buttons = _buttons(browser)
                    assert "decline" in buttons
                    pay = [t for t in buttons if t.startswith("pay ")]
                    choice = "decline" if "decline" not in answered or not pay else pay[0]
                    browser.click(buttons[choice])
                    answered.append(choice.split()[0])
                elif boxes:
                    for box in boxes:
                        browser.click(box)
                    browser.click(browser.find_all("#keep-button")[0])
                elif not _claim_tunnel(browser):
                    browser.click(browser.find_all(".draw-pile.playable")[0])
                browser.wait(f"return document.body.dataset.version !== '{version}'")
            assert answered == ["decline", "pay"]
            browser.wait("return !(" + TUNNEL_BOX[7:] + ")")  # the box goes once the tunnel is answered
            log = browser.run("return document.querySelector('#log').textContent")
            assert "seat 0 (you): decline" in log and "seat 0 (you): pay " in log
        finally:
            browser.close()
