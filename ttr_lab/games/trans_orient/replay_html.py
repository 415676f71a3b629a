"""A recorded Trans-Orient Express game as one self-contained, offline HTML viewer: the central
station (each column's lower and upper card, the token pile under the lower card, the station
master), the bag and the draw deck, the three shared objectives, and each player's public
information at that moment (hand, tableau of played cards, reserve, discounts, capacity, how many
luggage cards), with a switch that shows the secret luggage for analysis after the game, a chart
of each player's score if the game ended then, and the final score table at the end.

``viewer_html(record)`` is a fragment; ``viewer_page(record)`` wraps it as a whole page
(``ttr-lab replay RECORD --html game.html``), opened at ``#step=K``, ``#turn=N`` or ``#round=R``.
The positions are computed here, in Python, and embedded as JSON; the controls, the page and the
chart are the generic ones of ``ttr_lab.core.replay_page``.

What counts as public follows Decision T1 of docs/trans-orient-express.md (the observation): a
kept luggage card is shown as ``kept luggage`` (its number only with the switch on), and the
running score leaves the luggage out until the game is over, when every luggage card is revealed.
"""

from __future__ import annotations

import html
from typing import Any, Sequence

from ttr_lab.core import replay_page as page
from ttr_lab.core.replay_page import Chart, new_uid, player_list
from ttr_lab.core.review_view import review_data
from ttr_lab.games.trans_orient.actions import TakeCard, TakeTokens
from ttr_lab.games.trans_orient.cards import LUGGAGE_EFFECT_NAMES, Deck, LuggageEffect
from ttr_lab.games.trans_orient.replay import result_summary, turn_number
from ttr_lab.games.trans_orient.result import score_game
from ttr_lab.games.trans_orient.rules import RULES, Phase

# Players' colours: none of them is a token colour, so a seat is never mistaken for a region.
PLAYER_COLOURS = ("#222222", "#ff7f0e", "#17becf", "#e377c2")
_DOING = {Phase.TAKE: "take a card or a pile", Phase.STATION: "place the station master",
          Phase.PLAY: "play a card or not", Phase.LUGGAGE: "keep a luggage card",
          Phase.GIVE_CARD: "give back a card", Phase.GIVE_TOKEN: "give back a token"}


def positions(record: Any) -> list[dict[str, Any]]:
    """Per step (the start, then after each action): what the viewer shows. Public: the round,
    the player to act and what they decide, the last action as others saw it, the station's
    rows, piles and station master, the bag, the draw deck's size, and per seat the hand, the
    tableau, the reserve, discounts, capacity (and the tokens it lets the player keep), the
    number of luggage cards and the score if the game ended now, luggage left out. Hidden: each
    seat's luggage cards, the ones being chosen between, and the score with the luggage."""
    out = []
    for index, state in enumerate(record.states()):
        n, over = state.num_players, state.is_terminal()
        secret = [list(state.luggage[p]) for p in range(n)]
        everything = list(score_game(state).scores)
        shown = everything if over else list(score_game(_without_luggage(state)).scores)
        step = {
            **public_step(state.observation(state.current_player)), "step": index, "turn": turn_number(state),
            "where": f", round {state.round}" + (", the final round" if state.final and not over else "")
                     + (" (stalled)" if state.stalled else ""),
            "action": None, "action_hidden": None, "luggage": secret, "offer": sorted(state.offer),
            "score": shown, "score_all": everything,
        }
        if index:
            seat, text = record.actions[index - 1]
            _, action, card = state.last_event()
            public = str(action)  # as every player saw it: a kept luggage card is not named
            step["action"] = f"seat {seat}: {public}{_moved(action, card)}"
            if public != text:
                step["action_hidden"] = f"seat {seat}: {text}"
        out.append(step)
    return out


def public_step(observation: Any) -> dict[str, Any]:
    """What every player sees, from any seat's observation: the round, the player to act and
    what they decide, the station's rows, piles and station master, the bag, the draw deck's
    size, and per seat the hand, the tableau, the reserve, discounts, capacity (and the tokens it
    lets the player keep) and the number of luggage cards."""
    obs = observation
    deck, n = obs.deck, obs.num_players
    colours, rules = deck.colours, deck.rules or RULES
    over = obs.is_over
    return {
        "turns": obs.turns, "round": obs.round, "to_play": -1 if over else obs.current_player,
        "doing": None if over else _DOING[Phase(obs.phase)],
        "lower": list(obs.lower), "upper": list(obs.upper), "mcol": obs.master_column, "master": obs.master,
        "piles": [_counts(obs.pile(col), colours) for col in range(len(obs.lower))],
        "bag": _counts(obs.bag, colours), "deck": obs.deck_size,
        "hands": [list(obs.hands[p]) for p in range(n)], "played": [list(obs.played[p]) for p in range(n)],
        "reserves": [_counts(obs.reserve(p), colours) for p in range(n)],
        "discounts": [_counts(obs.discount(p), colours) for p in range(n)],
        "capacity": list(obs.capacity), "limit": [rules.reserve_limit + k for k in obs.capacity],
        "luggage_count": list(obs.luggage_counts),
    }


