"""A recorded game as one self-contained, offline HTML viewer: the board as SVG with claims
appearing as the game advances, step / play / slider controls, each player's public information
at that moment (cards in hand as a count and the colours seen entering it, tickets as a count,
trains, route points), a switch that shows the hidden hands and tickets for analysis after the
game, and a small chart of each player's points over the game.

``viewer_html(record)`` is a fragment (Jupyter shows it inline through ``record_html``);
``viewer_page(record)`` wraps it as a whole page (``ttr-lab replay RECORD --html game.html``).
The page opens at a given point with ``#turn=N`` or ``#step=K`` in its address. No server, no
download: the record's positions are computed here, in Python, and embedded as JSON.
"""

from __future__ import annotations

import html
import itertools
import json
from typing import Any

from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES, NUM_CARD_KINDS, TRACK_COLOUR_NAMES
from ttr_lab.games.ticket_to_ride.drawing import PLAYER_COLOURS, TRACK_COLOURS, _segments, city_xy

_ids = itertools.count()
CARD_COLOURS = {**TRACK_COLOURS, "locomotive": "#d4a017"}


def positions(record: Any) -> list[dict[str, Any]]:
    """Per step (the start, then after each action): what the viewer shows. Public per seat:
    route points, trains, cards in hand, the card kinds seen entering the hand, tickets held;
    hidden: the hand by kind and the tickets by name. With the turn (at turn boundaries), the
    player to act, the market and the last action."""
    game = record.load_game()
    board = game.board
    out = []
    for index, state in enumerate(record.states()):
        public = state.observation(state.current_player)  # public parts are the same for every observer
        out.append({
            "step": index, "turn": game.turn_number(state), "turns": state.turns,
            "to_play": -1 if state.is_terminal() else state.current_player,
            "action": None if index == 0 else f"seat {record.actions[index - 1][0]}: {record.actions[index - 1][1]}",
            "owner": list(state.owner), "points": list(state.points), "trains": list(state.trains),
            "cards": list(public.hand_sizes), "tickets": list(public.ticket_counts),
            "known": [_cards(k) for k in public.known_cards], "market": [CARD_NAMES[c] for c in state.market],
            "hands": [_cards(state.hand(p)) for p in range(state.num_players)],
            "held": [[board.tickets[t].label for t in state.held_tickets(p)] for p in range(state.num_players)],
        })
    return out


def _cards(counts: Any) -> dict[str, int]:
    return {CARD_NAMES[k]: int(n) for k, n in zip(range(NUM_CARD_KINDS), counts) if n}


def board_svg(board: Any, uid: str) -> str:
    """The board: every track a line (``data-track``: its id) in its printed colour, cities with
    their names; the script recolours claimed tracks."""
    xy = city_xy(board)
    lines = _segments(board, xy)
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

    for t in board.tracks:
        (x1, y1), (x2, y2) = (at(*p) for p in lines[t.id])
        colour = TRACK_COLOURS.get(TRACK_COLOUR_NAMES[t.colour], "#999999")
        parts.append(f'<line data-track="{t.id}" data-colour="{colour}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                     f'y2="{y2:.1f}" stroke="{colour}" stroke-width="2.5" stroke-opacity="0.45">'
                     f'<title>{html.escape(t.label)} ({t.length})</title></line>')
    for i, name in enumerate(board.cities):
        x, y = at(*xy[i])
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#333"/>'
                     f'<text x="{x + 5:.1f}" y="{y - 5:.1f}" class="city">{html.escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


