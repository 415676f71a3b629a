"""A real headless Chromium builds a train station on the Europe board by clicks on ``ttr-lab
serve``'s page: the free cities are offered (their dots playable), a click on one asks which
payment (the payment texts the legal list offers for that city, as buttons), and the server
applies exactly the build clicked: the city holds the person's station, drawn there in the
person's colour. Skipped, with the reason, where no Chromium or chromedriver is installed."""

from __future__ import annotations

import time

import pytest

from serving import CHROMEDRIVER, CHROMIUM, Browser, request, served
from test_play_browser import _pick

pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                reason="no Chromium or chromedriver installed (apt-get install chromium chromium-driver)")


def test_chromium_builds_a_station_by_clicking_a_city():
    with served() as base:
        browser = Browser()
        try:
            browser.go(base + "/")
            browser.wait("return document.querySelectorAll('#board circle[data-city]').length")
            _pick(browser, "#variant", "Ticket to Ride: Europe")
            _pick(browser, "#players", "2")
            _pick(browser, "#opponents select", "greedy")
            browser.run("document.querySelector('#seed').value = '4'")
            browser.click(browser.find_all("#start")[0])
            game_id = browser.wait("return document.body.dataset.game")
            deadline = time.monotonic() + 120  # an upper bound; the game's first turns take seconds
            while not browser.find_all("#board circle[data-city].playable"):
                assert time.monotonic() < deadline, "no station was offered"
                browser.wait("return document.body.dataset.turn === 'you'")
                version = browser.run("return document.body.dataset.version")
                boxes = browser.find_all("#keep input[type=checkbox]")
                if not boxes:
                    continue
                for box in boxes:
                    browser.click(box)
                browser.click(browser.find_all("#keep-button")[0])
                browser.wait(f"return document.body.dataset.version !== '{version}'")
            view = request(base, f"/api/games/{game_id}")[1]
            offered = {a["target"] for a in view["actions"] if a["text"].startswith("station ")}
            dots = browser.run("return [...document.querySelectorAll('#board circle[data-city].playable')]"
                               ".map(e => `circle[data-city=\"${e.dataset.city}\"]`)")
            assert set(dots) == offered and view["step"]["stations"].count(-1) == len(view["step"]["stations"])
            # The city with the most payments: a click asks which, with the payments' texts.
            counts = {t: sum(a["target"] == t for a in view["actions"]) for t in offered}
            target = max(sorted(offered), key=counts.get)
            city = int(target.split('"')[1])
            version = browser.run("return document.body.dataset.version")
            browser.click(browser.find_all("#board " + target)[0])
            browser.wait("return getComputedStyle(document.querySelector('#chooser')).display !== 'none'")
            texts = browser.run("return [...document.querySelectorAll('#chooser button[data-action]')].map(b => b.textContent)")
            assert texts == [a["text"] for a in view["actions"] if a["target"] == target] and len(texts) == counts[target]
            chosen = texts[-1]
            browser.click(browser.find_all("#chooser button[data-action]")[-1])
            browser.wait(f"return document.body.dataset.version !== '{version}'")
            after = request(base, f"/api/games/{game_id}")[1]
            assert after["step"]["stations"][city] == 0 and after["step"]["stations"].count(0) == 1
            assert f"seat 0 (you): {chosen}" in after["events"]
            assert sum(e.startswith("seat 0 (you): station ") for e in after["events"]) == 1
            drawn = browser.wait(f"return document.querySelector('#board .station-layer .station[data-station=\"{city}\"]')"
                                 " && document.querySelector('#board .station-layer .station').dataset.seat")
            assert drawn == "0"
        finally:
            browser.close()
