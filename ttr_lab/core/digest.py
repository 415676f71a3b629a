"""A results set reduced, in one pass over chunks of whole games, to what the report's tables
and figures need: the analysis of ten million games in well under the memory of their rows.

``ResultsDigest.of(source)`` takes a results folder (a path or a URI, read a chunk at a time by
``core.result_chunks``) or a results frame (a notebook's, read whole before). It holds:

    per entrant         rows, wins, forfeits, stalled games, the strategy; over the games
                        played out the moments (count, mean, spread) of every numeric column
                        and the share of rows above zero; the distribution of the score and
                        of ``parts`` (exact quartiles)
    per seat, per player count, per game length, think time: counts, sums, distributions
    per deal            for each ordered pair of entrants, "a ahead of b" summed and counted
                        (head to head, the paired tests and the ratings all derive from it);
                        each entrant's wins and games (a running win rate)
    per list column     (a game's ``ints`` metric: track ids) how often each value is held,
                        per entrant and by the games' winners

The few tables that need another look at the rows (the upsets once the ratings are known, the
leader's per-deal differences once the leader is known) read them again through ``chunks``;
memory is then a few arrays per deal, never a frame of all rows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np
import pandas as pd

from ttr_lab.core.accumulate import Codes, Distribution, Moments, NumberCodes, Tally

# Columns that are keys or labels, not quantities to average.
_NOT_VALUES = {"deal", "deal_seed", "table", "seating", "num_players", "seat", "rank", "win", "forfeit"}
READ_COLUMNS = ("game_id", "deal", "table", "seating", "game", "variant", "num_players", "seat", "entrant", "strategy",
                "score", "rank", "win", "turns", "termination", "forfeit", "decisions", "think_seconds",
                "think_cpu_seconds")
# Deal numbers below this index arrays directly (a schedule's deals are 0, 1, 2...); from the
# first one beyond, deals not seen yet are coded in the order they come.
_DEAL_DIRECT = 1 << 26


class ResultsDigest:
    """What the report reads of a results set (see the module's docstring)."""

    def __init__(self, source: Any, parts: Sequence[str] = ()) -> None:
        self.source = source
        self.parts = tuple(p for p in parts if p != "score")
        self.entrants = Codes()
        self._deals = NumberCodes(_DEAL_DIRECT)
        self.strategy: dict[int, str] = {}
        self.rows = np.zeros(0)
        self.wins = np.zeros(0)
        self.forfeits = np.zeros(0)
        self.stalled_rows = np.zeros(0)
        self.scored = Moments()  # per entrant code, over the rows of games played out
        self.positive: dict[str, np.ndarray] = {}
        self.recorded: dict[str, int] = {}
        self.list_columns: dict[str, dict[int, np.ndarray]] = {}
        self.list_winners: dict[str, np.ndarray] = {}
        self.distributions: dict[tuple[int, str], Distribution] = {}
        self.seats: dict[tuple[int, int], list[float]] = {}
        self.counts = Moments()  # per (players, entrant code): score over games played out
        self.player_rows: dict[tuple[int, int], list[float]] = {}
        self.lengths: dict[int, Distribution] = {}
        self.stalled_lengths: dict[int, Distribution] = {}
        self.think: dict[int, list[float]] = {}
        self.per_decision: dict[int, Distribution] = {}
        self.cpu_recorded = False
        # Per deal, small sums: halves and counts of a few seatings, exact in 32 bits (a deal's
        # wins feed only the running win rate's figure), half the memory of 64.
        self.pairs = Tally(np.float32)  # (a, b) -> per deal code: sum of a ahead of b
        self.pair_counts = Tally(np.int32)
        self.deal_wins = Tally(np.float32)  # entrant code -> per deal code
        self.deal_games = Tally(np.int32)
        self.games = 0
        self.games_played = 0  # games with a score (not forfeited)
        self.stalled_games = 0
        self.game_names: set[str] = set()
        self.variants: set[str] = set()
        self.players: set[int] = set()
        self.columns: list[str] = []
        self._summands = [True] * len(self.parts)  # whether parts[:n + 1] add up to the score in every row

    # -- reading ---------------------------------------------------------------------------------

    @classmethod
    def of(cls, source: Any, parts: Sequence[str] = (), columns: Sequence[str] | None = None) -> "ResultsDigest":
        """The digest of a results folder (path, URI or ``Location``) or a results frame;
        ``parts``: the columns whose quartiles are kept besides the score's; ``columns``: the
        columns read besides the fixed ones (None: every column)."""
        digest = cls(source, parts)
        wanted = None if columns is None else [*READ_COLUMNS, *parts, *columns]
        for chunk in digest.chunks(wanted):
            digest.add(chunk)
        return digest

    def chunks(self, columns: Sequence[str] | None = None) -> Iterator[pd.DataFrame]:
        """The source's rows again, as frames of whole games (``columns`` and the keys)."""
        from ttr_lab.core.result_chunks import frame_chunks, game_chunks

        if isinstance(self.source, pd.DataFrame):
            frame = self.source if columns is None else self.source[[c for c in self.source.columns
                                                                     if c in set(columns) | {"game_id", "seat", "num_players"}]]
            yield from frame_chunks(frame)
        else:
            yield from game_chunks(self.source, columns)

    def deal_codes(self, deals: Any) -> np.ndarray:
        """The code of each deal number (the index of its per-deal sums)."""
        values = np.asarray(deals, dtype=np.int64)
        if not self._deals.is_direct(values):
            self._deals.limit(self.deal_games.length)
        return self._deals.of(values)

    @property
    def deal_values(self) -> np.ndarray:
        """The deal number of each deal code."""
        return self._deals.values(self.deal_games.length)

    def _grow(self, k: int) -> None:
        for name in ("rows", "wins", "forfeits", "stalled_rows"):
            old = getattr(self, name)
            if len(old) < k:
                setattr(self, name, np.concatenate([old, np.zeros(k - len(old))]))

    def add(self, c: pd.DataFrame) -> None:
        """One chunk of whole games."""
        if c.empty:
            return
        c = _complete(c)
        deal = self.deal_codes(c["deal"])
        ent = self.entrants.of(c["entrant"])
        k = len(self.entrants)
        self._grow(k)
        for code, strategy in zip(*np.unique(ent, return_index=True)):
            self.strategy.setdefault(int(code), str(c["strategy"].iloc[strategy]))
        win = c["win"].to_numpy(dtype=float)
        scored = c["score"].notna().to_numpy()
        stalled = (c["termination"] == "stalled").to_numpy()
        self.rows += np.bincount(ent, minlength=k)
        self.wins += np.bincount(ent, weights=win, minlength=k)
        self.forfeits += np.bincount(ent, weights=c["forfeit"].fillna(False).to_numpy(dtype=float), minlength=k)
        self.stalled_rows += np.bincount(ent[scored & stalled], minlength=k)
        for column in c.columns:
            if column not in self.columns:
                self.columns.append(column)
        values = [col for col in c.columns if col not in _NOT_VALUES and is_number(c[col])]
        for col in values + [col for col in c.columns if col not in READ_COLUMNS and col not in values]:
            self.recorded[col] = self.recorded.get(col, 0) + int(c[col].notna().sum())
        s = c[scored]
        s_ent = ent[scored]
        self.scored.add(s, s_ent, values)
        for col in values:
            if col in READ_COLUMNS:
                continue
            above = np.bincount(s_ent, weights=(s[col].astype(float).to_numpy() > 0), minlength=k)
            old = self.positive.get(col, np.zeros(0))
            self.positive[col] = np.concatenate([old, np.zeros(k - len(old))]) + above
        if self.parts and "score" in s:
            total, score = np.zeros(len(s)), s["score"].astype(float).to_numpy()
            for n, part in enumerate(self.parts):
                if part in s:
                    total = total + s[part].astype(float).fillna(0.0).to_numpy()
                self._summands[n] &= bool(np.allclose(total, score))
        for part in ("score", *self.parts):
            if part in s:
                part_values = s[part].astype(float).to_numpy()
                for code in np.unique(s_ent):
                    self.distributions.setdefault((int(code), part), Distribution()).add(part_values[s_ent == code])
        self._lists(c, s, s_ent, k)
        players = c["num_players"].to_numpy()
        seat = c["seat"].to_numpy()
        for (n, st), g in pd.Series(win).groupby([players, seat]):
            acc = self.seats.setdefault((int(n), int(st)), [0.0, 0.0])
            acc[0] += len(g)
            acc[1] += float(g.sum())
        for (n, e), g in pd.Series(win).groupby([players, ent]):
            acc = self.player_rows.setdefault((int(n), int(e)), [0.0, 0.0])
            acc[0] += len(g)
            acc[1] += float(g.sum())
        self.counts.add(s, [players[scored], s_ent], ["score"])
        self._games(c, scored)
        self._think(c, ent, k)
        self._pairs(c, ent, deal)
        for code in np.unique(ent):
            mine = ent == code
            self.deal_wins.add(int(code), deal[mine], win[mine])
            self.deal_games.add(int(code), deal[mine], np.ones(int(mine.sum())))

    def _lists(self, c: pd.DataFrame, s: pd.DataFrame, s_ent: np.ndarray, k: int) -> None:
        for col in c.columns:
            if c[col].dtype != object or col in READ_COLUMNS:
                continue
            held = s[col].notna().to_numpy()
            cells = s[col][held]
            if not len(cells) or not hasattr(cells.iloc[0], "__len__") or isinstance(cells.iloc[0], str):
                continue
            lengths = np.fromiter((len(v) for v in cells), dtype=np.int64, count=len(cells))
            flat = np.concatenate([np.asarray(v, dtype=np.int64) for v in cells]) if lengths.sum() else np.zeros(0, np.int64)
            if not len(flat):
                continue
            owner = np.repeat(s_ent[held], lengths)
            won = np.repeat((s["rank"].to_numpy() == 1)[held], lengths)
            size = int(flat.max()) + 1
            per = self.list_columns.setdefault(col, {})
            for code in np.unique(owner):
                counts = np.bincount(flat[owner == code], minlength=size)
                old = per.get(int(code), np.zeros(0))
                per[int(code)] = _add_arrays(old, counts)
            self.list_winners[col] = _add_arrays(self.list_winners.get(col, np.zeros(0)), np.bincount(flat[won], minlength=size))

    def _games(self, c: pd.DataFrame, scored: np.ndarray) -> None:
        first = ~c["game_id"].duplicated().to_numpy()
        self.games += int(first.sum())
        self.stalled_games += int((c["termination"].to_numpy()[first] == "stalled").sum())
        self.game_names.update(str(v) for v in pd.unique(c["game"].dropna())) if "game" in c else None
        self.variants.update(str(v) for v in pd.unique(c["variant"].dropna())) if "variant" in c else None
        self.players.update(int(v) for v in pd.unique(c["num_players"]))
        played = c[scored].drop_duplicates("game_id")
        self.games_played += len(played)
        for n, g in played.groupby("num_players"):
            self.lengths.setdefault(int(n), Distribution()).add(g["turns"].astype(float).to_numpy())
            stalled = g[g["termination"] == "stalled"]
            if len(stalled):
                self.stalled_lengths.setdefault(int(n), Distribution()).add(stalled["turns"].astype(float).to_numpy())

    def _think(self, c: pd.DataFrame, ent: np.ndarray, k: int) -> None:
        decisions = c["decisions"].to_numpy(dtype=float)
        seconds = c["think_seconds"].to_numpy(dtype=float)
        cpu = c["think_cpu_seconds"].to_numpy(dtype=float) if "think_cpu_seconds" in c else None
        self.cpu_recorded |= cpu is not None
        played = decisions > 0
        ratio = seconds[played] / decisions[played]
        for code in np.unique(ent):
            mine = ent == code
            acc = self.think.setdefault(int(code), [0.0, 0.0, 0.0])
            acc[0] += decisions[mine].sum()
            acc[1] += seconds[mine].sum()
            acc[2] += cpu[mine].sum() if cpu is not None else 0.0
            self.per_decision.setdefault(int(code), Distribution()).add(ratio[ent[played] == code])

    def _pairs(self, c: pd.DataFrame, ent: np.ndarray, deal: np.ndarray) -> None:
        """Every two seats of different entrants at a game: "a ahead of b" (1, a tie 0.5, 0)."""
        ids = c["game_id"].to_numpy()
        starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])
        sizes = np.diff(np.r_[starts, len(ids)])
        rank = c["rank"].to_numpy()
        for p in np.unique(sizes):
            at = starts[sizes == p][:, None] + np.arange(p)
            e, r, d = ent[at], rank[at], deal[at[:, 0]]
            for s in range(p):
                for t in range(s + 1, p):
                    differ = e[:, s] != e[:, t]
                    a, b, dd = e[differ, s], e[differ, t], d[differ]
                    ra, rb = r[differ, s], r[differ, t]
                    score = np.where(ra < rb, 1.0, np.where(ra == rb, 0.5, 0.0))
                    for (x, y) in set(zip(a.tolist(), b.tolist())):
                        mine = (a == x) & (b == y)
                        self.pairs.add((x, y), dd[mine], score[mine])
                        self.pairs.add((y, x), dd[mine], 1.0 - score[mine])
                        self.pair_counts.add((x, y), dd[mine], np.ones(int(mine.sum())))
                        self.pair_counts.add((y, x), dd[mine], np.ones(int(mine.sum())))

    # -- what the tables ask ------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [str(n) for n in self.entrants.names]

    def code(self, name: str) -> int:
        return self.names.index(name)

    def win_rates(self) -> dict[str, float]:
        return {n: self.wins[i] / self.rows[i] for i, n in enumerate(self.names) if self.rows[i]}

    def order(self) -> list[str]:
        """Entrants by win rate, best first (ties by name): ``tables.entrant_order``."""
        rates = self.win_rates()
        return sorted(rates, key=lambda e: (-rates[e], e))

    def summands(self, parts: Sequence[str]) -> list[bool]:
        """For each leading run of ``parts`` (the digest's own), whether it adds up to the score
        in every game played out."""
        if tuple(parts) != self.parts:
            raise ValueError(f"this digest checked the parts {self.parts}, not {tuple(parts)}")
        return list(self._summands)

    def is_recorded(self, column: str) -> bool:
        return self.recorded.get(column, 0) > 0

    def scored_means(self) -> pd.DataFrame:
        """Per entrant (index, by name), the mean of every numeric column over the games played out."""
        means = self.scored.means()
        if means.empty:
            return means
        return means.rename(index=lambda code: self.names[int(code)])

    def frame(self) -> pd.DataFrame:
        """Every row as one frame (what a hook written for frames needs): the source itself,
        or the folder read whole."""
        if isinstance(self.source, pd.DataFrame):
            return self.source
        from ttr_lab.core.results import read_results

        return read_results(self.source)

    def positive_share(self, column: str) -> pd.Series:
        """Per entrant, the share of its games played out with ``column`` above zero."""
        counts = self.scored.n["score"] if "score" in self.scored.n else pd.Series(dtype=float)
        share = {self.names[i]: self.positive[column][i] / counts.get(i, 0)
                 for i in range(len(self.positive.get(column, []))) if counts.get(i, 0)}
        return pd.Series(share, dtype=float)

    def deals_used(self) -> np.ndarray:
        """The deal codes any game was played on."""
        length = self.deal_games.length
        total = np.zeros(length, dtype=np.int64)
        for code in range(len(self.entrants)):
            total += self.deal_games.get(code, length)
        return np.flatnonzero(total)

    def pair_tables(self) -> tuple[np.ndarray, dict[Any, tuple[np.ndarray, np.ndarray]]]:
        """The deals (codes) that hold a pair, and per ordered pair of entrant codes the per-deal
        sums of "a ahead of b" and counts over those deals."""
        length = self.pair_counts.length
        used = np.zeros(length, dtype=bool)
        for key in self.pair_counts.arrays:
            used |= self.pair_counts.get(key, length) > 0
        deals = np.flatnonzero(used)
        every = len(deals) == length
        return deals, {key: (_cut(self.pairs.arrays[key], length, None if every else deals),
                             _cut(self.pair_counts.arrays[key], length, None if every else deals))
                       for key in self.pair_counts.arrays}


