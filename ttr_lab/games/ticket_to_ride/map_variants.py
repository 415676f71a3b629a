"""A shipped map's variants: its board (cities, tracks, positions) with another ticket deck and
other rule numbers, selected by the variant's own name wherever a map is named (``--map
usa_mega``, ``map: usa_1910``). The board is stated once, in the map's folder; a variant is a
table of the map's ``map.toml``::

    [variants.usa_1910]
    title = "Ticket to Ride: USA 1910"
    tickets = "tickets_1910.csv"            # a file of the map's folder (default: tickets.csv)
    tickets_where = { edition = "1910" }    # only the rows with these values (default: every row)

    [variants.usa_1910.ruleset]             # on top of the map's own [ruleset]
    globetrotter_bonus = 15

A ``tickets_where`` value may be a list (any of them). Ticket ids are positions among the rows
kept, so they are stable for a given variant.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any, Mapping

from ttr_lab.core.errors import BoardDataError

_KEYS = {"title", "tickets", "tickets_where", "ruleset", "min_players", "max_players"}


def _maps_root() -> Any:
    return resources.files("ttr_lab.games.ticket_to_ride.maps")


def map_meta(folder: Any, source: str) -> dict[str, Any]:
    """A map folder's ``map.toml`` as a mapping; a missing or malformed one is a BoardDataError."""
    meta_file = folder / "map.toml"
    if not meta_file.is_file():
        raise BoardDataError(f"map {source}: missing map.toml")
    try:
        return tomllib.loads(meta_file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise BoardDataError(f"map {source}: map.toml is not valid TOML ({exc})") from None


@functools.lru_cache(maxsize=1)
def shipped_variants() -> Mapping[str, str]:
    """Every shipped variant's name with the shipped map whose board it plays on."""
    root = _maps_root()
    folders = sorted(p.name for p in root.iterdir() if p.is_dir() and (p / "map.toml").is_file())
    out: dict[str, str] = {}
    for base in folders:
        for name in variant_tables(map_meta(root / base, base), base):
            if name in folders or name in out:
                raise BoardDataError(f"map {base}: variant {name!r} is named like another map or variant")
            out[name] = base
    return out


def variant_tables(meta: Mapping[str, Any], source: str) -> dict[str, dict[str, Any]]:
    """The ``[variants.NAME]`` tables of a map's ``map.toml``, each checked for unknown keys."""
    tables = meta.get("variants", {})
    if not isinstance(tables, dict):
        raise BoardDataError(f"map {source}: variants must be a table of [variants.NAME] tables")
    for name, table in tables.items():
        if not isinstance(table, dict):
            raise BoardDataError(f"map {source}: variants.{name} must be a table")
        unknown = sorted(set(table) - _KEYS)
        if unknown:
            raise BoardDataError(f"map {source}: variants.{name} has unknown key(s) {', '.join(unknown)}; "
                                 f"valid: {', '.join(sorted(_KEYS))}")
    return dict(tables)


def select_tickets(rows: list[dict[str, str]], where: Any, filename: str, source: str
                   ) -> list[tuple[int, dict[str, str]]]:
    """The rows of a tickets file a variant plays with, each with its line in the file: those
    whose columns hold the values of ``where`` (a table of column = a value or a list of them)."""
    numbered = list(enumerate(rows, start=2))
    if not where:
        return numbered
    if not isinstance(where, dict):
        raise BoardDataError(f"map {source}: tickets_where must be a table of column = value(s)")
    header = set(rows[0]) if rows else set()
    wanted: dict[str, set[str]] = {}
    for column, values in where.items():
        if column not in header:
            raise BoardDataError(f"map {source}: {filename} has no column {column!r} (named by tickets_where)")
        wanted[column] = {str(v) for v in (values if isinstance(values, list) else [values])}
    kept = [(n, r) for n, r in numbered if all((r.get(c) or "").strip() in vs for c, vs in wanted.items())]
    if not kept:
        raise BoardDataError(f"map {source}: no row of {filename} matches tickets_where {where}")
    return kept
