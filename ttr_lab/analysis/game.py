"""The game a results folder was played in, and what the analysis asks of it.

The analysis speaks the core's ``Game`` protocol only: the metrics a game declares (names,
descriptions, whether to summarise them) and three parts of its views (``game.views``, a core
``GameViews``), whose defaults give a game that says nothing a full generic report:

    score_parts                 metric names whose sum is the score, then useful sub-parts
    report_tables(frame)        [(title, note, DataFrame)]: the game's own report sections
    report_figures(frame)       [(key, caption, Figure)]: the game's own report figures
    figure_min_games            figure key -> the fewest games it is drawn from

A hook that also takes ``records`` is handed the folder's game records (``StoredRecord``s,
``ttr_lab.core.results.read_records``), for what the rows do not hold. A game whose views say
``report_reads = "digest"`` is handed the results' ``ResultsDigest`` (``core.digest``)
instead of the frame, so its sections cost no more memory than the report's own; any other
game's hooks get the whole frame, read for them.
"""

from __future__ import annotations

import inspect

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game, config_shorthands, fold_shorthands, load_game

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

_KEY = re.compile(r"^[A-Za-z0-9_-]+$")  # a figure key is a file name: report/<key>.png


def _from_meta(folder: Path) -> Game | None:
    """The game a tournament's ``meta.json`` names (written with its resolved options)."""
    meta_file = folder / "meta.json"
    if not meta_file.exists():
        return None
    try:
        named = json.loads(meta_file.read_text(encoding="utf-8")).get("game")
    except (ValueError, AttributeError):
        raise ConfigError(f"{meta_file}: not a JSON object") from None
    if not isinstance(named, dict) or not named.get("name"):
        return None  # written before meta.json named the game
    return load_game(str(named["name"]), **dict(named.get("options") or {}))


def _from_config(folder: Path) -> Game | None:
    """The game a ``config.yaml`` names with ``game`` and ``options`` (a tuning run's, say)."""
    config_file = folder / "config.yaml"
    if not config_file.exists():
        return None
    import yaml

    data = yaml.safe_load(config_file.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict) or not data.get("game"):
        return None
    name = str(data["game"])
    # The game's shorthands as a config may give them (``map: legendary_asia`` beside ``options``).
    given = {k: data[k] for k in config_shorthands(name) if k in data}
    return load_game(name, **fold_shorthands(name, given, dict(data.get("options") or {})))


def _from_records(folder: Path) -> Game | None:
    from ttr_lab.core.results import first_record

    stored = first_record(folder)
    return None if stored is None else stored.record.load_game()


def _named(frame: Any) -> tuple[list[str], list[str]]:
    """The games and variants the rows name (a frame's, or a digest's, in row order for a frame)."""
    if hasattr(frame, "game_names"):
        return sorted(frame.game_names), sorted(frame.variants)
    return [str(v) for v in pd_unique(frame["game"])], [str(v) for v in pd_unique(frame["variant"])]


def pd_unique(column: Any) -> list[Any]:
    import pandas as pd

    return list(pd.unique(column.astype(str)))


def _empty(frame: Any) -> bool:
    return frame is None or (frame.games == 0 if hasattr(frame, "game_names") else frame.empty)


def _from_rows(frame: Any) -> Game:
    names, variants = _named(frame)
    name, variant = names[0], variants[0]
    game = load_game(name)
    if game.variant != variant:
        raise ConfigError(f"the results are of {name} variant {variant!r}, but with no config.yaml and no records "
                          f"beside them its options are unknown (the default variant is {game.variant!r})")
    return game


def game_of(folder: str | Path, frame: Any = None) -> Game:
    """The game the results in ``folder`` were played in: from its ``meta.json`` (a tournament
    names the game and its options there), else its first game record, else its ``config.yaml``
    (``game`` and ``options``), else the rows' ``game`` with default options; whichever names it
    must give the rows' ``variant``. ``frame``: the results frame, or a folder's digest."""
    folder = Path(folder)
    game = _from_meta(folder) or _from_records(folder) or _from_config(folder)
    if _empty(frame):
        if game is None:
            raise ConfigError(f"{folder}: no config.yaml, records or results name the game played")
        return game
    if game is None:
        game = _from_rows(frame)
    names, variant_names = _named(frame)
    named = sorted(set(names) - {game.name})
    if named:
        raise ConfigError(f"{folder}: the results name game(s) {', '.join(named)}, the folder's config {game.name}")
    variants = sorted(set(variant_names) - {game.variant})
    if variants:
        raise ConfigError(f"{folder}: the results are of {game.name} variant(s) {', '.join(variants)}, "
                          f"but the folder names variant {game.variant!r}")
    return game


def score_parts_of(game: Game) -> tuple[str, ...]:
    """The game's ``score_parts`` (metric names, from its views), checked against its metrics."""
    parts = tuple(game.views.score_parts)
    declared = {m.name for m in game.metrics}
    unknown = [p for p in parts if p not in declared]
    if unknown:
        raise ValueError(f"{game.name}: score_parts names undeclared metric(s) {', '.join(unknown)}")
    return parts


def _call(hook: Any, frame: "pd.DataFrame", records: Sequence[Any], skip: Sequence[str] = ()) -> Any:
    """``hook(frame)``, with the records too when the game's view takes them (a view written
    before records were handed over takes the frame alone), and ``skip`` (the figure keys the
    report will not draw, so the view need not build them) when it takes that."""
    try:
        parameters = inspect.signature(hook).parameters
    except (TypeError, ValueError):  # a builtin or C callable: no signature to read
        parameters = {}  # type: ignore[assignment]
    extra = {"skip": tuple(skip)} if "skip" in parameters else {}
    return hook(frame, records, **extra) if "records" in parameters else hook(frame, **extra)


def _rows_for(game: Game, hook: str, frame: Any) -> Any:
    """What the game's ``hook`` is handed: a digest where its views read one
    (``report_reads = "digest"``), else the whole frame (read from the digest's folder: a
    game whose hooks want every row holds every row)."""
    if not hasattr(frame, "game_names") or getattr(game.views, "report_reads", "frame") == "digest" \
            or not game.views.offers(hook):
        return frame
    return frame.frame()


def game_tables(game: Game, frame: Any, records: Sequence[Any] = ()) -> list[tuple[str, str, "pd.DataFrame"]]:
    """The game's own report tables (its views' ``report_tables``); ``frame``: the results frame
    or a folder's digest; ``records``: the folder's stored game records."""
    rows = _rows_for(game, "report_tables", frame)
    return [(str(title), str(note), table) for title, note, table in _call(game.views.report_tables, rows, records)]


def game_figures(game: Game, frame: Any, records: Sequence[Any] = (),
                 skip: Sequence[str] = ()) -> list[tuple[str, str, "Figure"]]:
    """The game's own report figures (its views' ``report_figures``; ``records`` as for
    ``game_tables``), but none whose key is in ``skip``."""
    drawn = _call(game.views.report_figures, _rows_for(game, "report_figures", frame), records, skip)
    out = [(str(key), str(caption), fig) for key, caption, fig in drawn if key not in skip]
    bad = [key for key, _, _ in out if not _KEY.match(key)]
    if bad:
        raise ValueError(f"{game.name}: figure key(s) {', '.join(map(repr, bad))} are not plain file names")
    return out

