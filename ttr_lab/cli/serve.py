"""``ttr-lab serve``: play against the AI in a browser (ttr_lab.human.server)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable, List, Sequence

import typer

from ttr_lab.cli.console import fail
from ttr_lab.core.errors import ConfigError, TTRLabError


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on (loopback by default: only this "
                             "machine can play; 0.0.0.0 opens it to the network, with no login)."),
    port: int = typer.Option(8000, "--port", help="The port (0: any free one)."),
    map_folder: List[Path] = typer.Option([], "--map", help="A designer's map folder to offer beside the shipped "
                                          "maps (repeat)."),
    think: float = typer.Option(2.0, "--think", help="Seconds an AI seat that searches by the clock (mcts) thinks per decision."),
    pace: float = typer.Option(0.4, "--pace", help="Seconds an AI move takes at least on the page, so moves show one by one."),
    review_budget: int = typer.Option(400, "--review-budget", help="Play-outs per decision when a finished game is "
                                      "reviewed (the page's 'review this game'); 0: no review offered."),
) -> None:
    """Play against the AI in your browser: every game and map, the board drawn as in the replay viewer."""
    try:
        import uvicorn

        from ttr_lab.human.guard import listen_names
        from ttr_lab.human.server import make_app, shipped_variants
    except ImportError as exc:
        fail(ConfigError(f"ttr-lab serve needs the play extra (pip install 'ttr-lab[play]'): {exc}"))
    from ttr_lab.cli.games import chosen_game, game_options

    try:
        _check_options(port, think, pace)
        if review_budget != 0 and not 4 <= review_budget <= MAX_REVIEW_BUDGET:
            raise ConfigError(f"--review-budget is 0 (no review) or from 4 to {MAX_REVIEW_BUDGET} play-outs a decision, "
                              f"not {review_budget}")
        extra = []
        for folder in map_folder:
            if not folder.is_dir():
                raise ConfigError(f"--map {folder}: not a folder")
            name = chosen_game(None, str(folder.resolve()))
            extra.append((name, game_options(name, str(folder.resolve()), [])))
        app = make_app(shipped_variants(extra), think=think, pace=pace, hosts=listen_names(host),
                       reviewer=reviewer(review_budget) if review_budget else None)
        _check_free(host, port)
    except TTRLabError as exc:
        fail(exc)
    warning = exposure(host)
    if warning:
        typer.echo(f"ttr-lab serve: warning: {warning}", err=True)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    server = uvicorn.Server(config)

    async def _announce() -> None:
        # The real address once bound (port 0 picks one), printed before the first request.
        for s in server.servers:
            for sock in s.sockets:
                typer.echo(announcement(*sock.getsockname()[:2]))

    original = server.startup

    async def startup(sockets: object = None) -> None:
        await original(sockets=sockets)  # type: ignore[arg-type]
        await _announce()

    server.startup = startup  # type: ignore[method-assign]
    server.run()


def exposure(host: str) -> str | None:
    """The warning for an address other machines can reach (None for a loopback one)."""
    if host in ("127.0.0.1", "localhost", "::1") or host.startswith("127."):
        return None
    who = "every machine on the network" if host in ("0.0.0.0", "::", "") else f"every machine that reaches {host}"
    return f"--host {host}: {who} can open this server and play on it (it has no login)"


def announcement(address: str, port: int) -> str:
    """The line naming the address to open: a wildcard one (0.0.0.0, ::) is not an address a
    browser opens, so this machine's loopback address, and its names for other machines."""
    from ttr_lab.human.guard import WILDCARD, listen_names

    if address in WILDCARD:
        others = ", ".join(f"http://{n}:{port}/" for n in listen_names(address))
        local = "127.0.0.1" if address == "0.0.0.0" else "[::1]"
        return (f"ttr-lab serve: open http://{local}:{port}/ in a browser (Ctrl-C stops)"
                + (f"; from another machine: {others}" if others else ""))
    shown = f"[{address}]" if ":" in address else address
    return f"ttr-lab serve: open http://{shown}:{port}/ in a browser (Ctrl-C stops)"


def reviewer(budget: int) -> Callable[[Any, Sequence[int], Callable[[int], None]], dict[str, Any]]:
    """What reviews a finished browser game for ``ttr-lab serve`` (``ttr_lab.human.reviews``): the
    seats asked, at ``budget`` play-outs a decision, seed 0; the review's per-game JSON."""

    def run(record: Any, seats: Sequence[int], advance: Callable[[int], None]) -> dict[str, Any]:
        from ttr_lab.review.runner import review_game

        data: dict[str, Any] = review_game(record, seats, budget, 0, game_id="game", progress=advance).to_dict()
        return data

    return run


MAX_REVIEW_BUDGET = 20_000  # play-outs a decision: a browser game's review stays minutes, not hours
MAX_THINK = 600.0  # seconds: past ten minutes a decision, a "think" is a mistake, not a wish
MAX_PACE = 60.0


def _check_options(port: int, think: float, pace: float) -> None:
    """Refuse, in one line, a port that is no port and a time that is not a finite, sane one."""
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port {port}: a port is a number from 0 to 65535 (0: any free one)")
    if not (math.isfinite(think) and 0 < think <= MAX_THINK):
        raise ConfigError(f"--think is above 0 and at most {MAX_THINK:g} seconds, not {think}")
    if not (math.isfinite(pace) and 0 <= pace <= MAX_PACE):
        raise ConfigError(f"--pace is 0 or more and at most {MAX_PACE:g} seconds, not {pace}")


def _check_free(host: str, port: int) -> None:
    """Refuse, in one line, an address the server cannot listen on (uvicorn would log a traceback
    and exit 1); the port is free again at once, for uvicorn to take."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except (OSError, OverflowError) as exc:
        raise ConfigError(f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}") from None
