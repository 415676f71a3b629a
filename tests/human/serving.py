"""Test helpers: ``ttr-lab serve``'s app on a real uvicorn in a thread (loopback, a free port),
and a small client of chromedriver's WebDriver protocol (plain HTTP and JSON: no extra package),
to drive Debian's headless Chromium by real clicks."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from typing import Any, Iterator

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
CHROMEDRIVER = shutil.which("chromedriver")


@contextlib.contextmanager
def served(pace: float = 0.0, think: float = 0.5, **options: Any) -> Iterator[str]:
    """The base address of a running server over the shipped variants (``pace`` 0: AI moves at
    once; ``options``: ``make_app``'s)."""
    import uvicorn

    from ttr_lab.human.server import make_app, shipped_variants

    app = make_app(shipped_variants(), think=think, pace=pace, **options)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


_TOKENS: dict[str, str] = {}


def token(base: str) -> str:
    """The token the server's page holds (what its writes carry), read from the page as a browser does."""
    if base not in _TOKENS:
        with urllib.request.urlopen(base + "/", timeout=30) as reply:
            found = re.search(r"<meta name='ttr-token' content='([^']+)'>", reply.read().decode())
            _TOKENS[base] = found[1] if found else ""
    return _TOKENS[base]


def request(base: str, path: str, body: Any = None, raw: bytes | None = None, method: str | None = None,
            headers: dict[str, str] | None = None, guarded: bool = True) -> tuple[int, Any]:
    """(status, JSON or text) of a request; ``body`` is sent as JSON, ``raw`` as it is; a write
    carries the page's token and says it is JSON, as the page's do, unless ``headers`` says otherwise."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json"} if data is not None else {}
    if data is not None and guarded:  # ttr-lab serve (not chromedriver)
        sent["X-TTR-Token"] = token(base)
    req = urllib.request.Request(base + path, data=data, method=method, headers={**sent, **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as reply:
            status, text = reply.status, reply.read().decode()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """A headless Chromium driven through chromedriver (W3C WebDriver over HTTP)."""

    def __init__(self, width: int = 1250, height: int = 1500) -> None:
        port = free_port()
        self.driver = subprocess.Popen([CHROMEDRIVER, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if request(self.base, "/status")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.driver.kill()
                raise RuntimeError("chromedriver did not start")
            time.sleep(0.1)
        options = {"binary": CHROMIUM, "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                                f"--window-size={width},{height}"]}
        status, reply = request(self.base, "/session", {"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}},
                                guarded=False)
        if status != 200:
            self.driver.kill()
            raise RuntimeError(f"no browser session: {reply}")
        self.session = f"/session/{reply['value']['sessionId']}"

    def _call(self, path: str, body: Any = None, method: str | None = None) -> Any:
        status, reply = request(self.base, self.session + path, body, method=method, guarded=False)
        if status != 200:
            raise LookupError(reply["value"].get("error", "") + ": " + reply["value"].get("message", "")[:200])
        return reply["value"]

    def go(self, url: str) -> None:
        self._call("/url", {"url": url})

    def find_all(self, css: str) -> list[str]:
        return [next(iter(e.values())) for e in self._call("/elements", {"using": "css selector", "value": css})]

    def click(self, element: str) -> None:
        self._call(f"/element/{element}/click", {})

    def run(self, script: str, *args: Any) -> Any:
        return self._call("/execute/sync", {"script": script, "args": list(args)})

    def wait(self, script: str, seconds: float = 60) -> Any:
        """The script's first true value, asked until ``seconds`` have passed (an upper bound)."""
        deadline = time.monotonic() + seconds
        while True:
            value = self.run(script)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {seconds} s for: {script}")
            time.sleep(0.03)

    def screenshot(self) -> bytes:
        import base64

        return base64.b64decode(self._call("/screenshot"))

    def close(self) -> None:
        try:
            self._call("", method="DELETE")
        finally:
            self.driver.terminate()
            self.driver.wait(timeout=10)
