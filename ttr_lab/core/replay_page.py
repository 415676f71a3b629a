"""The half of an offline HTML replay viewer that knows no game: the page wrapper, the controls
(« start, ◀ step, ▶ play / ❚❚ pause, step ▶, end », a slider over every step, a switch for hidden
information), the keyboard (← → one step, Home / End, space plays), the line saying where the game
is and what was last played, opening at ``#step=K``, ``#turn=N`` (or any other per-step number,
e.g. ``#round=R``) from the address, the address following the step on a page of its own (so a
position can be shared by its link), and a small chart of one number per player over the game.

A game's viewer (``ttr_lab.games.<game>.replay_html``) computes its positions in Python and hands
them over as JSON with the HTML of its own panels and a script ``setup(ctx)`` that returns
``render(step_data, index)``; ``ctx`` gives it ``D`` (the data), ``root``, ``q`` (a query inside
the viewer), ``esc`` (escapes text for HTML) and ``chips(counts, colours)`` (coloured counters).

Every step of ``data["steps"]`` holds ``turn`` (turns done at a turn boundary, else null),
``turns`` (turns done), ``to_play`` (a seat, -1 when over) and ``action`` (the last action's public
text, null at the start); optionally ``action_hidden`` (its full text when the public one hides
something: shown with the switch), ``where`` (appended to the turn, e.g. ", round 3") and ``doing``
(what the player to act decides). ``data["players"]`` lists ``{name, colour}`` by seat, the name
already escaped for HTML (``player_list``).
"""

from __future__ import annotations

import html
import itertools
import json
from dataclasses import dataclass
from typing import Any, Sequence

from ttr_lab.core import review_view

_ids = itertools.count()


@dataclass(frozen=True)
class Chart:
    """A line per player of the per-step list ``key`` (one number per seat), labelled ``label``
    at its top, ``caption`` under it."""

    key: str
    label: str
    caption: str


def new_uid(prefix: str) -> str:
    """An id unique in this process, so several viewers in one notebook never share a name."""
    return f"{prefix}-{next(_ids)}"


def player_list(names: Sequence[str], colours: Sequence[str]) -> list[dict[str, str]]:
    """``data["players"]``: each seat's name (escaped: a strategy's name may hold markup) and
    colour (cycling through ``colours``)."""
    return [{"name": html.escape(name), "colour": colours[seat % len(colours)]} for seat, name in enumerate(names)]


def embed_json(data: Any) -> str:
    """``data`` as JSON that can sit inside a ``<script>`` element: an escaped ``</`` cannot end
    the element early, and the JSON stays valid."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


BASE_STYLE = """
.ttr-viewer{font-family:system-ui,sans-serif;font-size:13px;color:#222;max-width:1100px}
.ttr-viewer .controls{display:flex;gap:6px;align-items:center;margin:6px 0;flex-wrap:wrap}
.ttr-viewer .controls input[type=range]{flex:1;min-width:200px}
.ttr-viewer table{border-collapse:collapse;margin:4px 0}
.ttr-viewer td,.ttr-viewer th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}
.ttr-viewer td.l,.ttr-viewer th.l{text-align:left}
.ttr-viewer .swatch{display:inline-block;width:12px;height:12px;border:1px solid #000;vertical-align:middle}
.ttr-viewer .card{display:inline-block;padding:0 4px;margin:1px;border-radius:3px;color:#fff;font-size:11px;
  text-shadow:0 0 2px #000}
.ttr-viewer .hidden-info{display:none}.ttr-viewer.show-hidden .hidden-info{display:table-cell}
.ttr-viewer.show-hidden span.hidden-info{display:inline}.ttr-viewer.show-hidden div.hidden-info{display:block}
.ttr-viewer .chart{width:100%;max-width:1000px;height:140px}
"""

# What a game's script gets in its ``ctx`` besides the data and the root: ``esc`` (text for HTML)
# and ``chips`` (coloured counters); the live page (``ttr_lab.human.page``) defines them the same way.
HELPERS = r"""
const esc = t => String(t).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})[c]);
// Dark text on light colours (yellow, white), white on the others, by the colour's luminance.
const ink = hex => { const m = /^#([0-9a-f]{6})$/i.exec(hex); if (!m) return "#fff";
  const v = parseInt(m[1], 16); return 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255) > 150 ? "#000" : "#fff"; };
