"""A study's cell read once, a chunk at a time, into what the study's tables need of it: the
effects (per entrant, its games, wins and the moments of every number over the games it played
out), the balance (wins against the fair share), what the rows name (the checks ``compare``
makes), and each game's deal seed by a hash of its id (the deals check against the baseline).
A cell of ten million games is then a few numbers per entrant and 24 bytes per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ttr_lab.core.accumulate import Moments
from ttr_lab.core.digest import is_number


@dataclass
class CellSummary:
    """One cell's rows, reduced (see the module's docstring)."""

    folder: Path
    games: int = 0
    game_names: set[str] = field(default_factory=set)
    variants: set[str] = field(default_factory=set)
    players: set[int] = field(default_factory=set)
    rows: dict[str, int] = field(default_factory=dict)
    wins: dict[str, float] = field(default_factory=dict)
    fair: dict[str, float] = field(default_factory=dict)
    played_rows: dict[str, int] = field(default_factory=dict)
    played: Moments = field(default_factory=Moments)  # per entrant, over rows not forfeited
    recorded: set[str] = field(default_factory=set)
    keys: Any = None  # per game: two 64-bit hashes of its id, sorted
    seeds: Any = None  # the deal seed of each

    @classmethod
    def read(cls, folder: Path) -> "CellSummary":
        from ttr_lab.core.result_chunks import game_chunks
        from ttr_lab.core.results import _keys

        cell = cls(folder)
        keys, seeds = [], []
        for c in game_chunks(folder):
            first = ~c["game_id"].duplicated().to_numpy()
            cell.games += int(first.sum())
            keys.append(_keys(c["game_id"].to_numpy()[first]))
            seeds.append(c["deal_seed"].to_numpy()[first].astype(np.uint64))
            cell.game_names.update(str(v) for v in pd.unique(c["game"].dropna()))
            cell.variants.update(str(v) for v in pd.unique(c["variant"].dropna()))
            cell.players.update(int(v) for v in pd.unique(c["num_players"]))
            cell.recorded.update(col for col in c.columns if c[col].notna().any())
            entrant = c["entrant"].astype(str).to_numpy()
            g = pd.DataFrame({"entrant": entrant, "win": c["win"].astype(float), "fair": 1.0 / c["num_players"]})
            sums = g.groupby("entrant").agg(rows=("win", "size"), wins=("win", "sum"), fair=("fair", "sum"))
            for e, r in sums.iterrows():
                cell.rows[e] = cell.rows.get(e, 0) + int(r["rows"])
                cell.wins[e] = cell.wins.get(e, 0.0) + float(r["wins"])
                cell.fair[e] = cell.fair.get(e, 0.0) + float(r["fair"])
            kept = ~c["forfeit"].fillna(False).astype(bool).to_numpy()
            for e, n in pd.Series(entrant[kept]).value_counts().items():
                cell.played_rows[e] = cell.played_rows.get(e, 0) + int(n)
            numbers = [col for col in c.columns if col not in ("win", "forfeit") and is_number(c[col])]
            cell.played.add(c[kept], entrant[kept], numbers)
        if keys:
            every, seed = np.concatenate(keys), np.concatenate(seeds)
            del keys, seeds  # the chunks' pieces: a second copy of every game's key while sorting
            order = np.argsort(every, kind="stable")
            cell.keys = every[order]
            del every
            cell.seeds = seed[order]
        return cell

    def is_recorded(self, column: str) -> bool:
        return column in self.recorded

    def deals_against(self, base: "CellSummary", a: str, b: str) -> str:
        """"" when this cell played the baseline's deals (``runs.deal_difference``), else what differs."""
        if self.keys is None or base.keys is None:
            return f"{a} and {b} have no game id in common (different schedules)"
        at = np.minimum(np.searchsorted(base.keys, self.keys), len(base.keys) - 1)
        common = base.keys[at] == self.keys
        if not common.any():
            return f"{a} and {b} have no game id in common (different schedules)"
        other = common & (base.seeds[at] != self.seeds)
        if not other.any():
            return ""
        first = int(np.flatnonzero(other)[0])
        return (f"game {self._game_id(self.keys[first])} has deal seed {base.seeds[at[first]]} in {a} and "
                f"{self.seeds[first]} in {b} (different seeds)")

    def _game_id(self, key: Any) -> str:
        """The id of the game with ``key`` (read again: the summary keeps hashes, not ids)."""
        from ttr_lab.core.result_chunks import game_chunks
        from ttr_lab.core.results import _keys

        for c in game_chunks(self.folder, ["game_id"]):
            hit = np.flatnonzero(_keys(c["game_id"].to_numpy()) == key)
            if len(hit):
                return str(c["game_id"].iloc[hit[0]])
        return "?"
