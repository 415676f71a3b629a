"""A browser game has an address (``/games/ID``): a reload, or the same address in a second tab,
opens the game the server holds, at the decision it is at, under the same guards as the page
(its Host check; a write carries the token the page at that address holds). Over HTTP, and in a
real headless Chromium (skipped, with the reason, where none is installed)."""

from __future__ import annotations

import re
import time

import pytest

from serving import CHROMEDRIVER, CHROMIUM, Browser, request, served


@pytest.fixture(scope="module")
def base():
    with served() as address:
        yield address


def _start(base: str) -> dict:
    tables = request(base, "/api/tables")[1]
    usa = next(v["variant"] for v in tables["variants"] if v["label"] == "Ticket to Ride: USA")
    status, reply = request(base, "/api/games", {"variant": usa, "players": 2, "seat": 0, "strategies": ["greedy"],
                                                 "seed": 4})
    assert status == 200, reply
    return reply


def _my_turn(base: str, game: str) -> dict:
    deadline = time.monotonic() + 60  # an upper bound
    while not (view := request(base, f"/api/games/{game}")[1]).get("actions"):
        assert time.monotonic() < deadline and not view.get("over")
        time.sleep(0.01)
    return view


def _page_token(html: str) -> str:
    found = re.search(r"<meta name='ttr-token' content='([^']+)'>", html)
    assert found, html[:200]
    return found[1]


def test_a_games_address_serves_the_page_and_reopens_the_game_at_its_decision(base):
    started = _start(base)
    game = started["id"]
    assert started["address"] == f"/games/{game}"
    status, html = request(base, started["address"])  # a reload of the address
    assert status == 200 and html.startswith("<!doctype html>")
    status, reopened = request(base, f"/api/games/{game}/page")
    assert status == 200 and reopened == started  # the same board pieces, seed and address
    # Two tabs of the game see the same decision; a move from one is played once, the other's
    # move for that decision is then stale (409), and both see the next one.
    one, two = _my_turn(base, game), request(base, f"/api/games/{game}")[1]
    assert one["decision"] == two["decision"] and one["actions"] == two["actions"]
    move = {"decision": one["decision"], "action": 0, "text": one["actions"][0]["text"]}
    status, reply = request(base, f"/api/games/{game}/act", move, headers={"X-TTR-Token": _page_token(html)})
    assert status == 200, reply  # the token the address's page holds is the server's
    status, reply = request(base, f"/api/games/{game}/act", move)
    assert status == 409 and f"decision {one['decision']} is not open" in reply["error"]
    assert _my_turn(base, game)["decision"] == one["decision"] + 1


def test_an_address_obeys_the_guard_and_an_unknown_one_says_so(base):
    game = _start(base)["id"]
    status, reply = request(base, f"/games/{game}", headers={"Host": "evil.example"})
    assert status == 421 and "answers only to its own names" in reply["error"]
    status, html = request(base, "/games/no-such-game")  # the page still loads, and offers a new game
    assert status == 404 and html.startswith("<!doctype html>")
    status, reply = request(base, "/api/games/no-such-game/page")
    assert status == 404 and "no such game" in reply["error"]
    move = {"decision": _my_turn(base, game)["decision"], "action": 0}
    status, reply = request(base, f"/api/games/{game}/act", move, headers={"X-TTR-Token": "not-the-token"})
    assert status == 403 and "token" in reply["error"]


@pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                    reason="no Chromium or chromedriver installed (apt-get install chromium chromium-driver)")
def test_chromium_reloads_a_game_and_opens_it_in_a_second_tab(base):
    browser = Browser()
    try:
        browser.go(base + "/")
        browser.wait("return document.querySelectorAll('#board line[data-track]').length")
        browser.click(browser.find_all("#start")[0])
        game = browser.wait("return document.body.dataset.game")
        assert browser.run("return location.pathname") == f"/games/{game}"
        browser.wait("return document.body.dataset.turn === 'you'")
        decision = browser.run("return current.decision")
        browser.go(base + f"/games/{game}")  # a reload: the game, not the setup form
        assert browser.wait("return document.body.dataset.turn === 'you' && document.body.dataset.game") == game
        assert browser.run("return current.decision") == decision
        assert browser.run("return document.querySelectorAll('#keep input[type=checkbox]').length") > 0
        tab = browser._call("/window/new", {"type": "tab"})["handle"]
        browser._call("/window", {"handle": tab})
        browser.go(base + f"/games/{game}")
        assert browser.wait("return document.body.dataset.turn === 'you' && document.body.dataset.game") == game
        assert browser.run("return current.decision") == decision  # the second tab sees the same decision
        browser.run("window.played = null; play(0).then(() => { window.played = document.querySelector('#message')"
                    ".textContent || 'ok'; });")
        assert browser.wait("return window.played") == "ok"  # its write carries the token it read
        handles = browser._call("/window/handles")
        browser._call("/window", {"handle": next(h for h in handles if h != tab)})
        browser.wait(f"return current && current.decision > {decision}")  # the first tab follows
    finally:
        browser.close()
