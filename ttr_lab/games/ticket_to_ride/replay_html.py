"""A recorded game as one self-contained, offline HTML viewer: the board as SVG with claims
appearing as the game advances, step / play / slider controls, each player's public information
at that moment (cards in hand as a count and the colours seen entering it, tickets as a count,
trains, route points), the track the last action claimed drawn highlighted, a switch that shows
the hidden hands and tickets for analysis after the game (with a box per player that draws that
player's tickets on the board), and a small chart of each player's points over the game. Given a
review of the game (its per-game JSON, as plain data), the evaluation graph under the board and,
at each reviewed position, the track the move played claims and the best move's track drawn on the
board (``review_marks``), the costliest moves a click away (``ttr_lab.core.review_view``).

``viewer_html(record)`` is a fragment (Jupyter shows it inline through ``record_html``);
``viewer_page(record)`` wraps it as a whole page (``ttr-lab replay RECORD --html game.html``).
The page opens at a given point with ``#turn=N`` or ``#step=K`` in its address. No server, no
download: the record's positions are computed here, in Python, and embedded as JSON; the controls,
the page and the chart are the generic ones of ``ttr_lab.core.replay_page``.
"""

from __future__ import annotations

import html
from typing import Any

from ttr_lab.core import replay_page as page
from ttr_lab.core.replay_page import Chart, new_uid, player_list
from ttr_lab.core.review_view import review_data
from ttr_lab.games.ticket_to_ride.actions import Claim
from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, NUM_CARD_KINDS, TRACK_COLOUR_NAMES
from ttr_lab.games.ticket_to_ride.drawing import PLAYER_COLOURS, TRACK_COLOURS, city_xy, track_segments

CARD_COLOURS = {**TRACK_COLOURS, "locomotive": "#d4a017"}


def positions(record: Any) -> list[dict[str, Any]]:
    """Per step (the start, then after each action): what the viewer shows. Public per seat:
    route points, trains, cards in hand, the card kinds seen entering the hand, tickets held;
    hidden: the hand by kind and the tickets by name. With the turn (at turn boundaries), the
    player to act, the market and the last action."""
    game = record.load_game()
    board = game.board
    tunnels = frozenset(t.id for t in board.tracks if t.tunnel)
    out: list[dict[str, Any]] = []
    for index, state in enumerate(record.states()):
        public = state.observation(state.current_player)  # public parts are the same for every observer
        before = out[-1]["owner"] if out else [-1] * len(state.owner)
        claimed = next((t for t, (o, p) in enumerate(zip(state.owner, before)) if o != p), -1)
        out.append({
            **public_step(public), "step": index, "turn": game.views.turn_number(state, index),
            "to_play": -1 if state.is_terminal() else state.current_player,
            "action": None if index == 0 else f"seat {record.actions[index - 1][0]}: {record.actions[index - 1][1]}"
                                                + tunnel_outcome(game, tunnels, record.actions[index - 1][1], public),
            "hands": [_cards(state.hand(p)) for p in range(state.num_players)],
            "held": [[board.tickets[t].label for t in state.held_tickets(p)] for p in range(state.num_players)],
            "held_ids": [list(state.held_tickets(p)) for p in range(state.num_players)], "claimed": claimed,
        })
    if out and record.result:
        out[-1]["borrowed"] = borrowed_tracks(record.result)
    return out


def borrowed_tracks(result: dict[str, Any]) -> list[list[int]]:
    """The tracks the stations borrowed at the end (a result's ``station_tracks``), as
    ``[seat, city, track]`` for each station that lent its owner one; empty without stations."""
    return [[int(p["player"]), int(city), int(track)] for p in result.get("players", ())
            for city, track in p.get("station_tracks") or () if int(track) >= 0]


