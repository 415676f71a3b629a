"""The page of ``ttr-lab serve``: a setup form (game and variant, players, your seat, the strategy
of every other seat), then the game drawn by its own replay viewer's markup and ``render`` script
(``LiveView.page``), fed the person's view after every move. The page ties each legal action to
the element a click on which plays it (``target``; several actions on one element: it asks which,
as a claim's payments), offers the items of a keep as boxes to tick, and lists the rest as
buttons; a text box takes any action in the action language. It says who is thinking, keeps a
score track and the log of moves, and at the end shows the outcome, the replay and the record.
Once a game starts, the page's address names it (``/games/ID``): a reload, a second tab or the
back button opens that game again from the server. Self-contained: it loads nothing from elsewhere."""

from __future__ import annotations

from typing import Any, Sequence

from ttr_lab.core.replay_page import BASE_STYLE, HELPERS


def page_pieces(live: Any, names: Sequence[str]) -> dict[str, Any] | None:
    """A game's page pieces as JSON for the page (None: it has none; the page lists actions)."""
    pieces = live.page(names)
    if pieces is None:
        return None
    return {"body": pieces.body, "style": pieces.style, "script": pieces.script, "data": pieces.data}


_STYLE = """
body{font-family:system-ui,sans-serif;font-size:13px;margin:1em auto;max-width:1150px;color:#222}
#setup{display:flex;gap:10px;flex-wrap:wrap;align-items:end;padding:6px;background:#f3f3f3;border-radius:4px}
#setup label{display:flex;flex-direction:column;font-size:12px;color:#444}
#status{margin:8px 0;font-size:15px;min-height:1.4em}
.thinking::after{content:"";display:inline-block;width:10px;height:10px;margin-left:8px;border:2px solid #888;
  border-top-color:transparent;border-radius:50%;animation:spin .8s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
#track{position:relative;height:26px;background:linear-gradient(90deg,#eee 1px,transparent 1px) 0 0/5% 100%;
  border:1px solid #ccc;margin:4px 0}
#track .marker{position:absolute;top:3px;width:18px;height:18px;border-radius:50%;border:1px solid #000;color:#fff;
  font-size:10px;text-align:center;line-height:18px;transform:translateX(-9px)}
#actions button{margin:2px}
#chooser{display:none;padding:6px;border:1px solid #888;background:#fffbe6;margin:4px 0}
.error{color:#b00020}
.playable{cursor:pointer;outline:2px dashed #1a73e8;outline-offset:1px}
line.playable{stroke-opacity:1 !important;stroke-width:5 !important;outline:none}
line.playable:hover{stroke:#1a73e8 !important}
#log{max-height:160px;overflow:auto;font-size:12px;color:#444;border-top:1px solid #ddd;margin-top:6px}
#outcome{display:none;padding:8px;border:2px solid #1a73e8;margin:8px 0}
"""