_STYLE = """
.ttr-viewer{font-family:system-ui,sans-serif;font-size:13px;color:#222;max-width:1100px}
.ttr-viewer .ttr-board{width:100%;height:auto;background:#fbfaf6;border:1px solid #ddd}
.ttr-viewer .city{font-size:11px;paint-order:stroke;stroke:#fff;stroke-width:3px}
.ttr-viewer .controls{display:flex;gap:6px;align-items:center;margin:6px 0;flex-wrap:wrap}
.ttr-viewer .controls input[type=range]{flex:1;min-width:200px}
.ttr-viewer table{border-collapse:collapse;margin:4px 0}
.ttr-viewer td,.ttr-viewer th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}
.ttr-viewer td.l,.ttr-viewer th.l{text-align:left}
.ttr-viewer .swatch{display:inline-block;width:12px;height:12px;border:1px solid #000;vertical-align:middle}
.ttr-viewer .card{display:inline-block;padding:0 4px;margin:1px;border-radius:3px;color:#fff;font-size:11px;
  text-shadow:0 0 2px #000}
.ttr-viewer .hidden-info{display:none}.ttr-viewer.show-hidden .hidden-info{display:table-cell}
.ttr-viewer .chart{width:100%;max-width:1000px;height:140px}
"""

# A function of the viewer's id, so several viewers in one notebook never share a name.
_SCRIPT = r"""
(function(UID){
const D = JSON.parse(document.getElementById(UID + "-data").textContent);
const root = document.getElementById(UID);
const q = s => root.querySelector(s);
const lines = Array.from(root.querySelectorAll("line[data-track]"));
const slider = q(".slider"); slider.max = D.steps.length - 1;
let step = 0, timer = null;
const esc = t => String(t).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);
function cards(counts){ return Object.entries(counts).map(([k, n]) =>
  `<span class="card" style="background:${D.cardColours[k] || "#888"}">${n} ${k}</span>`).join(""); }
function show(k){
  step = Math.max(0, Math.min(D.steps.length - 1, k));
  const s = D.steps[step];
  slider.value = step;
  lines.forEach((line, t) => {
    const o = s.owner[t];
    line.setAttribute("data-owner", o);
    if (o >= 0){ line.setAttribute("stroke", D.players[o].colour); line.setAttribute("stroke-width", "7");
                 line.setAttribute("stroke-opacity", "1"); }
    else { line.setAttribute("stroke", line.dataset.colour); line.setAttribute("stroke-width", "2.5");
           line.setAttribute("stroke-opacity", "0.45"); }
  });
  q(".where").textContent = `step ${step} of ${D.steps.length - 1}` + (s.turn === null ? ` (turn ${s.turns}, mid-turn)` : `, turn ${s.turn}`)
    + (s.to_play >= 0 ? `; seat ${s.to_play} to play` : "; game over");
  q(".last").textContent = s.action ? "last action: " + s.action : "start of the game";
  q(".market").innerHTML = "market: " + s.market.map(c => cards({[c]: 1}).replace(">1 ", ">")).join("");
  q("tbody.players").innerHTML = D.players.map((p, i) => `<tr data-seat="${i}"${s.to_play === i ? ' style="font-weight:600"' : ""}>
    <td class="l"><span class="swatch" style="background:${p.colour}"></span> ${p.name} (seat ${i})</td>
    <td class="points">${s.points[i]}</td><td class="trains">${s.trains[i]}</td><td class="cards">${s.cards[i]}</td>
    <td class="l known">${cards(s.known[i])}</td><td class="tickets">${s.tickets[i]}</td>
    <td class="l hidden-info hand">${cards(s.hands[i])}</td><td class="l hidden-info held">${s.held[i].map(esc).join(", ")}</td></tr>`).join("");
  const x = 1000 * step / Math.max(1, D.steps.length - 1);
  q(".now").setAttribute("x1", x); q(".now").setAttribute("x2", x);
  root.setAttribute("data-step", step);
}
function chart(){
  const top = Math.max(1, ...D.steps.map(s => Math.max(...s.points)));
  const n = Math.max(1, D.steps.length - 1);
  q(".series").innerHTML = D.players.map((p, i) => `<polyline fill="none" stroke="${p.colour}" stroke-width="2"
    points="${D.steps.map((s, k) => `${(1000 * k / n).toFixed(1)},${(130 - 120 * s.points[i] / top).toFixed(1)}`).join(" ")}"/>`).join("")
    + `<text x="4" y="12" font-size="11">${top} route points</text>`;
}
function play(){
  if (timer){ clearInterval(timer); timer = null; q(".play").textContent = "▶ play"; return; }
  if (step >= D.steps.length - 1) show(0);
  q(".play").textContent = "❚❚ pause";
  timer = setInterval(() => { if (step >= D.steps.length - 1) play(); else show(step + 1); }, 150);
}
q(".first").onclick = () => show(0); q(".back").onclick = () => show(step - 1);
q(".next").onclick = () => show(step + 1); q(".last-step").onclick = () => show(D.steps.length - 1);
q(".play").onclick = play; slider.oninput = () => show(+slider.value);
q(".hidden-switch").onchange = e => root.classList.toggle("show-hidden", e.target.checked);
function fromAddress(){
  const m = /(turn|step)=(\d+)/.exec(location.hash || "");
  if (!m) return D.steps.length - 1;
  if (m[1] === "step") return +m[2];
  const k = D.steps.findIndex(s => s.turn !== null && s.turn >= +m[2]);
  return k < 0 ? D.steps.length - 1 : k;
}
chart(); show(fromAddress());
window.addEventListener("hashchange", () => show(fromAddress()));
})
"""


