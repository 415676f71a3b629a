"""Pictures of the board (matplotlib): a game state with each player's tracks, and a map of how
often each track is claimed. Cities sit at their real latitude and longitude (an equirectangular
projection squeezed by the cosine of the map's middle latitude, so shapes look right)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ttr_lab.core.figures import new_figure, png_bytes
from ttr_lab.games.ticket_to_ride.board import Board
from ttr_lab.games.ticket_to_ride.colours import TRACK_COLOUR_NAMES

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ttr_lab.games.ticket_to_ride.state import GameState

PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")
TRACK_COLOURS = {
    "red": "#c0392b", "orange": "#e67e22", "yellow": "#f1c40f", "green": "#27ae60", "blue": "#2e86c1",
    "pink": "#e84393", "black": "#222222", "white": "#bbbbbb", "gray": "#8e8e8e",
}


def city_xy(board: Board) -> dict[int, tuple[float, float]]:
    """Plot coordinates of each city; cities without a position go on a circle."""
    if not board.positions:
        n = len(board.cities)
        return {i: (math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n)) for i in range(n)}
    lats = [lat for lat, _ in board.positions.values()]
    squeeze = math.cos(math.radians((max(lats) + min(lats)) / 2))
    out = {}
    for i, name in enumerate(board.cities):
        lat, lon = board.positions.get(name, (min(lats), 0.0))
        out[i] = (lon * squeeze, lat)
    return out


def _segments(board: Board, xy: Mapping[int, tuple[float, float]]) -> dict[int, tuple[tuple[float, float], tuple[float, float]]]:
    """Each track's line; the two tracks of a double route are drawn side by side."""
    out = {}
    for t in board.tracks:
        (x1, y1), (x2, y2) = xy[t.a], xy[t.b]
        offset = 0.0
        if t.twin >= 0:
            offset = 0.18 if t.id < t.twin else -0.18
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length * offset, dx / length * offset
        out[t.id] = ((x1 + nx, y1 + ny), (x2 + nx, y2 + ny))
    return out


def _cities(ax: Any, board: Board, xy: Mapping[int, tuple[float, float]], labels: bool = True) -> None:
    xs, ys = zip(*(xy[i] for i in range(len(board.cities))))
    ax.scatter(xs, ys, s=18, c="#333333", zorder=3)
    if labels:
        for i, name in enumerate(board.cities):
            ax.annotate(name, xy[i], fontsize=6.5, xytext=(3, 3), textcoords="offset points", zorder=4)
    ax.set_aspect("equal")
    ax.axis("off")


def draw_state(state: "GameState", title: str | None = None) -> "Figure":
    """The board of a game state: open tracks thin in their printed colour, claimed tracks thick
    in their owner's colour; the legend gives each player's route points and trains."""
    board = state.board
    fig = new_figure()
    ax = fig.add_subplot()
    xy = city_xy(board)
    lines = _segments(board, xy)
    for t in board.tracks:
        (x1, y1), (x2, y2) = lines[t.id]
        owner = state.owner[t.id]
        if owner < 0:
            ax.plot([x1, x2], [y1, y2], color=TRACK_COLOURS.get(TRACK_COLOUR_NAMES[t.colour], "#999999"),
                    lw=1.2, alpha=0.55, zorder=1, solid_capstyle="butt")
        else:
            ax.plot([x1, x2], [y1, y2], color=PLAYER_COLOURS[owner % len(PLAYER_COLOURS)], lw=4.0, zorder=2,
                    solid_capstyle="butt")
    for p in range(state.num_players):
        ax.plot([], [], color=PLAYER_COLOURS[p % len(PLAYER_COLOURS)], lw=4,
                label=f"player {p}: {state.points[p]} route points, {state.trains[p]} trains")
    ax.legend(loc="lower left", fontsize=7, frameon=False)
    _cities(ax, board, xy)
    ax.set_title(title or f"{board.title}: turn {state.turns}" + (" (game over)" if state.is_terminal() else ""), fontsize=10)
    return fig


def draw_track_heat(board: Board, values: Sequence[float], title: str, label: str, cmap: str = "viridis") -> "Figure":
    """The board with each track coloured (and thickened) by ``values[track]`` (e.g. how often
    it is claimed)."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    fig = new_figure()
    ax = fig.add_subplot()
    xy = city_xy(board)
    lines = _segments(board, xy)
    top = max(max(values), 1e-9)
    norm = Normalize(vmin=0.0, vmax=top)
    colours = colormaps[cmap]
    for t in board.tracks:
        (x1, y1), (x2, y2) = lines[t.id]
        v = values[t.id]
        ax.plot([x1, x2], [y1, y2], color=colours(norm(v)), lw=1.0 + 4.0 * v / top, zorder=1, solid_capstyle="butt")
    _cities(ax, board, xy)
    fig.colorbar(ScalarMappable(norm=norm, cmap=colours), ax=ax, shrink=0.6, label=label)
    ax.set_title(title, fontsize=10)
    return fig


def record_html(record: Any) -> str:
    """A record's result table and final board, as HTML (for Jupyter)."""
    import base64
    import html

    result = record.result
    rows = "".join(
        f"<tr><td>{p['rank']}</td><td>{p['player']}</td><td>{html.escape(record.strategies[p['player']])}</td>"
        f"<td>{p['route_points']}</td><td>{p['ticket_points']:+d} ({p['tickets_completed']}/{len(p['tickets'])})</td>"
        f"<td>{p['longest_trail']}</td><td>{p['longest_bonus']}</td><td><b>{p['total']}</b></td></tr>"
        for p in sorted(result["players"], key=lambda p: (p["rank"], p["player"]))
    )
    image = base64.b64encode(png_bytes(draw_state(record.replay()), dpi=80)).decode()
    return (
        f"<p>{html.escape(record.options.get('map', ''))}, {record.num_players} players, seed {record.seed}: "
        f"{result['turns']} turns{' (stalled)' if result['stalled'] else ''}</p><table><tr><th>rank</th><th>seat</th>"
        f"<th>strategy</th><th>routes</th><th>tickets</th><th>longest</th><th>bonus</th><th>total</th></tr>{rows}</table>"
        f'<img src="data:image/png;base64,{image}">'
    )