_SCRIPT = r"""
""" + HELPERS + r"""
const $ = s => document.querySelector(s);
let tables = [], colours = [], game = null, render = null, shown = -1, busy = false, current = null;
// The server takes a write only with this page's token (no other site can read it).
const token = document.querySelector('meta[name="ttr-token"]').content;
const api = async (path, body) => {
  const r = await fetch(path, body === undefined ? {} : {method: "POST", body: JSON.stringify(body),
                                                         headers: {"Content-Type": "application/json", "X-TTR-Token": token}});
  const data = await r.json();
  if (!r.ok){ const e = new Error(data.error || r.statusText); e.status = r.status; throw e; }
  return data;
};
function say(text, isError){ const e = $("#message"); e.textContent = text || ""; e.className = isError ? "error" : ""; }
function mount(pieces, names){
  const root = $("#board");
  root.innerHTML = pieces ? `<style>${pieces.style}</style>${pieces.body}` : "";
  render = null;
  if (!pieces) return;
  const D = {...pieces.data};
  colours = (D.players || []).map(p => p.colour);
  const q = s => root.querySelector(s);
  render = (new Function("return (" + pieces.script + ")"))()({D, root, q, esc, chips});
}
function players(){ return +$("#players").value; }
function fillSetup(){
  const t = tables[+$("#variant").value];
  const p = $("#players"), keep = +p.value || t.min;
  p.innerHTML = ""; for (let n = t.min; n <= t.max; n++) p.add(new Option(n, n, false, n === Math.min(Math.max(keep, t.min), t.max)));
  seats();
}
function seats(){
  const t = tables[+$("#variant").value], n = players();
  const s = $("#seat"), keep = Math.min(+s.value || 0, n - 1);
  s.innerHTML = ""; for (let i = 0; i < n; i++) s.add(new Option(i, i, false, i === keep));
  const box = $("#opponents"); const old = [...box.querySelectorAll("select")].map(x => x.value);
  box.innerHTML = "";
  for (let i = 0; i < n - 1; i++){
    const sel = document.createElement("select"); sel.className = "strategy"; sel.setAttribute("aria-label", `strategy of AI ${i + 1}`);
    t.strategies.forEach(name => sel.add(new Option(name, name, false, name === (old[i] || (t.strategies.includes("greedy") ? "greedy" : t.strategies[0])))));
    box.append(sel);
  }
  preview();
}
async function preview(){
  if (game) return;
  try { const r = await api(`/api/preview?variant=${$("#variant").value}&players=${players()}`);
        if (game) return;  // a game opened while the preview was on its way
        mount(r.page); if (render) render(r.step); $("#status").textContent = "ready: choose and press start"; }
  catch (e) { say(e.message, true); }
}
// A game has an address (/games/ID): a reload, a second tab or the back button opens it again
// from the server, which holds it; the token is this page's, read again with it.
const addressed = () => (location.pathname.match(/^\/games\/([A-Za-z0-9_-]+)$/) || [])[1] || null;
function openGame(r){
  game = r.id; shown = -1; current = null; mount(r.page);
  $("#board").classList.add("show-hidden"); $("#outcome").style.display = "none";
  document.body.setAttribute("data-game", game); say(`seed ${r.seed}`); poll();
}
async function reopen(id){
  try { openGame(await api(`/api/games/${id}/page`)); return true; }
  catch (e) {
    game = null; document.body.removeAttribute("data-game"); history.replaceState(null, "", "/");
    say(`${e.message}: start a new game`, true); return false;
  }
}
async function start(){
  const body = {variant: +$("#variant").value, players: players(), seat: +$("#seat").value,
                strategies: [...document.querySelectorAll("#opponents select")].map(s => s.value)};
  if ($("#seed").value !== "") body.seed = +$("#seed").value;
  try { const r = await api("/api/games", body); history.pushState(null, "", r.address); openGame(r); }
  catch (e) { say(e.message, true); }
}
async function poll(){
  if (!game) return;
  const id = game;
  try { const v = await api(`/api/games/${id}`); if (id === game && v.version !== shown) show(v); }
  catch (e) { say(e.message, true); }
  if (id === game && !(current && current.over)) setTimeout(poll, 200);
}
function clearTargets(){
  document.querySelectorAll("#board [data-play]").forEach(e => { e.removeAttribute("data-play"); e.classList.remove("playable"); });
}
function show(v){
  shown = v.version; current = v;
  if (!v.started) return;
  if (render) render(v.step);
  clearTargets();
  const mine = v.actions.length > 0;
  const who = i => `seat ${i} (${esc(v.names[i])})`;
  $("#status").innerHTML = v.over ? "game over" : v.thinking !== null && v.thinking !== undefined
    ? `<span class="thinking">${who(v.thinking)} is thinking</span>` : mine ? "<b>your turn</b>: click the board, or an action below"
    : `${who(v.to_play)} to play`;
  document.body.setAttribute("data-turn", v.over ? "over" : mine ? "you" : "other");
  document.body.setAttribute("data-version", v.version);
  track(v);
  $("#log").innerHTML = v.events.slice().reverse().map(e => `<div>${esc(e)}</div>`).join("");
  const loose = [], keeps = [];
  v.actions.forEach((a, i) => {
    const el = a.target && $("#board").querySelector(a.target);
    if (el){ el.dataset.play = el.dataset.play ? el.dataset.play + "," + i : String(i); el.classList.add("playable"); }
    else if (a.keep) keeps.push(i); else loose.push(i);
  });
  $("#buttons").innerHTML = loose.map(i => `<button data-action="${i}">${esc(v.actions[i].text)}</button>`).join("");
  const offer = (v.step && v.step.offer) || [];
  $("#keep").innerHTML = keeps.length ? "keep: " + offer.map((t, k) => `<label><input type="checkbox" data-keep="${k}"> ${esc(t)}</label>`).join(" ")
    + ' <button id="keep-button">keep these</button>' : "";
  $("#typed").style.display = mine ? "" : "none";
  $("#chooser").style.display = "none";
  if (v.error) say(v.error, true);
  if (v.over && !v.outcome && v.error) $("#status").textContent = "game ended";
  if (v.over && v.outcome) outcome(v.outcome);
}
function track(v){
  const top = Math.max(20, ...v.scores.map(Math.abs)) * 1.1;
  $("#track").innerHTML = v.scores.map((s, i) => `<span class="marker" data-seat="${i}" title="seat ${i} (${esc(v.names[i])}): ${s}"
    style="left:${(100 * Math.max(0, s) / top).toFixed(1)}%;background:${colours[i] || "#888"}">${s}</span>`).join("");
  $("#track").style.display = v.scores.length ? "" : "none";
}
function outcome(o){
  const head = o.headers.map(h => `<th>${esc(h)}</th>`).join("");
  const rows = o.rows.map(r => "<tr>" + r.map(c => `<td>${esc(c)}</td>`).join("") + "</tr>").join("");
  $("#outcome").innerHTML = `<b>game over</b> (${esc(o.ending)})<table><tr>${head}</tr>${rows}</table>`
    + o.lines.map(l => `<div>${esc(l)}</div>`).join("")
    + (o.replay ? `<a id="replay-link" href="/games/${game}/replay" target="_blank">watch the replay</a> · ` : "")
    + `<a id="record-link" href="/games/${game}/record.json" download>download the record</a>`;
  $("#outcome").style.display = "block";
}
async function play(action){
  // The move names the decision it answers (and the action's text): a click on a list the server
  // has already replaced is refused, never played at the next decision.
  if (busy || !current || !current.actions.length) return; busy = true;
  const body = {decision: current.decision, action};
  if (typeof action === "number" && current.actions[action]) body.text = current.actions[action].text;
  try { await api(`/api/games/${game}/act`, body); say(""); }
  catch (e) {
    say(e.message, true);
    if (e.status === 409 || e.status === 410){  // stale: show the choices as they stand now
      try { const v = await api(`/api/games/${game}`); show(v); say(e.message, true); } catch (_) {}
    }
  }
  busy = false;
}
document.addEventListener("click", e => {
  const t = e.target;
  if (t.dataset && t.dataset.action !== undefined){ play(+t.dataset.action); return; }
  if (t.id === "keep-button"){
    const ticked = [...document.querySelectorAll("#keep input:checked")].map(x => +x.dataset.keep).sort((a, b) => a - b);
    const i = current.actions.findIndex(a => a.keep && a.keep.join() === ticked.join());
    if (i < 0) say("you cannot keep that choice: " + current.actions.filter(a => a.keep).map(a => a.text).join(" or "), true);
    else play(i);
    return;
  }
  const el = t.closest && t.closest("#board [data-play]");
  if (!el) return;
  const options = el.dataset.play.split(",").map(Number);
  if (options.length === 1){ play(options[0]); return; }
  $("#chooser").innerHTML = "which one? " + options.map(i => `<button data-action="${i}">${esc(current.actions[i].text)}</button>`).join("")
    + ' <button id="chooser-cancel">cancel</button>';
  $("#chooser").style.display = "block";
});
document.addEventListener("click", e => { if (e.target.id === "chooser-cancel") $("#chooser").style.display = "none"; });
$("#typed").addEventListener("submit", e => { e.preventDefault(); const box = $("#typed input"); if (box.value.trim()) play(box.value.trim()); box.value = ""; });
$("#variant").onchange = fillSetup; $("#players").onchange = seats; $("#start").onclick = start;
window.addEventListener("popstate", async () => {
  const id = addressed();
  if (id === game) return;
  if (id && await reopen(id)) return;
  game = null; current = null; document.body.removeAttribute("data-game"); say("");
  $("#outcome").style.display = "none"; preview();
});
(async () => {
  const id = addressed();
  if (id) await reopen(id);
  const offered = await api("/api/tables");
  tables = offered.variants;
  tables.forEach(t => $("#variant").add(new Option(t.label, t.variant, false, t.variant === offered.default)));
  fillSetup();
})();
"""

