"""Who may talk to ``ttr-lab serve``: the server's own host names only, and writes from its own
page only.

A page on another site can make a browser send requests to a server on localhost: by a form or a
``no-cors`` fetch (a ``text/plain`` POST goes without a preflight), or by DNS rebinding (its own
name made to resolve to 127.0.0.1, so its scripts read the answers too). So, before any route:

- the ``Host`` header must be one of the server's names with its port: the loopback names
  (127.0.0.1, localhost, [::1]), the address the connection reached, and the names given at
  start-up (``--host``); a rebinding page's request carries its own name and is refused;
- a write (any method but GET and HEAD) must say it is JSON (``Content-Type: application/json``:
  a cross-site request can only say so after a preflight this server never grants), must come
  from the server's own origin when the browser says where it comes from (``Origin``), and must
  carry the page's token (``X-TTR-Token``): a random secret the served page holds, which no other
  site can read;
- a body longer than ``MAX_BODY`` is refused by its ``Content-Length`` here, and by its length
  while it streams in (``server.py``'s body reader).

Every refusal is one line of JSON ``{"error": ...}`` with a 4xx status.
"""

from __future__ import annotations

import hmac
import json
from typing import Any, Awaitable, Callable, Iterable, MutableMapping

MAX_BODY = 64 * 1024  # bytes of a request body: a move or a game's settings is well under 1 KB
TOKEN_HEADER = "x-ttr-token"
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
WILDCARD = ("0.0.0.0", "::", "")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def _bracketed(name: str) -> str:
    return f"[{name}]" if ":" in name and not name.startswith("[") else name


def listen_names(host: str) -> list[str]:
    """The host names a server listening on ``host`` answers to beside the loopback ones: the
    name itself, or for every address (0.0.0.0, ::) this machine's own names."""
    if host in WILDCARD:
        import socket

        names = (n.lower() for n in (socket.gethostname(), socket.getfqdn()))
        return list(dict.fromkeys(n for n in names if n and n not in LOOPBACK and not n.startswith("localhost")))
    return [_bracketed(host.lower())]


class Guard:
    """ASGI middleware in front of the app: the checks above, with ``token`` the page's secret and
    ``names`` the host names (without port) the server answers to beside the loopback ones."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], token: str,
                 names: Iterable[str] = ()) -> None:
        self.app, self.token = app, token
        self.names = tuple(dict.fromkeys([*LOOPBACK, *(_bracketed(n.lower()) for n in names)]))

    def hosts(self, scope: Scope) -> set[str]:
        """The ``Host`` values this connection may carry: each name with the port it reached."""
        server = scope.get("server")
        if not server:
            return set()
        address, port = server[0], server[1]
        names = [*self.names, _bracketed(str(address).lower())]
        return {f"{n}:{port}" for n in names} | (set(names) if port == 80 else set())

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """The status and line refusing the request, or None to let it through."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "").strip().lower()
        allowed = self.hosts(scope)
        if host not in allowed:
            return 421, (f"this server answers only to its own names ({', '.join(sorted(allowed))}), "
                         f"not to the host {host[:100]!r}")
        if scope.get("method", "GET") in ("GET", "HEAD"):
            return None
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in {f"http://{h}" for h in allowed}:
            return 403, f"a write from another site ({origin[:100]!r}) is refused: play on this server's own page"
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, f"a write's body is JSON (Content-Type: application/json), not {kind or 'unnamed'!r}"
        if not hmac.compare_digest(headers.get(TOKEN_HEADER, "").encode(), self.token.encode()):
            return 403, "a write carries the page's token (X-TTR-Token): reload the page, and play from it"
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return 413, f"a request's body is at most {MAX_BODY // 1024} KB, not {length[:20]} bytes"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = self.refusal(scope)
            if refused is not None:
                await refuse(send, *refused)
                return
        await self.app(scope, receive, send)


async def refuse(send: Send, status: int, message: str) -> None:
    """Answer ``{"error": message}`` with ``status`` (the request's body is never read)."""
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