def _counts(counts: Sequence[int], colours: Sequence[str]) -> dict[str, int]:
    return {colours[c]: int(k) for c, k in enumerate(counts) if k}


def _without_luggage(state: Any) -> Any:
    """The same position with no luggage anywhere: what the table can score before the end."""
    view = state.clone()
    view.luggage = [()] * state.num_players
    return view


def _moved(action: Any, card: int) -> str:
    """The card a take moved (its action names only the column)."""
    return f" (card {card})" if card and isinstance(action, (TakeCard, TakeTokens)) else ""


def _hex(name: str) -> str:
    """A deck colour's name as a colour the page can draw (grey when no browser knows it)."""
    from matplotlib.colors import is_color_like, to_hex

    return to_hex(name) if is_color_like(name) else "#888888"


def luggage_text(deck: Deck, number: int) -> str:
    """A luggage card in words: ``5: 2 VP, passport, 1 VP per passport``."""
    card = deck.luggage_card(number)
    text = f"{number}: {card.vp} VP" + (", passport" if card.passport else "")
    if card.effect in (LuggageEffect.VP_PER_LUGGAGE, LuggageEffect.VP_PER_PASSPORT):
        text += f", {card.effect_vp} VP per {'luggage card' if card.effect == LuggageEffect.VP_PER_LUGGAGE else 'passport'}"
    elif card.effect != LuggageEffect.NONE:
        text += ", " + LUGGAGE_EFFECT_NAMES[card.effect].replace("_", " ")
    return text


def catalogue(deck: Deck) -> dict[str, Any]:
    """The deck's cards as the page draws them: each travel card's colour, short label and full
    description (its tooltip), each luggage card's description, each colour's hex."""
    colours = {name: _hex(name) for name in deck.colours}
    cards = {str(c.number): {"colour": colours[deck.colours[c.colour]],
                             "label": f"{c.number} · d{c.destination} · {c.vp} VP" + (" ✈" if c.passport else ""),
                             "title": deck.describe_card(c.number)} for c in deck.travel}
    luggage = {str(c.number): luggage_text(deck, c.number) for c in deck.luggage}
    return {"colours": colours, "cards": cards, "luggage": luggage}


STYLE = """
.ttr-viewer .tcard{display:inline-block;padding:0 4px;margin:1px;border:2px solid;border-radius:3px;font-size:11px;
  white-space:nowrap}
.ttr-viewer .lcard{display:inline-block;padding:0 4px;margin:1px;border:1px dashed #555;border-radius:3px;font-size:11px}
.ttr-viewer .station th{font-weight:400;color:#555}
.ttr-viewer .final{display:none;margin-top:6px}
"""

# The station, the bag and the players' table at one step (ttr_lab.core.replay_page runs it).
SCRIPT = r"""
function({D, root, q, esc, chips}){
const card = n => { const c = D.cards[n];
  return `<span class="tcard" data-card="${n}" title="${esc(c.title)}" style="border-color:${c.colour};background:${c.colour}22">${esc(c.label)}</span>`; };
const cards = list => list.map(card).join("") || "none";
const tokens = counts => chips(counts, D.colours) || "none";
const luggage = list => list.map(n => `<span class="lcard" data-luggage="${n}" title="${esc(D.luggage[n])}">L${n}</span>`).join("");
return function(s){
  const cells = (row, f) => row.map((x, c) => `<td class="l" data-column="${c}">${f(x, c)}</td>`).join("");
  q("tbody.station").innerHTML =
    `<tr class="upper"><th class="l">upper (next round)</th>${cells(s.upper, n => n ? card(n) : "empty")}</tr>`
    + `<tr class="lower"><th class="l">lower</th>${cells(s.lower, n => n ? card(n) : "taken")}</tr>`
    + `<tr class="piles"><th class="l">pile</th>${cells(s.piles, (p, c) => tokens(p) + (s.mcol === c ? ' <b class="master">★ station master</b>' : ""))}</tr>`;
  q("thead.station").innerHTML = `<tr><th class="l">column</th>${s.lower.map((_, c) => `<th class="l">${c}</th>`).join("")}</tr>`;
  q(".bag").innerHTML = `bag: <span class="bag-tokens">${tokens(s.bag)}</span>; draw deck: <span class="deck">${s.deck}</span> cards`;
  q("tbody.players").innerHTML = D.players.map((p, i) => `<tr data-seat="${i}"${s.to_play === i ? ' style="font-weight:600"' : ""}>
    <td class="l"><span class="swatch" style="background:${p.colour}"></span> ${p.name} (seat ${i})${s.master === i && s.mcol < 0 ? " ★" : ""}</td>
    <td class="score">${s.score[i]}</td><td class="l hand">${cards(s.hands[i])}</td><td class="l played">${cards(s.played[i])}</td>
    <td class="l reserve">${tokens(s.reserves[i])}</td><td class="l discounts">${tokens(s.discounts[i])}</td>
    <td class="capacity">${s.capacity[i]} (keeps ${s.limit[i]})</td><td class="lug-count">${s.luggage_count[i]}</td>
    <td class="l hidden-info lug-cards">${luggage(s.luggage[i])}${s.to_play === i && s.offer.length ? " choosing between " + luggage(s.offer) : ""}</td>
    <td class="hidden-info score-all">${s.score_all[i]}</td></tr>`).join("");
  q(".final").style.display = s.to_play < 0 ? "block" : "none";
};
}
"""


