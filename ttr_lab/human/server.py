"""``ttr-lab serve``: the browser's side of a table (Starlette, served by uvicorn).

    GET  /                          the page (``page.py``)
    GET  /games/ID                  the same page, opening game ID: a game's address (a reload, a second tab)
    GET  /api/tables                the games and variants on offer, each with its strategies
    GET  /api/preview?variant=K&players=N   the board of a variant, ready to start
    POST /api/games                 {"variant": K, "players": N, "seat": S, "strategies": [...], "seed": ...}
    GET  /api/games/ID              what the person may see now (``Session.view``)
    GET  /api/games/ID/page         the game's board pieces and seed, as the start answered them
    POST /api/games/ID/act          {"decision": N, "action": index or text, "text": the action's text}
    GET  /games/ID/record.json      the finished game's record (a download)
    GET  /games/ID/replay           the finished game's replay page

The variants are fixed when the server starts (each game's shipped ones, and the map folders
named on the command line): the browser picks one by its number, and never names a file. A
strategy is one of the game's registered names (never an import path: that would run code the
browser chose), with its default parameters. Every refusal is JSON ``{"error": "..."}`` with a
4xx status (or 503 when the server is full), and the game it concerned goes on.

Who may talk to it (host names, origins, the page's token, body sizes) is ``guard.py``'s. A move
names the decision it answers (``Session.choose``): a stale one is refused with 409. The server
keeps at most ``MAX_GAMES`` games: a start past that drops a finished one, never one in progress,
and is refused when every game kept is in progress.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any, Sequence

import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ttr_lab.core.errors import ConfigError, TTRLabError
from ttr_lab.core.game import default_game, load_game
from ttr_lab.core.registry import StrategySpec, game_strategies
from ttr_lab.human.guard import MAX_BODY, Guard
from ttr_lab.human.page import page, page_pieces
from ttr_lab.human.seats import AIThreads, think_limit
from ttr_lab.human.session import IDLE_SECONDS, GameEnded, Session, StaleMove, build_seats, spoken

MAX_GAMES = 32  # games kept at once; past that a finished one goes, or the start is refused
AI_WORKERS = 8  # threads the AI seats of all games think in


@dataclass(frozen=True)
class Variant:
    game: str
    options: dict[str, Any]
    label: str


class Refused(Exception):
    """A request refused: its status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def shipped_variants(extra: Sequence[tuple[str, dict[str, Any]]] = ()) -> list[Variant]:
    """Every game's shipped variants, then ``extra`` (a game and its options, e.g. a designer's
    map folder), each loaded once here so a broken one fails at start-up, not in the browser."""
    from ttr_lab.core.game import available_games

    out = []
    for name in available_games():
        variants = getattr(load_game(name), "variants", None)
        for options in (variants() if variants else [{}]):
            out.append(Variant(name, options, load_game(name, **options).title))
    for name, options in extra:
        game = load_game(name, **options)
        out.append(Variant(name, options, f"{game.title} ({', '.join(f'{k}={v}' for k, v in options.items())})"))
    return out