const chips = (counts, colours) => Object.entries(counts).map(([k, n]) => { const bg = colours[k] || "#888";
  const dark = ink(bg) === "#000" ? ";color:#000;text-shadow:none" : "";
  return `<span class="card" style="background:${bg}${dark}">${n} ${esc(k)}</span>`; }).join("");
"""

# A function of the viewer's id and the game's setup, so several viewers never share a name.
_SCRIPT = r"""
(function(UID, setup){
const D = JSON.parse(document.getElementById(UID + "-data").textContent);
const root = document.getElementById(UID);
const q = s => root.querySelector(s);
""" + HELPERS + r"""const render = setup({D, root, q, esc, chips});
const slider = q(".slider"); slider.max = D.steps.length - 1;
let step = 0, timer = null;
function show(k){
  step = Math.max(0, Math.min(D.steps.length - 1, k));
  const s = D.steps[step];
  slider.value = step;
  q(".where").textContent = `step ${step} of ${D.steps.length - 1}` + (s.turn === null ? ` (turn ${s.turns}, mid-turn)` : `, turn ${s.turn}`)
    + (s.where || "") + (s.to_play >= 0 ? `; seat ${s.to_play} to play` + (s.doing ? ` (${s.doing})` : "") : "; game over");
  q(".last").innerHTML = s.action ? "last action: " + esc(s.action)
    + (s.action_hidden ? ` <span class="hidden-info">(${esc(s.action_hidden)})</span>` : "") : "start of the game";
  render(s, step);
  if (D.review) reviewAt(step);
  if (D.chart){ const x = 1000 * step / Math.max(1, D.steps.length - 1);
                q(".now").setAttribute("x1", x); q(".now").setAttribute("x2", x); }
  root.setAttribute("data-step", step);
  // On a page of its own the address follows the step, so a link shares the position shown; a
  // notebook's address is the notebook's and is left alone.
  if (document.body && document.body.hasAttribute("data-ttr-page") && location.hash !== "#step=" + step){
    try { history.replaceState(null, "", "#step=" + step); } catch (e) { /* a browser refusing it: keep the page */ }
  }
}
function chart(){
  const key = D.chart.key;
  const top = Math.max(1, ...D.steps.map(s => Math.max(...s[key])));
  const n = Math.max(1, D.steps.length - 1);
  q(".series").innerHTML = D.players.map((p, i) => `<polyline fill="none" stroke="${p.colour}" stroke-width="2"
    points="${D.steps.map((s, k) => `${(1000 * k / n).toFixed(1)},${(130 - 120 * s[key][i] / top).toFixed(1)}`).join(" ")}"/>`).join("")
    + `<text x="4" y="12" font-size="11">${top} ${esc(D.chart.label)}</text>`;
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
""" + review_view.SCRIPT + r"""// Keys step through the game: on a page of its own always, among several viewers (a notebook)
// only in the one last clicked or focused.
let active = false;
root.addEventListener("pointerdown", () => { active = true; });
root.addEventListener("focusin", () => { active = true; });
document.addEventListener("pointerdown", e => { if (!root.contains(e.target)) active = false; });
const KEYS = {ArrowRight: () => step + 1, ArrowLeft: () => step - 1, Home: () => 0, End: () => D.steps.length - 1,
              PageDown: () => step + 10, PageUp: () => step - 10};
document.addEventListener("keydown", e => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (!active && document.querySelectorAll(".ttr-viewer").length > 1) return;
  const t = e.target;
  if (t && (t.isContentEditable || /^(TEXTAREA|SELECT)$/.test(t.tagName) || (t.tagName === "INPUT" && t.type !== "checkbox"))) return;
  if (e.key === " " && (!t || t.tagName !== "BUTTON")){ e.preventDefault(); play(); return; }
  const to = KEYS[e.key];
  if (!to) return;
  e.preventDefault();
  if (timer) play();  // a key takes over from playing
  show(to());
});
function fromAddress(){
  // #step=K is a step; #turn=N (or #round=R...) the first step whose number has reached N.
  const m = /([a-z_]+)=(\d+)/.exec(location.hash || "");
  if (!m) return D.steps.length - 1;
  if (m[1] === "step") return +m[2];
  const k = D.steps.findIndex(s => typeof s[m[1]] === "number" && s[m[1]] >= +m[2]);
  return k < 0 ? D.steps.length - 1 : k;
}
if (D.chart) chart();
show(fromAddress());
window.addEventListener("hashchange", () => show(fromAddress()));
})
"""


def viewer_html(*, uid: str, title: str, data: dict[str, Any], body: str, game_script: str,
                hidden_label: str, style: str = "", chart: Chart | None = None,
                review: dict[str, Any] | None = None) -> str:
    """A viewer as an HTML fragment: style, title, controls, where the game is, the game's own
    ``body`` (HTML), the chart if any, the data and the scripts. ``title`` and ``hidden_label``
    are text (escaped here); ``body`` and ``game_script`` are the game's markup and JavaScript.
    ``review``: a review of the game (``review_view.review_data``), drawn under the body: the
    evaluation graph, the move played and the best one at each reviewed step, the costliest moves."""
    data = {**data, "chart": {"key": chart.key, "label": chart.label} if chart else None, "review": review}
    move = panel = ""
    if review is not None:
        move = '<div class="review-move"></div>'
        panel = review_view.panel_html(review, len(data["steps"]), [p["colour"] for p in data.get("players", [])])
    graph = ""
    if chart is not None:
        graph = (f'<svg class="chart" viewBox="0 0 1000 140" preserveAspectRatio="none" '
                 f'aria-label="{html.escape(chart.label)} over the game"><g class="series"></g>'
                 f'<line class="now" x1="0" x2="0" y1="0" y2="140" stroke="#888" stroke-dasharray="4 3"/></svg>'
                 f'<div style="color:#555">{html.escape(chart.caption)}</div>')
    return (
        f'<div class="ttr-viewer" id="{uid}"><style>{BASE_STYLE}{review_view.STYLE if review else ""}{style}</style>'
        f"<div><b>{html.escape(title)}</b></div>"
        f'<div class="controls"><button class="first" title="start">« start</button>'
        f'<button class="back" title="one step back">◀ step</button><button class="play">▶ play</button>'
        f'<button class="next" title="one step on">step ▶</button><button class="last-step" title="end">end »</button>'
        f'<input class="slider" type="range" min="0" value="0" aria-label="step">'
        f'<label><input class="hidden-switch" type="checkbox"> {html.escape(hidden_label)}</label>'
        f'<span class="keys" style="color:#777">keys: ← → step, Home / End, space plays</span></div>'
        f'<div class="where"></div><div class="last"></div>{move}'
        f"{body}{panel}{graph}"
        f'<script type="application/json" id="{uid}-data">{embed_json(data)}</script>'
        f"<script>{_SCRIPT}({json.dumps(uid)}, {game_script});</script></div>"
    )


def record_title(record: Any, game: Any) -> str:
    """How a viewer names its game: the game's title, the players and the seed."""
    return f"{game.title}, {record.num_players} players, seed {record.seed}"


def record_page(record: Any, fragment: str) -> str:
    """A recorded game's viewer fragment as a whole page, titled after the game and its seed."""
    return viewer_page(f"Replay: {record.load_game().title}, seed {record.seed}", fragment)


def viewer_page(title: str, fragment: str) -> str:
    """A viewer fragment as a whole self-contained page (opens offline in any browser); ``title``
    is text."""
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title></head>"
            f"<body data-ttr-page style='margin:1em auto;max-width:1100px'>{fragment}</body></html>")
