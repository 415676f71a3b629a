"""The weights file of every learned policy ttr-lab plays: one format, read and written here.

A weights file is an ``.npz`` (no pickle) of named float arrays and a JSON ``meta``: the format's
number, the game's name and options, and a **layout digest** (``digest``: the observation tensor's
declared blocks and every action's text, hashed), so weights trained on another map, ruleset or
tensor layout are a one-line ``ConfigError`` when checked against a game, never a policy silently
reading the wrong numbers. What else the arrays and the meta hold is the policy's own: the
``Network`` (``network.py``: a trunk and two heads) and the ``LinearPolicy`` (``policy.py``: one
weight row per action id) each name their arrays and their ``kind`` (a file without one is a network's).
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from ttr_lab.core.errors import ConfigError
from ttr_lab.core.game import Game

FORMAT = 1  # the weights file's format; a newer one is refused by name


def digest(game: Game) -> str:
    """What a policy's inputs and outputs mean in ``game``, hashed: the observation tensor's
    declared layout (its blocks' names and sizes, when the game declares one) and the text of
    every action id. Two games with the same digest read and write the same numbers."""
    layout = getattr(game, "observation_layout", None)
    parts = {"shape": list(getattr(game, "observation_shape", ())),
             "layout": layout.describe() if layout is not None else None,
             "actions": [str(a) for a in game.action_space]}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:16]


def stamp(game: Game) -> dict[str, Any]:
    """The meta every weights file made for ``game`` starts from."""
    return {"format": FORMAT, "game": game.name, "options": dict(game.options), "digest": digest(game)}


def unreadable(exc: BaseException) -> str:
    """Why ``np.load`` could not read a file of ours, in words: never numpy's advice to load
    pickled data, which no file ttr-lab writes holds."""
    if isinstance(exc, zipfile.BadZipFile) or (isinstance(exc, (ValueError, EOFError)) and "pickle" in str(exc)):
        return "not a .npz file ttr-lab wrote (truncated, or some other file)"
    if isinstance(exc, KeyError):
        return f"an array is missing ({exc})"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def save(path: str | Path, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> Path:
    """Write ``arrays`` and ``meta`` (JSON, keys sorted) to ``path``; its folder is made."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:  # a file object: numpy would add ".npz" to a path without it
        named: dict[str, Any] = {"meta": np.array(json.dumps(dict(meta), sort_keys=True)), **arrays}
        np.savez_compressed(f, **named)
    return path


# What each kind of weights file holds, in words (a file without a ``kind`` is a network's).
KINDS = {"network": "network weights", "linear": "a linear policy"}


def read(path: str | Path, names: Sequence[str], kind: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays ``names`` and the meta of the ``kind`` of weights file at ``path``, its format
    not yet checked (``checked_format``); every failure is one ``ConfigError`` line naming the
    file and what it should hold."""
    what = KINDS[kind]
    held = kind
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            # Files of before the kinds are networks; of before the format, 0.2's linear policies.
            if isinstance(meta, dict):
                held = meta.get("kind", "network" if "format" in meta else kind)
            arrays = {k: data[k] for k in names} if held == kind else {}
    except FileNotFoundError:
        raise ConfigError(f"cannot read {what} from {path}: no such file") from None
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:  # not a zip, truncated, an array missing
        raise ConfigError(f"cannot read {what} from {path}: {unreadable(exc)}") from None
    if held != kind:
        raise ConfigError(f"{path} holds {KINDS.get(held, repr(held))}, not {what}")
    if not isinstance(meta, dict):
        raise ConfigError(f"{path}: {what} of format {meta!r}, this ttr-lab reads format {FORMAT}")
    return arrays, meta


def checked_format(meta: dict[str, Any], path: str | Path, what: str) -> dict[str, Any]:
    """``meta``, or a ``ConfigError`` if its file is not of this ttr-lab's format."""
    if meta.get("format") != FORMAT:
        raise ConfigError(f"{path}: {what} of format {meta.get('format')}, this ttr-lab reads format {FORMAT}")
    return meta


def check(meta: Mapping[str, Any], game: Game, source: str) -> None:
    """Refuse ``game`` unless the weights of ``meta`` were trained on its very tensor and action ids."""
    if meta.get("game") != game.name or meta.get("digest") != digest(game):
        raise ConfigError(f"{source}: trained on {meta.get('game')} {meta.get('options')} "
                          f"(layout {meta.get('digest')}), not on {game.title} {game.options} "
                          f"(layout {digest(game)}): its inputs and action ids mean other things there")