def public_step(observation: Any) -> dict[str, Any]:
    """What every player sees, from any seat's observation: claims, route points, trains, cards
    and tickets held, the cards seen entering each hand, the market, turns done."""
    return {"turns": observation.turns, "owner": list(observation.owner), "points": list(observation.route_points),
            "trains": list(observation.trains), "cards": list(observation.hand_sizes),
            "tickets": list(observation.ticket_counts), "known": [_cards(k) for k in observation.known_cards],
            "market": [CARD_NAMES[c] for c in observation.market], "tunnel": tunnel_step(observation),
            # per city the seat whose station stands there (-1: none), on a map with stations
            **({"stations": list(observation.stations), "stations_left": list(observation.stations_left)}
               if observation.stations else {})}


def tunnel_outcome(game: Any, tunnels: Any, text: str, after: Any) -> str:
    """What a tunnel claim turned over, said after the claim's text (``text``, as a record keeps
    it) in a move list (``tunnels``: the board's tunnel track ids; ``after``: an observation of
    the position the claim led to); empty for any other action."""
    if not tunnels or not text.startswith("claim"):
        return ""
    action = game.parse_action(text)
    if not isinstance(action, Claim) or action.track not in tunnels:
        return ""
    if after.tunnel_pending is None:
        return " (tunnel: no match turned over, no extra card)"
    return f" (tunnel: turned over {', '.join(CARD_NAMES[c] for c in after.tunnel_revealed)}: {after.tunnel_extra} extra)"


def tunnel_step(observation: Any) -> dict[str, Any] | None:
    """The tunnel claim waiting for its extra cards, as the page shows it (None: none waits):
    the claim, who made it, the cards turned over and the extra cards they ask."""
    pending = observation.tunnel_pending
    if pending is None:
        return None
    return {"claim": str(pending), "seat": observation.current_player, "extra": int(observation.tunnel_extra),
            "revealed": [CARD_NAMES[c] for c in observation.tunnel_revealed]}


def _cards(counts: Any) -> dict[str, int]:
    return {CARD_NAMES[k]: int(n) for k, n in zip(range(NUM_CARD_KINDS), counts) if n}


def track_kind(track: Any) -> str:
    """What sets a track apart from an ordinary one, as its title says it ("tunnel", "ferry, 2
    loco"); empty for an ordinary track."""
    if track.tunnel:
        return "tunnel"
    if track.ferry_locomotives:
        return f"ferry, {track.ferry_locomotives} loco"
    return ""


def _ferry_marks(track: int, locomotives: int, a: tuple[float, float], b: tuple[float, float]) -> list[str]:
    """A ferry's locomotive icons: one small "L" disc per locomotive it asks, spread along the
    middle of its line."""
    out = []
    for k in range(locomotives):
        f = 0.5 + (k - (locomotives - 1) / 2) * 0.14
        x, y = a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])
        out.append(f'<g class="ferry-loco" data-ferry="{track}"><circle cx="{x:.1f}" cy="{y:.1f}" r="4.5"/>'
                   f'<text x="{x:.1f}" y="{y + 2.5:.1f}">L</text></g>')
    return out


