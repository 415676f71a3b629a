"""Who may talk to ``ttr-lab serve``: only requests naming one of its own hosts, writes only from
its own page (JSON, its own origin, the page's token), bodies of at most 64 KB; and a game in
progress is never dropped to make room for someone else's. Each probe is what a page on another
site can make a browser send (a DNS-rebinding page's Host, a ``no-cors`` text/plain POST)."""

from __future__ import annotations

import json
import socket

import pytest

from serving import request, served, token
from ttr_lab.human import server as server_module


@pytest.fixture(scope="module")
def base():
    with served() as address:
        yield address


def _start_body(base: str) -> dict:
    tables = request(base, "/api/tables")[1]
    usa = next(v["variant"] for v in tables["variants"] if v["label"] == "Ticket to Ride: USA")
    return {"variant": usa, "players": 2, "seat": 0, "strategies": ["greedy"], "seed": 3}


def _raw(base: str, head: str, body: bytes = b"") -> tuple[int, dict]:
    """Status and JSON of a request written by hand (headers a library would not send)."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=60) as conn:
        conn.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        reply = b""
        while b"\r\n\r\n" not in reply or len(reply.split(b"\r\n\r\n", 1)[1]) < _length(reply):
            chunk = conn.recv(65536)
            if not chunk:
                break
            reply += chunk
    status = int(reply.split(b" ", 2)[1])
    return status, json.loads(reply.split(b"\r\n\r\n", 1)[1])


def _length(reply: bytes) -> int:
    for line in reply.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 1 << 30


@pytest.mark.parametrize("path", ["/", "/api/tables", "/api/games/anything"])
def test_a_host_not_its_own_is_refused(base, path):
    status, reply = request(base, path, headers={"Host": "evil.example"})
    assert status == 421 and "answers only to its own names" in reply["error"] and "evil.example" in reply["error"]


def test_a_rebinding_page_cannot_start_or_play(base):
    status, reply = request(base, "/api/games", _start_body(base), headers={"Host": f"evil.example:{base.rsplit(':', 1)[1]}"})
    assert status == 421, reply


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost"])
def test_its_own_names_are_answered(base, name):
    port = base.rsplit(":", 1)[1]
    status, reply = request(base, "/api/tables", headers={"Host": f"{name}:{port}"})
    assert status == 200 and reply["variants"]


# What another site's page can send without a preflight, and what a page without the token sends.
CROSS_SITE = [
    ("no-cors text/plain", {"Content-Type": "text/plain;charset=UTF-8"}, 415, "Content-Type: application/json"),
    ("form", {"Content-Type": "application/x-www-form-urlencoded"}, 415, "Content-Type: application/json"),
    ("another origin", {"Origin": "http://evil.example"}, 403, "another site"),
    ("a null origin", {"Origin": "null"}, 403, "another site"),
    ("no token", {"X-TTR-Token": ""}, 403, "the page's token"),
    ("a wrong token", {"X-TTR-Token": "guessed"}, 403, "the page's token"),
]


@pytest.mark.parametrize("name, headers, status, words", CROSS_SITE, ids=[c[0] for c in CROSS_SITE])
def test_a_write_not_from_its_own_page_is_refused(base, name, headers, status, words):
    got, reply = request(base, "/api/games", _start_body(base), headers=headers)
    assert got == status and words in reply["error"], (got, reply)


def test_a_write_from_its_own_page_is_taken(base):
    port = base.rsplit(":", 1)[1]
    status, reply = request(base, "/api/games", _start_body(base), headers={"Origin": f"http://localhost:{port}"})
    assert status == 200, reply


def test_a_body_too_long_is_refused_by_its_length_before_it_is_read(base):
    # 400 MB announced, none sent: the answer comes at once, without waiting for (or storing) them.
    host = base.removeprefix("http://")
    status, reply = _raw(base, f"POST /api/games HTTP/1.1\nHost: {host}\nContent-Type: application/json\n"
                               f"X-TTR-Token: {token(base)}\nContent-Length: 400000000\n")
    assert status == 413 and "at most 64 KB" in reply["error"]


def test_a_chunked_body_too_long_is_refused_while_it_streams(base):
    host = base.removeprefix("http://")
    piece = b"[" * 40_000
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    status, reply = _raw(base, f"POST /api/games HTTP/1.1\nHost: {host}\nContent-Type: application/json\n"
                               f"X-TTR-Token: {token(base)}\nTransfer-Encoding: chunked\n", chunk * 2 + b"0\r\n\r\n")
    assert status == 413 and "at most 64 KB" in reply["error"]


def test_a_game_in_progress_is_never_dropped_for_another_start(monkeypatch):
    monkeypatch.setattr(server_module, "MAX_GAMES", 3)
    with served() as address:
        body = _start_body(address)
        mine = request(address, "/api/games", body)[1]["id"]
        answers = [request(address, "/api/games", body) for _ in range(8)]  # someone else's starts
        assert [s for s, _ in answers[:2]] == [200, 200]
        assert all(s == 503 and "every one is in progress" in r["error"] for s, r in answers[2:]), answers
        status, view = request(address, f"/api/games/{mine}")
        assert status == 200 and not view.get("over"), view  # still there, still going
