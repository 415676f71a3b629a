"""A Trans-Orient Express position as a picture (``ttr-lab replay --picture``) and a record in
Jupyter: the station's two rows with their piles, then each seat's tableau, hand and reserve.

Cards are drawn in their region's colour, labelled with their number, destination and VP; a
deck whose colour names matplotlib does not know is drawn in grey. Luggage is shown as a count
until the game is over (it is secret until then).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, Sequence

from ttr_lab.core.figures import new_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ttr_lab.games.trans_orient.state import GameState

_W, _H = 1.0, 1.3  # a card's size in the picture's units


def _colour(name: str) -> str:
    from matplotlib.colors import is_color_like

    return name if is_color_like(name) else "grey"


def _card(ax: Any, x: float, y: float, number: int, deck: Any, outline: bool = False) -> None:
    from matplotlib.patches import Rectangle

    card = deck.card(number)
    face = _colour(deck.colours[card.colour])
    ax.add_patch(Rectangle((x, y), _W, _H, facecolor="white" if outline else face, edgecolor=face,
                           linewidth=2.5 if outline else 1, alpha=1 if outline else 0.55))
    ax.text(x + _W / 2, y + _H / 2, f"#{number}\nd{card.destination}\n{card.vp} VP", ha="center", va="center",
            fontsize=7)


def draw_state(state: "GameState", names: Sequence[str] | None = None) -> "Figure":
    """The position as a picture; ``names`` (each seat's strategy) label the seats."""
    deck, C, n = state.tables.deck, state.tables.colours, state.num_players
    fig = new_figure(10, 2.2 + 1.6 * n)
    ax = fig.add_subplot()
    ax.set_axis_off()
    top = 1.8 * n + 1
    for col, (low, up) in enumerate(zip(state.lower, state.upper)):
        x = col * 1.6
        if up:
            _card(ax, x, top + 1.5, up, deck)
        if low:
            _card(ax, x, top, low, deck)
        pile = state.piles[col * C:(col + 1) * C]
        text = " ".join(f"{k}{deck.colours[c][0]}" for c, k in enumerate(pile) if k) or "empty"
        ax.text(x + _W / 2, top - 0.25, text + (" [SM]" if state.mcol == col else ""), ha="center", fontsize=7)
    ax.text(-0.3, top + 0.6, "lower", ha="right", fontsize=8)
    ax.text(-0.3, top + 2.1, "upper", ha="right", fontsize=8)
    for p in range(n):
        y = (n - 1 - p) * 1.8
        reserve = " ".join(f"{k}{deck.colours[c][0]}" for c, k in enumerate(state.reserves[p * C:(p + 1) * C]) if k)
        luggage = (", ".join(map(str, state.luggage[p])) or "none") if state.is_terminal() else len(state.luggage[p])
        who = f" {names[p]}" if names else ""
        ax.text(-0.3, y + _H / 2, f"seat {p}{who}{' (SM)' if state.master == p else ''}\nreserve {reserve or '-'}\n"
                f"luggage {luggage}", ha="right", va="center", fontsize=7)
        for i, x in enumerate(state.played[p]):
            _card(ax, i * 1.1, y, x, deck)
        for i, x in enumerate(state.hands[p]):
            _card(ax, (len(state.played[p]) + i) * 1.1 + 0.4, y, x, deck, outline=True)
    ax.set_xlim(-3.2, max(9 * 1.1 + 0.4 + _W, 1.6 * len(state.lower)))
    ax.set_ylim(-0.3, top + 1.5 + _H + 0.2)
    ax.set_title(f"{deck.title}: round {state.round}, turn {state.turns} (filled: placed; outlined: in hand)",
                 fontsize=9)
    return fig


def record_html(record: Any) -> str:
    """The finished game for Jupyter: its table (``result_summary``), then the replay viewer
    (``replay_html.viewer_html``: station, players, scores over time), as ``replay --html``."""
    from ttr_lab.games.trans_orient.replay import result_summary
    from ttr_lab.games.trans_orient.replay_html import viewer_html

    ending, headers, rows, _ = result_summary(record)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<p>{html.escape(ending)}</p><table><tr>{head}</tr>{body}</table>" + viewer_html(record)