def make_app(variants: Sequence[Variant], think: float = 2.0, pace: float = 0.4, *, hosts: Sequence[str] = (),
             max_games: int | None = None, idle_seconds: float = IDLE_SECONDS, ai_workers: int = AI_WORKERS,
             ai_limit: float | None = None) -> Guard:
    """The web application over ``variants`` behind its guard (``think``: an AI seat's clock
    budget in seconds; ``pace``: the least time an AI move takes on the page; ``hosts``: the host
    names it answers to beside the loopback ones; ``ai_limit``: the seconds an AI seat may take for
    a decision before its game ends, ``think_limit(think)`` by default)."""
    games: dict[str, Session] = {}
    cap = MAX_GAMES if max_games is None else max_games
    token = secrets.token_urlsafe(32)
    threads = AIThreads(ai_workers, think_limit(think) if ai_limit is None else ai_limit)

    def game_of(variant: Any) -> Any:
        if isinstance(variant, bool) or not isinstance(variant, int) or not 0 <= variant < len(variants):
            raise Refused(400, f"variant is a number from 0 to {len(variants) - 1}, not {variant!r}")
        return load_game(variants[variant].game, **variants[variant].options)

    def players_of(game: Any, players: Any) -> int:
        if isinstance(players, bool) or not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            raise Refused(400, f"{game.title} takes {game.min_players} to {game.max_players} players, not {players!r}")
        return players

    def session(request: Request) -> Session:
        found = games.get(request.path_params["game_id"])
        if found is None:
            raise Refused(404, "no such game (a wrong id, or a game the server no longer keeps)")
        return found

    async def body(request: Request) -> dict[str, Any]:
        raw = bytearray()
        async for chunk in request.stream():  # the guard checked Content-Length; a chunked body is counted here
            raw += chunk
            if len(raw) > MAX_BODY:
                raise Refused(413, f"a request's body is at most {MAX_BODY // 1024} KB")
        try:
            data = json.loads(bytes(raw))
        except (ValueError, UnicodeDecodeError):
            raise Refused(400, "the request's body is not JSON") from None
        except RecursionError:
            raise Refused(400, "the request's body is JSON nested too deep") from None
        if not isinstance(data, dict):
            raise Refused(400, f"the request's body is a JSON object, not a {type(data).__name__}")
        return data

    async def index(request: Request) -> Response:
        return HTMLResponse(page(token))

    async def address(request: Request) -> Response:
        # The page itself, which opens the game the address names. A game no longer kept still
        # gets the page (with 404): it says so and offers the setup form, so the address leads on.
        known = request.path_params["game_id"] in games
        return HTMLResponse(page(token), status_code=200 if known else 404)

    def opened(game: Session) -> dict[str, Any]:
        return {"id": game.id, "seed": game.seed, "address": f"/games/{game.id}",
                "page": page_pieces(game.live, game.names)}

    async def tables(request: Request) -> Response:
        listed = []
        for i, v in enumerate(variants):
            game = load_game(v.game, **v.options)
            listed.append({"variant": i, "label": v.label, "min": game.min_players, "max": game.max_players,
                           "strategies": list(game_strategies(v.game))})
        house = load_game(default_game())
        default = next((i for i, v in enumerate(variants) if v.game == house.name and v.options == house.options), 0)
        return JSONResponse({"variants": listed, "default": default})

    async def preview(request: Request) -> Response:
        try:
            variant, players = int(request.query_params.get("variant", 0)), int(request.query_params.get("players", 2))
        except ValueError:
            raise Refused(400, "variant and players are numbers") from None
        game = game_of(variant)
        players = players_of(game, players)
        live = game.views.live()
        names = ["you"] + [f"seat {s}" for s in range(1, players)]
        state = game.new_game(players, 0)
        return JSONResponse({"page": page_pieces(live, names), "step": live.step(state.observation(0), None)})

    async def start(request: Request) -> Response:
        data = await body(request)
        game = game_of(data.get("variant"))
        players = players_of(game, data.get("players"))
        seat = data.get("seat", 0)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise Refused(400, f"seat is a number from 0 to {players - 1}, not {seat!r}")
        names = data.get("strategies")
        known = game_strategies(game.name)
        if not isinstance(names, list) or len(names) != players - 1 or not all(isinstance(n, str) and n in known
                                                                                for n in names):
            raise Refused(400, f"strategies is a list of {players - 1} of {', '.join(known)}")
        seed = data.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise Refused(400, f"seed is a whole number from 0, not {seed!r}")
        _make_room(games, cap, idle_seconds)
        if threads.held() >= threads.workers:
            raise Refused(503, f"every one of the {threads.workers} AI threads is held by a strategy that never "
                               f"answered; restart ttr-lab serve")
        others = [s for s in range(players) if s != seat]
        specs = {s: StrategySpec(strategy=n) for s, n in zip(others, names)}
        try:  # a thread of anyio's, waiting on ours: a slow constructor does not hold the other requests
            built = await anyio.to_thread.run_sync(build_seats, game, specs, think, threads)
        except ConfigError as exc:
            raise Refused(400, str(exc)) from None
        _make_room(games, cap, idle_seconds)  # others may have started while these were built
        new = Session(game, seat, specs, seed, think, pace, threads=threads, built=built, idle_seconds=idle_seconds)
        games[new.id] = new
        return JSONResponse(opened(new))

    async def view(request: Request) -> Response:
        return JSONResponse(session(request).view())

    async def reopen(request: Request) -> Response:
        return JSONResponse(opened(session(request)))

    async def act(request: Request) -> Response:
        game = session(request)
        data = await body(request)
        if "action" not in data or "decision" not in data:
            raise Refused(400, 'the body names the decision it answers and the action: '
                               '{"decision": N, "action": index or text}')
        try:
            game.choose(data["decision"], data["action"], data.get("text"))
        except StaleMove as exc:
            raise Refused(409, str(exc)) from None
        except GameEnded as exc:
            raise Refused(410, str(exc)) from None
        except TTRLabError as exc:
            raise Refused(400, " ".join(str(exc).split())) from None
        return JSONResponse({"ok": True})

    def finished(request: Request) -> Session:
        game = session(request)
        if game.record is None:
            raise Refused(409, "the game is not over yet")
        return game

    async def record(request: Request) -> Response:
        game = finished(request)
        assert game.record is not None
        return Response(game.record.to_json(pretty=True) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="game-{game.seed}.json"'})

    async def replay(request: Request) -> Response:
        game = finished(request)
        if not game.game.views.offers("replay_page"):
            raise Refused(404, f"{game.game.title} has no replay page")
        return HTMLResponse(game.game.views.replay_page(game.record))

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Refused)
        return JSONResponse({"error": str(exc)}, status_code=exc.status)

    routes = [
        Route("/", index), Route("/api/tables", tables), Route("/api/preview", preview),
        Route("/api/games", start, methods=["POST"]), Route("/api/games/{game_id}", view),
        Route("/api/games/{game_id}/page", reopen), Route("/games/{game_id}", address),
        Route("/api/games/{game_id}/act", act, methods=["POST"]),
        Route("/games/{game_id}/record.json", record), Route("/games/{game_id}/replay", replay),
    ]
    return Guard(Starlette(routes=routes, exception_handlers={Refused: refused}), token, hosts)


def _make_room(games: dict[str, Session], cap: int, idle_seconds: float) -> None:
    """Room for one more game under ``cap``: drop the longest untouched of the games that are
    over (played out, failed or ended idle); a game in progress is never dropped, and when all
    are, the start is refused."""
    while len(games) >= cap:
        over = [g for g in games.values() if g.end_if_idle() or g.done]
        if not over:
            raise Refused(503, f"the server keeps {cap} games at once and every one is in progress; finish one, "
                               f"or wait: a game nobody plays for {spoken(idle_seconds)} ends")
        oldest = min(over, key=lambda g: g.touched)
        oldest.stop()
        del games[oldest.id]