_DEFAULTS = {"strategy": "", "score": np.nan, "win": 0.0, "turns": np.nan, "termination": "normal", "forfeit": False,
             "decisions": 0, "think_seconds": 0.0, "deal": 0}


def _complete(c: pd.DataFrame) -> pd.DataFrame:
    """A chunk with the columns the digest reads, where a hand-made frame lacks some (a frame of
    ranks alone): seats and player counts from each game's rows, the rest blank."""
    missing = [name for name in (*_DEFAULTS, "seat", "num_players") if name not in c]
    if not missing:
        return c
    c = c.copy()
    for name in missing:
        if name in _DEFAULTS:
            c[name] = _DEFAULTS[name]
    if "seat" in missing:
        c["seat"] = c.groupby("game_id", sort=False).cumcount()
    if "num_players" in missing:
        c["num_players"] = c.groupby("game_id", sort=False)["game_id"].transform("size")
    return c


def _cut(array: np.ndarray, length: int, deals: np.ndarray | None) -> np.ndarray:
    """A tally's array over deal codes 0..length-1 (a view when every deal is used), or over ``deals``."""
    if len(array) < length:
        array = np.concatenate([array, np.zeros(length - len(array), dtype=array.dtype)])
    return array[:length] if deals is None else array[deals]


def is_number(column: pd.Series) -> bool:
    """A number or a flag (a flag column with gaps is of objects: its first value tells)."""
    if pd.api.types.is_numeric_dtype(column.dtype) or pd.api.types.is_bool_dtype(column.dtype):
        return True
    if column.dtype != object:
        return False
    at = column.first_valid_index()
    return at is not None and isinstance(column[at], (bool, int, float, np.bool_, np.number))


def _add_arrays(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros(max(len(a), len(b)))
    out[: len(a)] += a
    out[: len(b)] += b
    return out


def digest_of(source: Any, parts: Sequence[str] = ()) -> ResultsDigest:
    """``source`` itself when it is a digest, else the digest of the frame or folder."""
    if isinstance(source, ResultsDigest):
        return source
    return ResultsDigest.of(source if isinstance(source, (pd.DataFrame, Path, str)) else source, parts)
