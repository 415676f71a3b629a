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

    from ttr_lab.games.ticket_to_ride.slots import StateSlots

# Players' colours keep clear of the printed track colours below (red, orange, yellow, green, blue,
# pink, black, white, gray): purple, cyan, brown, olive, navy; a claimed track is also thicker and
# outlined, so it reads as a player's even where a hue is near a printed one.
PLAYER_COLOURS = ("#7b3fa0", "#00b5c8", "#8c564b", "#a8a800", "#1c2a80")
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


def track_segments(board: Board, xy: Mapping[int, tuple[float, float]]) -> dict[int, tuple[tuple[float, float], tuple[float, float]]]:
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


_DIRECTIONS = tuple(math.pi / 4 * k for k in (1, 0, 2, 7, 3, 6, 4, 5))  # up-right first: labels read best above a dot
_LABEL_SIZE = 6.5  # points
_LABEL_GAP = 4.0  # points between a dot and its label


def _label_box(at: tuple[float, float], angle: float, width: float, height: float, gap: float) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) of a label of ``width`` x ``height`` set ``gap`` from ``at`` in
    direction ``angle``, anchored as ``_cities`` anchors it (left of the box at the gap when the
    direction points right, and so on)."""
    dx, dy = math.cos(angle), math.sin(angle)
    x, y = at[0] + gap * dx, at[1] + gap * dy
    x0 = x if dx > 0.3 else x - width if dx < -0.3 else x - width / 2
    y0 = y if dy > 0.3 else y - height if dy < -0.3 else y - height / 2
    return (x0, y0, x0 + width, y0 + height)


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _crosses(box: tuple[float, float, float, float], p: tuple[float, float], q: tuple[float, float]) -> bool:
    """Whether the segment p-q passes through ``box`` (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for edge_p, edge_q in ((-dx, p[0] - box[0]), (dx, box[2] - p[0]), (-dy, p[1] - box[1]), (dy, box[3] - p[1])):
        if edge_p == 0:
            if edge_q < 0:
                return False
            continue
        t = edge_q / edge_p
        if edge_p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def _label_angles(board: Board, points: Mapping[int, tuple[float, float]], scale: float) -> dict[int, float]:
    """For each city, the direction of its label, chosen on the drawn page (``points``: each
    city's position in pixels, ``scale``: pixels per typographic point). Of eight compass
    directions, the one whose label box covers the fewest other labels and city dots (a label
    hidden under its neighbour's is the worst outcome), then crosses the fewest tracks; ties go
    to up-right and then the other directions in turn. Crowded cities choose first, so their
    labels get the free sides."""
    height, gap, dot = 1.25 * _LABEL_SIZE * scale, _LABEL_GAP * scale, 3.0 * scale
    widths = {i: 0.6 * _LABEL_SIZE * scale * len(board.cities[i]) for i in points}
    segments = [(points[t.a], points[t.b]) for t in board.tracks]
    dots = {i: (x - dot, y - dot, x + dot, y + dot) for i, (x, y) in points.items()}
    reach = 12 * _LABEL_SIZE * scale

    def crowding(i: int) -> int:
        return sum(math.dist(points[i], points[j]) < reach for j in points if j != i)

    placed: dict[int, tuple[float, float, float, float]] = {}
    out: dict[int, float] = {}
    for city in sorted(points, key=lambda i: (-crowding(i), i)):
        def cost(angle: float) -> tuple[float, int]:
            box = _label_box(points[city], angle, widths[city], height, gap)
            covered = sum(_overlap(box, other) for other in placed.values())
            covered += sum(_overlap(box, d) for j, d in dots.items() if j != city)
            # A track that starts at the city itself crosses the box only where it leaves on that side.
            return (covered, sum(_crosses(box, p, q) for p, q in segments))

        out[city] = min(_DIRECTIONS, key=cost)
        placed[city] = _label_box(points[city], out[city], widths[city], height, gap)
    return out


def _cities(ax: Any, board: Board, xy: Mapping[int, tuple[float, float]], labels: bool = True) -> None:
    """The city dots and names. Call it after everything that changes the axes' size (a colour
    bar): the labels are placed on the laid-out page, where their size in points is known."""
    from matplotlib import patheffects

    xs, ys = zip(*(xy[i] for i in range(len(board.cities))))
    ax.scatter(xs, ys, s=18, c="#333333", zorder=3)
    ax.set_aspect("equal")
    ax.margins(0.06)  # room for the labels of the outermost cities inside the figure
    ax.axis("off")
    if labels:
        fig = ax.get_figure()
        fig.draw_without_rendering()  # lays the figure out, so data positions map onto pixels
        points = {i: tuple(ax.transData.transform(xy[i])) for i in range(len(board.cities))}
        halo = [patheffects.withStroke(linewidth=2.2, foreground="white")]  # readable over a track
        for i, angle in _label_angles(board, points, fig.dpi / 72).items():
            dx, dy = math.cos(angle), math.sin(angle)
            ha = "left" if dx > 0.3 else "right" if dx < -0.3 else "center"
            va = "bottom" if dy > 0.3 else "top" if dy < -0.3 else "center"
            ax.annotate(board.cities[i], xy[i], fontsize=_LABEL_SIZE, xytext=(_LABEL_GAP * dx, _LABEL_GAP * dy),
                        textcoords="offset points", ha=ha, va=va, zorder=4, path_effects=halo, annotation_clip=False)


def draw_state(state: "StateSlots", title: str | None = None, names: Sequence[str] | None = None) -> "Figure":
    """The board of a game state: open tracks thin in their printed colour, claimed tracks thick
    in their owner's colour; the legend names each seat's strategy (``names``, e.g. a record's
    ``strategies``) with its route points and trains."""
    from matplotlib import patheffects

    board = state.tables.board
    outline = [patheffects.withStroke(linewidth=5.5, foreground="black")]
    fig = new_figure()
    ax = fig.add_subplot()
    xy = city_xy(board)
    lines = track_segments(board, xy)
    for t in board.tracks:
        (x1, y1), (x2, y2) = lines[t.id]
        owner = state.owner[t.id]
        style = "--" if t.tunnel else "-"  # a tunnel dashed, as the page draws it
        if owner < 0:
            ax.plot([x1, x2], [y1, y2], color=TRACK_COLOURS.get(TRACK_COLOUR_NAMES[t.colour], "#999999"),
                    lw=1.2, alpha=0.55, zorder=1, solid_capstyle="butt", linestyle=style)
        else:
            ax.plot([x1, x2], [y1, y2], color=PLAYER_COLOURS[owner % len(PLAYER_COLOURS)], lw=4.0, zorder=2,
                    solid_capstyle="butt", path_effects=outline, linestyle=style)
    for p in range(state.tables.num_players):
        who = f"{names[p]} (seat {p})" if names is not None else f"seat {p}"
        ax.plot([], [], color=PLAYER_COLOURS[p % len(PLAYER_COLOURS)], lw=4, path_effects=outline,
                label=f"{who}: {state.points[p]} route points, {state.trains[p]} trains")
    ax.legend(loc="lower left", fontsize=7, frameon=False)
    ax.set_title(title or f"{board.title}: turn {state.turns}" + (" (game over)" if state.is_terminal() else ""), fontsize=10)
    _cities(ax, board, xy)
    return fig


def draw_track_heat(board: Board, values: Sequence[float], title: str, label: str, cmap: str = "YlOrRd") -> "Figure":
    """The board with each track coloured (and thickened) by ``values[track]`` (e.g. how often
    it is claimed). The colour map starts above its palest shade, so every claimed track shows on
    white and the most claimed are the darkest."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import ListedColormap, Normalize

    fig = new_figure()
    ax = fig.add_subplot()
    xy = city_xy(board)
    lines = track_segments(board, xy)
    top = max(max(values, default=0.0), 1e-9)
    norm = Normalize(vmin=0.0, vmax=top)
    colours = ListedColormap(colormaps[cmap](_span(0.18, 1.0)))
    for t in board.tracks:
        (x1, y1), (x2, y2) = lines[t.id]
        v = values[t.id]
        ax.plot([x1, x2], [y1, y2], color=colours(norm(v)) if v > 0 else "#dddddd", lw=1.0 + 4.0 * v / top,
                zorder=1 + v / top, solid_capstyle="butt")
    fig.colorbar(ScalarMappable(norm=norm, cmap=colours), ax=ax, shrink=0.6, label=label)
    ax.set_title(title, fontsize=10)
    _cities(ax, board, xy)
    return fig


def draw_track_claimers(board: Board, shares: Mapping[str, Sequence[float]], title: str) -> "Figure":
    """The board with each track in the colour of the entrant that claims it most often
    (``shares[entrant][track]``: claims per game played), thicker the more often it does, so a
    glance shows which part of the board each entrant makes its own. Tunnels dashed."""
    from matplotlib import colormaps
    from matplotlib.lines import Line2D

    fig = new_figure()
    ax = fig.add_subplot()
    xy = city_xy(board)
    lines = track_segments(board, xy)
    names = sorted(shares)
    palette = PLAYER_COLOURS if len(names) <= len(PLAYER_COLOURS) else [colormaps["tab20"](i % 20) for i in range(len(names))]
    top = max((max(v, default=0.0) for v in shares.values()), default=0.0) or 1.0
    for t in board.tracks:
        (x1, y1), (x2, y2) = lines[t.id]
        style = "--" if t.tunnel else "-"
        ax.plot([x1, x2], [y1, y2], color="#cccccc", lw=0.8, zorder=1, solid_capstyle="butt", linestyle=style)
        share, best = max(((shares[n][t.id] if t.id < len(shares[n]) else 0.0, n) for n in names), default=(0.0, ""))
        if share > 0:
            ax.plot([x1, x2], [y1, y2], color=palette[names.index(best)], lw=1.2 + 4.5 * share / top, zorder=2,
                    solid_capstyle="butt", linestyle=style)
    ax.legend(handles=[Line2D([], [], color=palette[i], lw=4, label=n) for i, n in enumerate(names)]
              + [Line2D([], [], color="#888888", lw=1.5, linestyle="--", label="tunnel")] * any(t.tunnel for t in board.tracks),
              loc="lower left", fontsize=7, frameon=False)
    ax.set_title(title, fontsize=10)
    _cities(ax, board, xy)
    return fig


def _span(start: float, stop: float, n: int = 256) -> list[float]:
    return [start + (stop - start) * i / (n - 1) for i in range(n)]


def draw_track_lift(board: Board, lift: Sequence[float | None], weight: Sequence[float], title: str) -> "Figure":
    """The board with each track coloured by its lift (``lift[track]``: 1 = as often as anyone,
    2 = twice as often; None: too few claims to say), on a diverging map centred on 1 and
    symmetric in ratio (1/2 and 2 are equally strong colours), so tracks that winners favour are
    red, tracks they avoid blue and the indifferent ones pale; thickness by ``weight`` (how often
    the track is claimed at all), so the tracks that matter most stand out."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import LogNorm
    from matplotlib.lines import Line2D

    fig = new_figure()
    ax = fig.add_subplot()
    xy = city_xy(board)
    lines = track_segments(board, xy)
    known = [v for v in lift if v]
    # The scale spans the lifts seen, at least 1/2..2 and at most 1/4..4 (beyond, the darkest shade).
    reach = min(max([max(known, default=2.0), 1 / min(known, default=0.5), 2.0]), 4.0)
    norm = LogNorm(vmin=1 / reach, vmax=reach)
    colours = colormaps["RdBu_r"]
    heaviest = max(max(weight, default=0.0), 1e-9)
    for t in board.tracks:
        (x1, y1), (x2, y2) = lines[t.id]
        v = lift[t.id]
        ax.plot([x1, x2], [y1, y2], color="#cccccc", lw=0.8, zorder=1, solid_capstyle="butt")  # every track, faint
        if v is not None:
            strength = abs(math.log(max(v, 1e-9)))
            ax.plot([x1, x2], [y1, y2], color=colours(norm(max(v, 1 / reach))), lw=1.2 + 4.5 * weight[t.id] / heaviest,
                    zorder=2 + strength, solid_capstyle="butt")
    bar = fig.colorbar(ScalarMappable(norm=norm, cmap=colours), ax=ax, shrink=0.6,
                       label="lift: winners' share of claims over everyone's (log scale)")
    _ratio_ticks(bar, 1 / reach, reach)
    ax.legend(handles=[Line2D([], [], color="#cccccc", lw=0.8, label="too few claims to say"),
                       Line2D([], [], color="#888888", lw=5, label="thicker: claimed more often")],
              loc="lower left", fontsize=7, frameon=False)
    ax.set_title(title, fontsize=10)
    _cities(ax, board, xy)
    return fig


RATIO_TICKS = (0.25, 0.5, 1.0, 2.0, 4.0)


def _ratio_ticks(bar: Any, low: float, high: float) -> None:
    """Plain ratios on a log colour bar (0.5, 1, 2), not matplotlib's ``4x10^-1``: the ticks
    of ``RATIO_TICKS`` within the bar's range, and no minor ticks."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    ticks = [t for t in RATIO_TICKS if low * 0.999 <= t <= high * 1.001]
    bar.ax.yaxis.set_major_locator(FixedLocator(ticks))
    bar.ax.yaxis.set_minor_locator(NullLocator())
    bar.ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
