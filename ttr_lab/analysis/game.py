"""The game a results folder was played in, and what the analysis asks of it.

The analysis speaks the core's ``Game`` protocol only: the metrics a game declares (names,
descriptions, whether to summarise them) and three optional hooks, each asked for with
``getattr`` so a game that has none still gets a full generic report:

    score_parts                 metric names whose sum is the score, then useful sub-parts
    report_tables(frame)        [(title, note, DataFrame)]: the game's own report sections
    report_figures(frame)       [(key, caption, Figure)]: the game's own report figures
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game, load_game

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
    return load_game(str(data["game"]), **dict(data.get("options") or {}))


def _from_records(folder: Path) -> Game | None:
    from ttr_lab.core.record import GameRecord

    from ttr_lab.core.results import record_lines

    for part in sorted(folder.glob("records/*.jsonl.gz")):
        for data in record_lines(part):
            record = GameRecord.from_dict(data)
            return load_game(record.game, **record.options)
    return None


def _from_rows(frame: "pd.DataFrame") -> Game:
    name, variant = str(frame["game"].iloc[0]), str(frame["variant"].iloc[0])
    game = load_game(name)
    if game.variant != variant:
        raise ConfigError(f"the results are of {name} variant {variant!r}, but with no config.yaml and no records "
                          f"beside them its options are unknown (the default variant is {game.variant!r})")
    return game


def game_of(folder: str | Path, frame: "pd.DataFrame | None" = None) -> Game:
    """The game the results in ``folder`` were played in: from its ``meta.json`` (a tournament
    names the game and its options there), else its first game record, else its ``config.yaml``
    (``game`` and ``options``), else the rows' ``game`` with default options; whichever names it
    must give the rows' ``variant``."""
    folder = Path(folder)
    game = _from_meta(folder) or _from_records(folder) or _from_config(folder)
    if frame is None or frame.empty:
        if game is None:
            raise ConfigError(f"{folder}: no config.yaml, records or results name the game played")
        return game
    if game is None:
        game = _from_rows(frame)
    named = sorted(set(frame["game"].astype(str)) - {game.name})
    if named:
        raise ConfigError(f"{folder}: the results name game(s) {', '.join(named)}, the folder's config {game.name}")
    variants = sorted(set(frame["variant"].astype(str)) - {game.variant})
    if variants:
        raise ConfigError(f"{folder}: the results are of {game.name} variant(s) {', '.join(variants)}, "
                          f"but the folder names variant {game.variant!r}")
    return game


def score_parts_of(game: Game) -> tuple[str, ...]:
    """The game's ``score_parts`` (metric names), checked against its metrics; () if it has none."""
    parts = tuple(getattr(game, "score_parts", ()) or ())
    declared = {m.name for m in game.metrics}
    unknown = [p for p in parts if p not in declared]
    if unknown:
        raise ValueError(f"{game.name}: score_parts names undeclared metric(s) {', '.join(unknown)}")
    return parts


def game_tables(game: Game, frame: "pd.DataFrame") -> list[tuple[str, str, "pd.DataFrame"]]:
    """The game's own report tables (``report_tables``), or [] if it has none."""
    hook = getattr(game, "report_tables", None)
    return [] if hook is None else [(str(title), str(note), table) for title, note, table in hook(frame)]


def game_figures(game: Game, frame: "pd.DataFrame") -> list[tuple[str, str, "Figure"]]:
    """The game's own report figures (``report_figures``), or [] if it has none."""
    hook = getattr(game, "report_figures", None)
    if hook is None:
        return []
    out = [(str(key), str(caption), fig) for key, caption, fig in hook(frame)]
    bad = [key for key, _, _ in out if not _KEY.match(key)]
    if bad:
        raise ValueError(f"{game.name}: figure key(s) {', '.join(map(repr, bad))} are not plain file names")
    return out

