"""What games a run holds, and the one check every analysis that combines runs makes first.

Two runs describe the same games only when they are of one game, one variant of it (the map or
deck and every rule changed from it), one player count, and one set of deals (each game id with
the same deal seed). ``compare``, a study's cells and a balance search all come through
``check_comparable``: it refuses, in one line naming the difference, what the caller has not
explicitly allowed (a paired comparison across rule variants of one game is what a study is;
two samples may differ in variant and deals, never in game or player count).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ttr_lab.core.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class RunIdentity:
    """What games one run holds: the game's name, its variant (as ``Game.variant`` names it),
    its options as canonical JSON (None when only the rows are known), and its player counts."""

    label: str
    games: tuple[str, ...]
    variants: tuple[str, ...]
    options: str | None
    players: tuple[int, ...]


def identity(frame: Any, label: str, folder: str | Path | None = None) -> RunIdentity:
    """The identity of a results frame (or of what a folder's rows name: a digest, or the
    ``partitions.RowsSeen`` of a split); with its folder, the game and options its
    ``meta.json`` (or config) names, which also tell rule variants apart that a variant's name
    does not."""
    if hasattr(frame, "game_names"):
        return _identity_seen(frame, label, folder)
    games = _values(frame, "game")
    variants = _values(frame, "variant")
    options = None
    if folder is not None:
        from ttr_lab.analysis.game import game_of

        game = game_of(folder, frame)
        games, variants = (game.name,), (game.variant,)
        options = json.dumps(game.options, sort_keys=True, default=str)
    players = tuple(sorted({int(n) for n in frame["num_players"]})) if "num_players" in frame else ()
    return RunIdentity(label, games, variants, options, players)


def _identity_seen(seen: Any, label: str, folder: str | Path | None) -> RunIdentity:
    games, variants, options = tuple(sorted(seen.game_names)), tuple(sorted(seen.variants)), None
    if folder is not None:
        from ttr_lab.analysis.game import game_of

        game = game_of(folder, seen)
        games, variants = (game.name,), (game.variant,)
        options = json.dumps(game.options, sort_keys=True, default=str)
    return RunIdentity(label, games, variants, options, tuple(sorted(seen.players)))


def _values(frame: "pd.DataFrame", column: str) -> tuple[str, ...]:
    return tuple(sorted({str(v) for v in frame[column].dropna()})) if column in frame else ()


def _named(values: tuple[Any, ...]) -> str:
    return " and ".join(str(v) for v in values) or "?"


def check_comparable(a: RunIdentity, b: RunIdentity, *, across_variants: bool = False) -> None:
    """``ConfigError`` naming the first difference between two runs that makes them describe
    other games: the game, the player count, or (unless ``across_variants``) the variant."""
    if a.games and b.games and a.games != b.games:
        raise ConfigError(f"{a.label} is {_named(a.games)} and {b.label} is {_named(b.games)}: runs of different games "
                          "cannot be compared")
    if a.players and b.players and a.players != b.players:
        raise ConfigError(f"{a.label} has {_named(a.players)} players and {b.label} {_named(b.players)}: runs at "
                          "different player counts cannot be compared")
    if across_variants:
        return
    if a.variants and b.variants and a.variants != b.variants:
        raise ConfigError(f"{a.label} is {a.games[0] if a.games else 'the game'} {_named(a.variants)} and {b.label} "
                          f"{_named(b.variants)}: different variants; --unpaired compares them as two samples "
                          "(--paired if both played the same deals, as a rule change does)")
    if a.options is not None and b.options is not None and a.options != b.options:
        raise ConfigError(f"{a.label} and {b.label} are {_named(a.variants)} with different options ({a.options} against "
                          f"{b.options}); --unpaired compares them as two samples (--paired if both played the same deals)")


def deal_difference(frame_a: "pd.DataFrame", frame_b: "pd.DataFrame", a: str = "A", b: str = "B") -> str:
    """"" when the runs played the same deals (some game ids in common, each with the same deal
    seed), else what differs, in words."""
    common, other = deal_check(frame_a, frame_b, a, b)
    return other if common else f"{a} and {b} have no game id in common (different schedules)"


def deal_check(frame_a: "pd.DataFrame", frame_b: "pd.DataFrame", a: str = "A", b: str = "B") -> tuple[int, str]:
    """How many game ids the runs (or one range of deals of each) have in common, and the first
    of them with another deal seed in each, in words ("" if none)."""
    seeds_a = frame_a.drop_duplicates("game_id").set_index("game_id")["deal_seed"].astype(str)
    seeds_b = frame_b.drop_duplicates("game_id").set_index("game_id")["deal_seed"].astype(str)
    common = seeds_a.index.intersection(seeds_b.index)
    other = common[(seeds_a[common] != seeds_b[common]).to_numpy()]
    if len(other):
        return len(common), (f"game {other[0]} has deal seed {seeds_a[other[0]]} in {a} and {seeds_b[other[0]]} in "
                             f"{b} (different seeds)")
    return len(common), ""


def entrants_apart(frame_a: "pd.DataFrame", frame_b: "pd.DataFrame") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The entrants only in A and only in B (they are in no comparison)."""
    ea, eb = set(frame_a["entrant"].astype(str)), set(frame_b["entrant"].astype(str))
    return tuple(sorted(ea - eb)), tuple(sorted(eb - ea))