def board_svg(board: Any, uid: str) -> str:
    """The board: every track a line (``data-track``: its id) in its printed colour, cities with
    their names, and an empty layer the script draws tickets in (each ticket's two cities are
    ``data-ticket`` coordinates on a hidden line); the script recolours claimed tracks."""
    xy = city_xy(board)
    lines = track_segments(board, xy)
    xs = [p[0] for p in xy.values()]
    ys = [p[1] for p in xy.values()]
    pad = 0.08 * max(max(xs) - min(xs), max(ys) - min(ys))
    left, top = min(xs) - pad, -(max(ys) + pad)  # SVG's y runs down: latitude is negated
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    scale = 1000 / width
    parts = [f'<svg id="{uid}-board" viewBox="0 0 1000 {height * scale:.0f}" class="ttr-board" role="img" '
             f'aria-label="{html.escape(board.title)} board">']

    def at(x: float, y: float) -> tuple[float, float]:
        return (x - left) * scale, (-y - top) * scale

    marks = []  # drawn over every track, so a claimed track's wider line never hides them
    for t in board.tracks:
        (x1, y1), (x2, y2) = (at(*p) for p in lines[t.id])
        colour = TRACK_COLOURS.get(TRACK_COLOUR_NAMES[t.colour], "#999999")
        kind = track_kind(t)
        parts.append(f'<line data-track="{t.id}" data-colour="{colour}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                     f'y2="{y2:.1f}" stroke="{colour}" stroke-width="2.5" stroke-opacity="0.45"'
                     + (f' class="{kind.split(",")[0]}"' if kind else "")
                     + f'><title>{html.escape(t.label)} ({t.length}{", " + kind if kind else ""})</title></line>')
        marks.extend(_ferry_marks(t.id, t.ferry_locomotives, (x1, y1), (x2, y2)))
    parts.extend(marks)
    parts.append('<g class="ticket-layer"></g><g class="ticket-ends" style="display:none">')
    for ticket in board.tickets:
        (x1, y1), (x2, y2) = at(*xy[ticket.a]), at(*xy[ticket.b])
        parts.append(f'<line data-ticket="{ticket.id}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}">'
                     f'<title>{html.escape(ticket.label)} ({ticket.points})</title></line>')
    parts.append("</g>")
    for i, name in enumerate(board.cities):
        x, y = at(*xy[i])
        parts.append(f'<circle data-city="{i}" cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#333"><title>{html.escape(name)}</title></circle>'
                     f'<text x="{x + 5:.1f}" y="{y - 5:.1f}" class="city">{html.escape(name)}</text>')
    parts.append('<g class="station-layer"></g></svg>')  # the script draws the built stations here
    return "".join(parts)


STYLE = """
.ttr-viewer .ttr-board{width:100%;height:auto;background:#fbfaf6;border:1px solid #ddd}
.ttr-viewer .city{font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px}
.ttr-viewer line.last-claim{filter:drop-shadow(0 0 3px #000) drop-shadow(0 0 6px #ff0);stroke-dasharray:10 3}
.ttr-viewer line.review-played{stroke:#111 !important;stroke-width:6 !important;stroke-opacity:1 !important;
  stroke-dasharray:3 3}
.ttr-viewer line.review-best{stroke:#00c853 !important;stroke-width:9 !important;stroke-opacity:1 !important;
  filter:drop-shadow(0 0 4px #00c853)}
.ttr-viewer .review-played-text{border-bottom:3px dashed #111}.ttr-viewer .review-best-text{border-bottom:3px solid #00c853}
.ttr-viewer line.tunnel{stroke-dasharray:6 3}
.ttr-viewer line.tunnel[data-owner]:not([data-owner="-1"]){stroke-dasharray:12 3}
.ttr-viewer .ferry-loco{pointer-events:none}
.ttr-viewer .ferry-loco circle{fill:#d4a017;stroke:#333;stroke-width:.8}
.ttr-viewer .ferry-loco text{font-size:6px;font-weight:700;text-anchor:middle;fill:#222}
.ttr-viewer .tunnel-box{display:none;margin:4px 0;padding:4px 6px;border:1px dashed #555;background:#f6f2ff}
.ttr-viewer .station-layer{pointer-events:none}
.ttr-viewer .station-layer rect{stroke:#111;stroke-width:1.2}
.ttr-viewer line.borrowed{stroke-dasharray:4 2 !important;filter:drop-shadow(0 0 3px #000) drop-shadow(0 0 5px #0ff)}
.ttr-viewer circle[data-city].playable{r:7px;fill:#1a73e8;cursor:pointer}
.ttr-viewer .ticket-layer line{stroke-width:3;stroke-dasharray:2 5;stroke-linecap:round;opacity:.9}
"""