PAGE = (
    "<!doctype html><html><head><meta charset='utf-8'><title>ttr-lab: play against the AI</title>"
    "<meta name='ttr-token' content='TTR_TOKEN'>"
    f"<style>{BASE_STYLE}{_STYLE}</style></head><body>"
    "<h2>ttr-lab: play against the AI</h2>"
    '<div id="setup"><label>game<select id="variant"></select></label>'
    '<label>players<select id="players"></select></label><label>your seat<select id="seat"></select></label>'
    '<label>the other seats<span id="opponents"></span></label>'
    '<label>seed<input id="seed" type="number" min="0" placeholder="random" style="width:7em"></label>'
    '<button id="start">start</button></div>'
    '<div id="status"></div><div id="message"></div>'
    '<div id="track" title="score track"></div>'
    '<div id="actions"><div id="chooser"></div><div id="keep"></div><span id="buttons"></span>'
    '<form id="typed" style="display:none">or type an action: <input size="40" aria-label="action"> <button>play</button></form></div>'
    '<div id="outcome"></div>'
    '<div id="board" class="ttr-viewer"></div>'
    '<div id="log"></div>'
    f"<script>{_SCRIPT}</script></body></html>"
)


def page(token: str) -> str:
    """The page, holding ``token`` (the server's secret its writes must carry; URL-safe text)."""
    return PAGE.replace("TTR_TOKEN", token, 1)