# How to read the page's card notation (the labels ``catalogue`` gives the cards).
_LEGEND = (
    '<div class="legend" style="color:#444;margin-top:6px"><b>reading the cards</b>: a travel card reads '
    '<span class="tcard" style="border-color:#888">12 · d3 · 2 VP ✈</span> = card 12, destination 3, worth 2 VP, '
    "✈ a passport; its border is its colour, and hovering it shows the whole card (cost, effect). "
    '<span class="lcard">L5</span> is luggage card 5 (hover: its VP and effect); coloured counters are tokens by '
    "colour; ★ marks the station master (on a column's pile once placed, else beside its holder); the upper row holds "
    "next round's cards.</div>"
)


def _final_table(record: Any) -> str:
    """The final scores (``ttr-lab play``'s table: one row per player adding up to the score)."""
    ending, headers, rows, lines = result_summary(record)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    notes = "".join(f"<div>{html.escape(line)}</div>" for line in lines)
    return (f'<div class="final"><b>final scores</b> ({html.escape(ending)})'
            f'<table class="final-scores"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{notes}</div>')


def viewer_body(deck: Deck, objectives: Sequence[str], final: str,
                luggage: str = "luggage cards (hidden)", all_vp: str = "VP with luggage (hidden)") -> str:
    """The station, the bag, the objectives, the players' table the script fills, ``final``
    (HTML shown at the end) and the legend; ``luggage`` and ``all_vp`` head the columns hidden
    until the switch shows them."""
    listed = "".join(f"<li>{html.escape(text)}</li>" for text in objectives)
    return (
        f'<table class="station"><thead class="station"></thead><tbody class="station"></tbody></table>'
        f'<div class="bag"></div>'
        f'<div>shared objectives (visa, season, route):<ul class="objectives">{listed}</ul></div>'
        f'<table><thead><tr><th class="l">player (★ station master)</th><th>VP now</th><th class="l">hand</th>'
        f'<th class="l">played</th><th class="l">reserve</th><th class="l">discounts</th><th>capacity</th>'
        f'<th>luggage</th><th class="l hidden-info">{html.escape(luggage)}</th>'
        f'<th class="hidden-info">{html.escape(all_vp)}</th></tr></thead><tbody class="players"></tbody></table>'
        f"{final}{_LEGEND}"
    )


def viewer_html(record: Any, review: dict[str, Any] | None = None) -> str:
    """The viewer as an HTML fragment (style, controls, station, players, chart, data, script);
    ``review``: a review of this game (its per-game JSON as a dict): its graph, no board marks."""
    game = record.load_game()
    deck = game.deck
    uid = new_uid("toe-replay")
    data = {"players": player_list(record.strategies, PLAYER_COLOURS), **catalogue(deck), "steps": positions(record)}
    objectives = [deck.objective(n).describe(deck.colours) for n in next(iter(record.states())).objectives]
    body = viewer_body(deck, objectives, _final_table(record))
    chart = Chart("score", "VP", "each player's score if the game ended at that step (luggage, secret until the "
                  "end, left out until then); the dashed line is the step shown")
    return page.viewer_html(uid=uid, title=page.record_title(record, game),
                            data=data, body=body, game_script=SCRIPT, style=STYLE,
                            hidden_label="show hidden luggage", chart=chart,
                            review=None if review is None else review_data(review, record.actions))


def viewer_page(record: Any, review: dict[str, Any] | None = None) -> str:
    """The viewer as a whole self-contained HTML page (opens offline in any browser)."""
    return page.record_page(record, viewer_html(record, review))