# The board, the market and the players' table at one step (ttr_lab.core.replay_page runs it).
SCRIPT = r"""
function({D, root, q, esc, chips}){
const lines = Array.from(root.querySelectorAll("line[data-track]"));
const ends = Array.from(root.querySelectorAll("line[data-ticket]"));
const layer = q(".ticket-layer");
const stationLayer = q(".station-layer");
const cities = Array.from(root.querySelectorAll("circle[data-city]"));
const cards = counts => chips(counts, D.cardColours);
const drawn = new Set();  // seats whose tickets are drawn on the board
let shown = null;
function drawTickets(s){
  layer.innerHTML = [...drawn].flatMap(i => s.held_ids[i].map(t => { const e = ends[t];
    return `<line data-ticket-of="${i}" data-ticket-id="${t}" x1="${e.getAttribute("x1")}" y1="${e.getAttribute("y1")}" `
      + `x2="${e.getAttribute("x2")}" y2="${e.getAttribute("y2")}" stroke="${D.players[i].colour}">`
      + `<title>seat ${i}: ${esc(e.textContent)}</title></line>`; })).join("");
}
root.addEventListener("change", e => {
  const seat = e.target.dataset && e.target.dataset.drawTickets;
  if (seat === undefined) return;
  if (e.target.checked) drawn.add(+seat); else drawn.delete(+seat);
  if (shown) drawTickets(shown);
});
const marks = D.reviewMarks || {};
return function(s, step){
  shown = s;
  const [played, best] = marks[step] || [-1, -1];  // a reviewed decision's claims: the one played, the best
  lines.forEach((line, t) => {
    line.classList.toggle("review-played", t === played && played !== best);
    line.classList.toggle("review-best", t === best);
    line.classList.toggle("last-claim", Array.isArray(s.claimed) ? s.claimed.includes(t) : t === s.claimed);
    const o = s.owner[t];
    line.setAttribute("data-owner", o);
    if (o >= 0){ line.setAttribute("stroke", D.players[o].colour); line.setAttribute("stroke-width", "7");
                 line.setAttribute("stroke-opacity", "1"); }
    else { line.setAttribute("stroke", line.dataset.colour); line.setAttribute("stroke-width", "2.5");
           line.setAttribute("stroke-opacity", "0.45"); }
  });
  // Built stations: a square in the owner's colour on the city; at the end, the tracks they
  // borrowed are outlined (their owner's colour stays: the track is only lent).
  stationLayer.innerHTML = (s.stations || []).map((o, c) => o < 0 ? "" : (() => { const e = cities[c];
    const x = +e.getAttribute("cx"), y = +e.getAttribute("cy");
    return `<g class="station" data-station="${c}" data-seat="${o}"><rect x="${x - 5}" y="${y - 5}" width="10" height="10" `
      + `fill="${D.players[o].colour}"/><title>station of seat ${o}: ${esc(e.textContent)}</title></g>`; })()).join("");
  const lent = new Map((s.borrowed || []).map(([seat, city, t]) => [t, seat]));
  lines.forEach((line, t) => { line.classList.toggle("borrowed", lent.has(t));
    if (lent.has(t)) line.setAttribute("data-borrowed-by", lent.get(t)); else line.removeAttribute("data-borrowed-by"); });
  q(".market").innerHTML = "market: " + s.market.map(c => cards({[c]: 1}).replace(">1 ", ">")).join("");
  const box = q(".tunnel-box");
  box.style.display = s.tunnel ? "block" : "none";
  box.innerHTML = s.tunnel ? `<b>tunnel</b>: seat ${s.tunnel.seat} ${esc(s.tunnel.claim)}; turned over: `
    + `<span class="revealed">${s.tunnel.revealed.map(c => cards({[c]: 1}).replace(">1 ", ">")).join("")}</span>`
    + ` <b class="tunnel-extra">${s.tunnel.extra} extra card${s.tunnel.extra === 1 ? "" : "s"}</b> to pay, or decline` : "";
  q("tbody.players").innerHTML = D.players.map((p, i) => `<tr data-seat="${i}"${s.to_play === i ? ' style="font-weight:600"' : ""}>
    <td class="l"><span class="swatch" style="background:${p.colour}"></span> ${p.name} (seat ${i})</td>
    <td class="points">${s.points[i]}</td><td class="trains">${s.trains[i]}</td><td class="cards">${s.cards[i]}</td>
    <td class="l known">${cards(s.known[i])}</td><td class="tickets">${s.tickets[i]}${s.stations_left ? ` <span class="stations-left" title="stations left to build">· ${s.stations_left[i]} st.</span>` : ""}</td>
    <td class="l hidden-info hand">${cards(s.hands[i])}</td><td class="l hidden-info held">${s.held[i].map(esc).join(", ")}</td>
    <td class="hidden-info"><input type="checkbox" data-draw-tickets="${i}" aria-label="draw seat ${i}'s tickets on the board"${drawn.has(i) ? " checked" : ""}></td></tr>`).join("");
  drawTickets(s);
};
}
"""


