"""Whole play-outs in one native call, beside the Python face and (when asked) a plain C
play-out of the same rules built on this machine: the speed limit to measure against.

Figures are taken in one run, interleaved round by round, so the ratios hold on a busy machine;
for instruction counts run the same commands under ``valgrind --tool=callgrind`` (docs/speed.md).
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from ttr_lab.bench.results import BenchResult, FigureTable, Item

# Instructions per random USA game of the C calibration (with scoring), measured with callgrind
# on the machines this project is built on: the figure shown when no C compiler or source is at hand.
C_REFERENCE_INSTRUCTIONS = {2: 475_000, 4: 755_000}


class CPlayout:
    """The C play-out in ``source`` (a folder with ``ttr.c`` and ``mkmap.py``) built once for
    ``map_folder``; ``seconds(players, games)`` times one call of it. ``None`` from ``build``
    when it cannot be built here (no compiler, no source)."""

    def __init__(self, folder: tempfile.TemporaryDirectory, binary: Path, board: Path) -> None:
        self.folder, self.binary, self.board = folder, binary, board

    @classmethod
    def build(cls, source: Path, map_folder: Path) -> "CPlayout | None":
        cc = shutil.which("cc") or shutil.which("gcc")
        if cc is None or not (source / "ttr.c").is_file():
            return None
        folder = tempfile.TemporaryDirectory()
        binary, board = Path(folder.name, "ttr"), Path(folder.name, "map.txt")
        subprocess.run([cc, "-O2", "-o", str(binary), str(source / "ttr.c")], check=True, capture_output=True)
        text = subprocess.run(["python3", str(source / "mkmap.py"), str(map_folder)], check=True, capture_output=True, text=True)
        board.write_text(text.stdout)
        return cls(folder, binary, board)

    def seconds(self, players: int, games: int) -> float:
        start = time.perf_counter()
        subprocess.run([str(self.binary), str(self.board), str(players), str(games), "1"], check=True, capture_output=True)
        return time.perf_counter() - start

    def close(self) -> None:
        self.folder.cleanup()


# A C call at least this long, so that starting its process (about a millisecond) is noise.
C_CALL_SECONDS = 0.05


def native_benchmark(game: Any, seconds: float = 3.0, seed: int = 1, calibration: str | None = None,
                     on_item: Callable[[Item], None] | None = None, map_folder: Path | None = None) -> BenchResult:
    """Random games per second at 2 and 4 players: one native call for many games
    (``game.random_games``), the Python face stepped action by action, and the C calibration."""
    result = BenchResult(on_item=on_item)
    c = CPlayout.build(Path(calibration), map_folder) if calibration and map_folder is not None else None
    counter = iter(range(seed, 1 << 62))
    try:
        rows = [_players_round(game, n, seconds, counter, c, result) for n in (2, 4)]
    finally:
        if c is not None:
            c.close()
    result.show(FigureTable.of(
        f"{game.title}: whole random games (scoring included) per second, one core",
        ("players", "native (one call)", "python face", "native / face", "C calibration", "C / native"), rows,
        right=("native (one call)", "python face", "native / face", "C calibration", "C / native"),
    ))
    return result


def _players_round(game: Any, n: int, seconds: float, counter: Any, c: CPlayout | None,
                   result: BenchResult) -> tuple[str, ...]:
    """The figures at ``n`` players: native, Python face and C (when built) timed in the same
    rounds, one after the other, so that the machine's load falls on each alike."""
    native_games = python_games = c_games = 0
    native_time = python_time = c_time = 0.0
    c_batch = 200
    game.random_games(n, [next(counter)])  # compile or load the kernels first
    deadline = time.perf_counter() + 2 * seconds
    while time.perf_counter() < deadline:  # interleaved rounds: the machine's load falls on all
        batch = [next(counter) for _ in range(50)]
        start = time.perf_counter()
        game.random_games(n, batch)
        native_time += time.perf_counter() - start
        native_games += len(batch)
        if c is not None:
            took = c.seconds(n, c_batch)
            c_time, c_games = c_time + took, c_games + c_batch
            c_batch = max(50, int(c_batch * C_CALL_SECONDS / max(took, 1e-6)))  # each call about as long
        start = time.perf_counter()
        rng = random.Random(next(counter))
        state = game.new_game(n, next(counter))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        state.outcome()
        python_time += time.perf_counter() - start
        python_games += 1
    native_rate, python_rate = native_games / native_time, python_games / python_time
    result.figures[f"native random {n}p games/s"] = native_rate
    result.figures[f"python face random {n}p games/s"] = python_rate
    c_rate = c_games / c_time if c_games else None
    if c_rate:
        result.figures[f"C calibration {n}p games/s"] = c_rate
    c_text = f"{c_rate:,.0f}" if c_rate else f"({C_REFERENCE_INSTRUCTIONS[n] / 1000:,.0f} K instructions/game, stored)"
    return (f"{n}", f"{native_rate:,.0f}", f"{python_rate:,.0f}", f"{native_rate / python_rate:,.1f}x",
            c_text, f"{c_rate / native_rate:.2f}x" if c_rate else "-")
