"""A game's review drawn beside its replay, from plain data: the per-game JSON a review writes
(``games/GAME_ID.json``; this layer never imports the review, it reads the data). Three pieces,
knowing no game:

- the evaluation graph: each reviewed seat's expected final lead after each of its decisions, over
  the game's steps (the same x axis as the viewer's chart), one dot per decision coloured by the
  points it lost (``lost_colour``: green within the review's noise, through yellow to dark red);
- the move played and the best one at the position shown (the viewer's script fills it);
- the three moves that cost each reviewed seat the most, each a link to its position.

A dot or a costly move is a link ``LINK#step=K`` with ``data-jump="K"``: the viewer's script turns
a click into a jump to step K (the position before the decision); elsewhere (the browser game's
page) the link opens the replay there. A game's viewer marks the two moves on its own board.
"""

from __future__ import annotations

import html
from typing import Any, Mapping, Sequence

from ttr_lab.core.errors import ConfigError

# Points lost -> colour, interpolated between these stops (beyond the last: the last colour).
SCALE = ((0.0, "#2e7d32"), (2.0, "#c0ca33"), (5.0, "#f9a825"), (10.0, "#e65100"), (20.0, "#7f0000"))
COSTLIEST = 3  # moves listed per seat
_W, _H, _PAD = 1000.0, 190.0, 14.0


def lost_colour(points: float) -> str:
    """The colour of a decision that lost ``points`` on the review's scale."""
    if points <= SCALE[0][0]:
        return SCALE[0][1]
    for (p0, c0), (p1, c1) in zip(SCALE, SCALE[1:]):
        if points <= p1:
            t = (points - p0) / (p1 - p0)
            mix = [round(int(c0[i:i + 2], 16) * (1 - t) + int(c1[i:i + 2], 16) * t) for i in (1, 3, 5)]
            return "#" + "".join(f"{v:02x}" for v in mix)
    return SCALE[-1][1]


def review_data(review: Mapping[str, Any], actions: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """The viewer's review data from a review's JSON (``ReviewedGame.to_dict``) of the game whose
    record holds ``actions`` ((seat, text) each): per reviewed decision its step, seat, the moves
    played and best, the points lost with their standard error, the expected lead and its
    colour; and per reviewed seat its costliest decisions. A ``ConfigError`` in one line when the
    review is not one of this game (a decision the record does not hold, or holds otherwise)."""
    try:
        decisions: list[dict[str, Any]] = []
        for d in review["decisions"]:
            step, seat, played = int(d["decision"]), int(d["seat"]), str(d["played"])
            if not 0 <= step < len(actions):
                raise ConfigError(f"the review judges decision {step}, and the record has {len(actions)} actions: "
                                  "it is the review of another game")
            if (int(actions[step][0]), str(actions[step][1])) != (seat, played):
                raise ConfigError(f"the review's decision {step} is seat {seat}'s {played!r}, and the record's is seat "
                                  f"{actions[step][0]}'s {actions[step][1]!r}: it is the review of another game")
            points = float(d["points_lost"])
            decisions.append({"step": step, "seat": seat, "kind": str(d.get("kind", "")), "played": played,
                              "best": str(d["best"]), "lost": round(points, 2), "error": round(float(d["error"]), 2),
                              "lead": round(float(d["expected_lead"]), 2), "colour": lost_colour(points)})
        seats = sorted({int(s) for s in review["seats"]})
        names = [str(n) for n in review.get("entrants", [])]
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"not a game review ({type(exc).__name__}: {exc})") from None
    decisions.sort(key=lambda d: d["step"])
    costliest = {}
    for seat in seats:
        lost = [d for d in decisions if d["seat"] == seat and d["lost"] > 0]
        costliest[seat] = [d["step"] for d in sorted(lost, key=lambda d: (-d["lost"], d["step"]))[:COSTLIEST]]
    return {"seats": seats, "names": names, "noise": float(review.get("noise", 0.0)),
            "budget": int(review.get("budget", 0)), "decisions": decisions, "costliest": costliest}


def _who(data: Mapping[str, Any], seat: int) -> str:
    names = data["names"]
    return f"seat {seat} ({names[seat]})" if seat < len(names) else f"seat {seat}"