def viewer_body(board: Any, uid: str, hand: str = "hand (hidden)", held: str = "tickets (hidden)") -> str:
    """The board, the market and the players' table the script fills (``hand`` and ``held``
    head the columns of the hands and tickets that are hidden until the switch shows them)."""
    return (
        f"{board_svg(board, uid)}"
        f'<div class="market"></div><div class="tunnel-box" role="status"></div>'
        f'<table><thead><tr><th class="l">player</th><th>route points</th><th>trains</th><th>cards</th>'
        f'<th class="l">cards seen entering the hand</th><th>tickets</th><th class="l hidden-info">{html.escape(hand)}</th>'
        f'<th class="l hidden-info">{html.escape(held)}</th><th class="hidden-info">draw them</th></tr></thead>'
        f'<tbody class="players"></tbody></table>'
    )


def review_marks(game: Any, review: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """Per reviewed step: the track the move played claims and the track the best move claims
    (-1 for a move that claims none: the review's line names it in words)."""

    def track(text: str) -> int:
        action = game.parse_action(text)
        return int(action.track) if isinstance(action, Claim) else -1

    return {d["step"]: (track(d["played"]), track(d["best"])) for d in review["decisions"]}


def viewer_html(record: Any, review: dict[str, Any] | None = None) -> str:
    """The viewer as an HTML fragment (style, board, controls, tables, chart, data, script);
    ``review``: a review of this game (its per-game JSON as a dict) drawn with it."""
    game = record.load_game()
    uid = new_uid("ttr-replay")
    data: dict[str, Any] = {"players": player_list(record.strategies, PLAYER_COLOURS), "cardColours": CARD_COLOURS,
                            "steps": positions(record)}
    shown = None
    if review is not None:
        shown = review_data(review, record.actions)
        data["reviewMarks"] = review_marks(game, shown)
    body = viewer_body(game.board, uid)
    chart = Chart("points", "route points",
                  "route points of each player over the game; the dashed line is the step shown")
    return page.viewer_html(uid=uid, title=page.record_title(record, game),
                            data=data, body=body, game_script=SCRIPT, style=STYLE,
                            hidden_label="show hidden hands and tickets", chart=chart, review=shown)


def viewer_page(record: Any, review: dict[str, Any] | None = None) -> str:
    """The viewer as a whole self-contained HTML page (opens offline in any browser), with
    ``review`` drawn if given."""
    return page.record_page(record, viewer_html(record, review))


def record_html(record: Any) -> str:
    """A record as HTML for Jupyter: its result table, then the replay viewer (board, controls,
    players, points over time; ``viewer_html``) opened at the end of the game."""
    from ttr_lab.games.ticket_to_ride.result import GameResult

    result = GameResult.from_dict(record.result)
    rows = "".join(
        f"<tr><td>{p.rank}</td><td>{p.player}</td><td>{html.escape(record.strategies[p.player])}</td>"
        f"<td>{p.route_points}</td><td>{p.ticket_points:+d} ({p.tickets_completed}/{len(p.tickets)})</td>"
        f"<td>{p.longest_trail}</td><td>{p.longest_bonus}</td><td><b>{p.total}</b></td></tr>"
        for p in sorted(result.players, key=lambda p: (p.rank, p.player))
    )
    return (
        f"<p>{html.escape(record.options.get('map', ''))}, {record.num_players} players, seed {record.seed}: "
        f"{result.turns} turns{' (stalled)' if result.stalled else ''}</p><table><tr><th>rank</th><th>seat</th>"
        f"<th>strategy</th><th>routes</th><th>tickets</th><th>longest</th><th>bonus</th><th>total</th></tr>{rows}</table>"
        + viewer_html(record)
    )
