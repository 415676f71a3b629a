"""Tables as a reader sees them: human headers with units, a rate and its 95% interval in one
cell (``42.1% [37.4, 47.0]``), one precision per column, ``<0.001`` for tiny p-values.

The analysis functions return raw DataFrames (snake_case columns, floats, ``x_low`` /
``x_high`` beside ``x``) for notebooks and further computation; ``present`` turns any of them
into strings for the report, and ``html_table`` / ``markdown_table`` write them out. A game's own
table can name its headers and percentage columns in ``table.attrs`` (``"labels"``: column ->
header, ``"percent"``: column names, ``"one_precision"``: one precision for every column), since
the analysis knows no game's columns.
"""

from __future__ import annotations

import html
import math
from typing import Any, Iterable, Mapping

import pandas as pd

# Header of each column the generic tables produce; a unit in brackets where there is one.
LABELS: dict[str, str] = {
    "entrant": "entrant", "strategy": "strategy", "games": "games", "win_rate": "win rate [95% CI]",
    "mean_score": "mean score (pts)", "score_sd": "score SD (pts)", "turns": "turns / game", "forfeits": "forfeits",
    "stalled_games": "stalled", "rating": "rating (Elo) [95% CI]", "players": "players", "seat": "seat (0 plays first)",
    "fair_share": "fair share", "a": "A", "b": "B", "deals": "deals", "a_ahead": "A ahead of B [95% CI]",
    "p_value": "p", "p_holm": "p (Holm)", "significant": "significant (Holm, 5%)", "part": "score part",
    "mean": "mean (pts)", "std": "SD (pts)", "q1": "1st quartile", "median": "median", "q3": "3rd quartile",
    "metric": "metric", "description": "description", "decisions": "decisions",
    "seconds_per_decision": "think time / decision (ms)", "share": "share [95% CI]",
}
# Columns that hold a share of 0..1, shown as percentages (also any name ending in these).
PERCENT = {"win_rate", "a_ahead", "fair_share", "share", "completion"}
_PERCENT_SUFFIXES = ("_rate", "_completion", "_share")
P_VALUES = {"p_value", "p_holm"}
MILLISECONDS = {"seconds_per_decision"}  # stored in seconds, shown in ms (think times are small)


def percent(value: float, digits: int = 1) -> str:
    """``0.4213`` -> ``42.1%``; blank for a missing value."""
    return "" if _missing(value) else f"{100 * value:.{digits}f}%"


def percent_interval(rate: float, low: float, high: float, digits: int = 1) -> str:
    """A share with its interval in one cell: ``42.1% [37.4, 47.0]``."""
    if _missing(rate):
        return ""
    if _missing(low) or _missing(high):
        return percent(rate, digits)
    return f"{100 * rate:.{digits}f}% [{100 * low:.{digits}f}, {100 * high:.{digits}f}]"


def p_text(p: float) -> str:
    """A p-value as a paper writes it: ``<0.001`` below a thousandth, else three decimals."""
    if _missing(p):
        return ""
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def decimals_for(values: Iterable[Any]) -> int:
    """One precision for a whole column: none for whole numbers, else by the column's largest
    magnitude (1 decimal from 10 up, 2 from 0.1, 4 below), so ``3.4`` sits beside ``12.3``."""
    finite = [float(v) for v in values if not _missing(v)]
    if not finite or all(float(v).is_integer() for v in finite):
        return 0
    top = max(abs(v) for v in finite)
    return 1 if top >= 10 else 2 if top >= 0.1 else 4


def _missing(value: Any) -> bool:
    try:
        return value is None or bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _bounds(table: pd.DataFrame, name: str) -> tuple[str, str] | None:
    """The columns holding ``name``'s 95% interval: ``x_low`` / ``x_high`` beside ``x``, or
    beside ``x_rate``."""
    for stem in (name, name.removesuffix("_rate")):
        pair = (f"{stem}_low", f"{stem}_high")
        if stem and pair[0] in table.columns and pair[1] in table.columns and name not in pair:
            return pair
    return None


def _is_percent(column: str, extra: set[str]) -> bool:
    return column in PERCENT or column in extra or column.endswith(_PERCENT_SUFFIXES)


def _numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)