def panel_html(data: Mapping[str, Any], steps: int, colours: Sequence[str], link: str = "",
               target: str = "") -> str:
    """The graph, its colour legend and the costliest moves as HTML (no script): ``steps``: the
    viewer's steps (the record's actions + 1), ``colours``: each seat's line colour, ``link``: the
    page the positions' links open (empty: this one), ``target``: where (e.g. ``_blank``)."""
    decisions = data["decisions"]
    span = max(1, steps - 1)
    leads = [d["lead"] for d in decisions] or [0.0]
    top, bottom = max(0.0, *leads), min(0.0, *leads)
    if top - bottom < 1.0:
        top, bottom = top + 0.5, bottom - 0.5

    def x(step: int) -> float:
        return _W * step / span

    def y(lead: float) -> float:
        return _PAD + (_H - 2 * _PAD) * (top - lead) / (top - bottom)

    aim = f' target="{html.escape(target)}"' if target else ""

    def href(step: int) -> str:
        return f'href="{html.escape(link)}#step={step}" data-jump="{step}"{aim}'

    parts = [f'<svg class="review-graph" viewBox="0 0 {_W:.0f} {_H:.0f}" role="img" '
             f'aria-label="expected final lead after each reviewed decision">',
             f'<line x1="0" x2="{_W:.0f}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#999" stroke-width="1"/>',
             f'<g font-size="11" text-anchor="end" fill="#555"><text x="{_W - 4:.0f}" y="{_PAD - 3:.0f}">{top:+.0f}</text>'
             f'<text x="{_W - 4:.0f}" y="{y(0) - 3:.1f}">0</text>'
             f'<text x="{_W - 4:.0f}" y="{_H - 3:.0f}">{bottom:+.0f}</text></g>']
    for seat in data["seats"]:
        mine = [d for d in decisions if d["seat"] == seat]
        colour = colours[seat % len(colours)] if colours else "#333"
        points = " ".join(f"{x(d['step']):.1f},{y(d['lead']):.1f}" for d in mine)
        parts.append(f'<polyline data-seat="{seat}" fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
    for d in decisions:
        size = 4.0 if d["lost"] <= 0 else 5.0 + min(4.0, d["lost"] / 4)
        tip = (f"step {d['step']}, {_who(data, d['seat'])}: played {d['played']}"
               + (f"; best {d['best']}, {d['lost']:.1f} points lost" if d["lost"] > 0 else "; within noise of the best"))
        parts.append(f'<a {href(d["step"])} class="review-dot" data-lost="{d["lost"]}"><circle cx="{x(d["step"]):.1f}" '
                     f'cy="{y(d["lead"]):.1f}" r="{size:.1f}" fill="{d["colour"]}" stroke="#222" stroke-width="0.7">'
                     f"<title>{html.escape(tip)}</title></circle></a>")
    parts.append(f'<line class="review-now" x1="0" x2="0" y1="0" y2="{_H:.0f}" stroke="#888" stroke-dasharray="4 3"/>'
                 "</svg>")
    legend = "".join(f'<span class="review-chip" style="background:{c}"></span>{p:g}{"+" if p == SCALE[-1][0] else ""} '
                     for p, c in SCALE)
    who = ", ".join(_who(data, s) for s in data["seats"])
    parts.append(f'<div class="review-caption">expected final lead of {html.escape(who)} after each decision '
                 f"(the review's estimate, {data['budget']} play-outs a decision); a dot's colour is the points the "
                 f"move lost against the best move found: {legend} (0: within noise of the best). Click a dot to see "
                 "its position.</div>")
    by_step = {d["step"]: d for d in decisions}
    for seat in data["seats"]:
        costly = [by_step[s] for s in data["costliest"].get(seat, data["costliest"].get(str(seat), []))]
        items = "".join(f'<li><a {href(d["step"])} class="review-costly">step {d["step"]}: played '
                        f'{html.escape(d["played"])}; better {html.escape(d["best"])}</a> '
                        f'(<b style="color:{d["colour"]}">{d["lost"]:.1f}</b> ± {d["error"]:.1f} points)</li>'
                        for d in costly)
        parts.append(f'<div class="review-costliest" data-seat="{seat}"><b>the three moves that cost '
                     f'{html.escape(_who(data, seat))} the most</b>'
                     + (f"<ol>{items}</ol>" if items else "<div>none: no move lost more than the review's noise</div>")
                     + "</div>")
    return f'<div class="review">{"".join(parts)}</div>'


STYLE = """
.ttr-viewer .review-graph,.review .review-graph{width:100%;max-width:1000px;height:auto;background:#fcfcfc;
  border:1px solid #ddd;display:block}
.review .review-dot circle:hover,.review .review-current circle{stroke-width:2.5;stroke:#1a73e8}
.review .review-caption{color:#555;margin:2px 0 6px}
.review .review-chip{display:inline-block;width:10px;height:10px;border:1px solid #333;margin:0 2px 0 6px}
.review .review-costliest ol{margin:2px 0 6px}
.ttr-viewer .review-move{margin:4px 0;padding:3px 6px;border-left:4px solid #1a73e8;background:#f3f7fd;min-height:1.3em}
"""

# Inside the viewer's script (``D``, ``root``, ``q``, ``esc``, ``show`` and ``timer`` in scope):
# the marks at the step shown, and a click on a dot or a costly move jumping to its position.
SCRIPT = r"""
const reviewed = D.review ? new Map(D.review.decisions.map(d => [d.step, d])) : new Map();
function reviewAt(step){
  const x = 1000 * step / Math.max(1, D.steps.length - 1), now = q(".review-now");
  if (now){ now.setAttribute("x1", x); now.setAttribute("x2", x); }
  root.querySelectorAll(".review [data-jump]").forEach(e => e.classList.toggle("review-current", +e.dataset.jump === step));
  const d = reviewed.get(step), box = q(".review-move");
  if (!box) return;
  box.setAttribute("data-decision", d ? d.step : "");
  const who = d ? `seat ${d.seat}` + (D.players[d.seat] ? ` (${D.players[d.seat].name})` : "") : "";
  box.innerHTML = !d ? "review: no reviewed decision at this step (click a dot of the graph to go to one)"
    : `review of ${who}'s move here: played <span class="review-played-text">${esc(d.played)}</span>; `
      + (d.lost > 0 ? `<b style="color:${d.colour}">${d.lost.toFixed(1)} points lost</b> (± ${d.error.toFixed(1)}) against `
                      + `the best move found: <span class="review-best-text">${esc(d.best)}</span>`
                    : "within noise of the best move found" + (d.best !== d.played ? ` (${esc(d.best)})` : ""));
}
root.addEventListener("click", e => {
  const j = e.target.closest ? e.target.closest("[data-jump]") : null;
  if (!j || !root.contains(j)) return;
  e.preventDefault();
  if (timer) play();
  show(+j.dataset.jump);
});
"""