def viewer_html(record: Any) -> str:
    """The viewer as an HTML fragment (style, board, controls, tables, chart, data, script)."""
    game = record.load_game()
    uid = f"ttr-replay-{next(_ids)}"
    players = [{"name": html.escape(name), "colour": PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]}
               for seat, name in enumerate(record.strategies)]
    data = {"players": players, "cardColours": CARD_COLOURS, "steps": positions(record)}
    # "</" cannot end the script early when escaped; the JSON stays valid.
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    title = f"{game.title}, {record.num_players} players, seed {record.seed}"
    return (
        f'<div class="ttr-viewer" id="{uid}"><style>{_STYLE}</style>'
        f"<div><b>{html.escape(title)}</b></div>"
        f'<div class="controls"><button class="first" title="start">« start</button>'
        f'<button class="back" title="one step back">◀ step</button><button class="play">▶ play</button>'
        f'<button class="next" title="one step on">step ▶</button><button class="last-step" title="end">end »</button>'
        f'<input class="slider" type="range" min="0" value="0" aria-label="step">'
        f'<label><input class="hidden-switch" type="checkbox"> show hidden hands and tickets</label></div>'
        f'<div class="where"></div><div class="last"></div>'
        f"{board_svg(game.board, uid)}"
        f'<div class="market"></div>'
        f'<table><thead><tr><th class="l">player</th><th>route points</th><th>trains</th><th>cards</th>'
        f'<th class="l">cards seen entering the hand</th><th>tickets</th><th class="l hidden-info">hand (hidden)</th>'
        f'<th class="l hidden-info">tickets (hidden)</th></tr></thead><tbody class="players"></tbody></table>'
        f'<svg class="chart" viewBox="0 0 1000 140" preserveAspectRatio="none" aria-label="route points over the game">'
        f'<g class="series"></g><line class="now" x1="0" x2="0" y1="0" y2="140" stroke="#888" stroke-dasharray="4 3"/></svg>'
        f'<div style="color:#555">route points of each player over the game; the dashed line is the step shown</div>'
        f'<script type="application/json" id="{uid}-data">{payload}</script>'
        f"<script>{_SCRIPT}({json.dumps(uid)});</script></div>"
    )


def viewer_page(record: Any) -> str:
    """The viewer as a whole self-contained HTML page (opens offline in any browser)."""
    game = record.load_game()
    title = html.escape(f"Replay: {game.title}, seed {record.seed}")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
            f"<body style='margin:1em auto;max-width:1100px'>{viewer_html(record)}</body></html>")