def present(table: pd.DataFrame, labels: Mapping[str, str] | None = None, percent_columns: Iterable[str] = (),
            all_percent: bool = False, one_precision: bool = False) -> pd.DataFrame:
    """``table`` as strings with human headers: ``x`` with ``x_low`` / ``x_high`` beside it
    becomes one ``x [low, high]`` cell; shares become percentages, p-values ``<0.001``, think
    times milliseconds; every other number gets one precision per column. ``all_percent``: every
    numeric cell is a share (a head-to-head matrix); ``one_precision``: one precision for the
    whole table (a table whose columns are entrants and whose rows are different quantities).
    The index is kept."""
    names = {**LABELS, **table.attrs.get("labels", {}), **(labels or {})}
    extra = set(table.attrs.get("percent", ())) | set(percent_columns)
    out: dict[str, list[str]] = {}
    text_columns: list[str] = []
    bounded_by = {str(c): _bounds(table, str(c)) for c in table.columns}
    hidden = {b for pair in bounded_by.values() if pair for b in pair}
    one_precision = one_precision or bool(table.attrs.get("one_precision"))
    shared = decimals_for(v for c in table.columns if _numeric(table[c]) for v in table[c]) if one_precision else None
    for column in table.columns:
        name = str(column)
        if name in hidden:
            continue  # shown inside the cell of the column it bounds
        series = table[column]
        header = names.get(name, name)
        bounds = bounded_by[name]
        bounded = bounds is not None
        if bounded and "[95% CI]" not in header:
            header += " [95% CI]"
        if name in P_VALUES:
            cells = [p_text(v) for v in series]
        elif pd.api.types.is_bool_dtype(series):
            cells = ["yes" if v else "no" for v in series]
        elif not _numeric(series):
            cells = ["" if _missing(v) else str(v) for v in series]
            text_columns.append(header)
        elif all_percent or _is_percent(name, extra):
            if bounds is not None:
                cells = [percent_interval(v, lo, hi) for v, lo, hi in
                         zip(series, table[bounds[0]], table[bounds[1]])]
            else:
                cells = [percent(v) for v in series]
        else:
            scale = 1000.0 if name in MILLISECONDS or name.endswith("seconds_per_decision") else 1.0
            values = [v * scale if not _missing(v) else v for v in series]
            if bounds is not None:
                lows = [v * scale for v in table[bounds[0]]]
                highs = [v * scale for v in table[bounds[1]]]
                d = decimals_for([*values, *lows, *highs]) if name != "rating" else 0
                cells = ["" if _missing(v) else f"{v:.{d}f}" if _missing(lo) else f"{v:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]"
                         for v, lo, hi in zip(values, lows, highs)]
            else:
                d = decimals_for(values)
                d = d if shared is None or d == 0 else shared  # whole numbers (counts) stay whole
                cells = ["" if _missing(v) else f"{v:,.{d}f}".replace(",", " ") if abs(v) >= 10000 else f"{v:.{d}f}"
                         for v in values]
        out[header] = cells
    frame = pd.DataFrame(out, index=table.index)
    if table.index.name is not None or not isinstance(table.index, pd.RangeIndex):
        frame.index.name = table.index.name
    frame.attrs["text_columns"] = text_columns
    return frame


def markdown_table(frame: pd.DataFrame, index: bool = False) -> str:
    """A GitHub-flavoured Markdown table (no extra dependency); numbers as ``present`` writes
    them when given a presented table, else with three decimals below 10 and one above."""
    if index:
        frame = frame.reset_index()
    if frame.empty:
        return "_(no rows)_\n"
    head = "| " + " | ".join(markdown_text(c) for c in frame.columns) + " |"
    rule = "| " + " | ".join("---" for _ in frame.columns) + " |"
    body = ["| " + " | ".join(_cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body]) + "\n"


def _cell(value: Any) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return markdown_text(value)


def markdown_text(value: Any) -> str:
    """``value`` as text inside Markdown: HTML in a name is shown, not rendered, and a ``|`` or a
    line break in it does not end the table cell or row."""
    text = html.escape(str(value), quote=False).replace("|", "\\|")
    return " ".join(text.splitlines())


def html_table(frame: pd.DataFrame, index: bool = False) -> str:
    """A presented table as HTML: text columns left-aligned (and allowed to wrap), numbers
    right-aligned on one line, so columns of figures read down."""
    text = set(frame.attrs.get("text_columns", ()))
    columns = list(frame.columns)
    head = "".join(f'<th class="{"l" if c in text else "r"}">{html.escape(str(c))}</th>' for c in columns)
    if index:
        head = f'<th class="l">{html.escape(str(frame.index.name or ""))}</th>' + head
    rows = []
    for key, row in zip(frame.index, frame.itertuples(index=False)):
        cells = "".join(f'<td class="{"l" if c in text else "r"}">{html.escape(str(v))}</td>' for c, v in zip(columns, row))
        if index:
            cells = f'<th class="l">{html.escape(str(key))}</th>' + cells
        rows.append(f"<tr>{cells}</tr>")
    return f'<div class="scroll"><table class="t"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'


# The report's page style: tables at most the page's width (a wide one scrolls inside its own box,
# never the page), headers allowed to wrap onto two lines, figures scaled to the page.
CSS = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}"
       "div.scroll{max-width:100%;overflow-x:auto}"
       "table.t{border-collapse:collapse;font-size:13px;margin:0.5em 0;font-variant-numeric:tabular-nums}"
       "table.t th{font-weight:600;vertical-align:bottom;border-bottom:2px solid #999;max-width:9em}"
       "table.t td,table.t th{padding:3px 8px}table.t td{border-bottom:1px solid #ddd}"
       ".r{text-align:right}td.r{white-space:nowrap}.l{text-align:left}td.l{max-width:28em}"
       "img{max-width:100%}figure{margin:1.5em 0}figcaption{color:#555;font-size:13px}"
       # The verdict: the answer in words beside its key figure (one above the other on a narrow page).
       "section#verdict{border-left:4px solid #4c72b0;background:#f4f7fb;padding:0.2em 1em 0.6em;margin:1em 0}"
       "div.verdict{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}"
       "div.verdict .words{flex:1 1 26em;min-width:0}div.verdict .words p{line-height:1.45}"
       "div.verdict figure{flex:1 1 22em;margin:0.5em 0}p.note{color:#555;font-size:13px}p.headline{font-weight:600}")

__all__ = ["CSS", "LABELS", "decimals_for", "html_table", "markdown_table", "p_text", "percent", "percent_interval",
           "present"]
