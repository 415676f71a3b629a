"""What a review finds, as values: ``ReviewedDecision`` (one decision: the move played, the best
move, the value of each, the points lost and the standard error, the seat's expected final lead
after it) and ``ReviewedGame`` (a game's reviewed decisions, with what a viewer needs to draw its
graph), each with its JSON form; the table's rows (``review.csv``) and the readable summary."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Iterable, Sequence

from ttr_lab.core.errors import ConfigError

# A move within this many standard errors of the best (their paired difference) lost nothing:
# the search's own bar for replacing its planner's move.
NOISE = 2.0
FORMAT = 1  # of review.json
DEFAULT_BUDGET = 400  # play-outs per decision: half to choose the best move, half to measure
# review.csv's columns, in order.
COLUMNS = ("game", "seat", "entrant", "decision", "kind", "move_played", "best_move", "value_played", "value_best",
           "points_lost", "standard_error", "expected_lead")


def points_lost(difference: float, error: float) -> float:
    """What a move lost: the best move's paired lead over it, or 0 within ``NOISE`` standard errors."""
    return difference if difference > 0.0 and difference > NOISE * error else 0.0


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of a game: ``decision`` is its index among the record's actions (the position
    before it is the replay's state after that many actions)."""

    decision: int
    seat: int
    entrant: str
    kind: str  # claim, draw, tickets (the move played's kind)
    played: str  # the move played, in the action language
    best: str  # the best move found (the move played when none measured better)
    value_played: float  # the seat's mean final lead after the move played
    value_best: float  # ... after the best move (the same samples)
    difference: float  # value_best - value_played, sample by sample
    error: float  # the standard error of ``difference``
    samples: int  # the samples both moves were measured on
    playouts: int  # play-outs spent on this decision

    @property
    def points_lost(self) -> float:
        return points_lost(self.difference, self.error)

    @property
    def within_noise(self) -> bool:
        return self.points_lost == 0.0

    @property
    def expected_lead(self) -> float:
        """The seat's expected final lead after the decision (the graph's point)."""
        return self.value_played

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["points_lost"] = self.points_lost
        data["expected_lead"] = self.expected_lead
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ReviewedDecision":
        return cls(**{f.name: data[f.name] for f in fields(cls)})


@dataclass(frozen=True)
class ReviewedGame:
    """A reviewed game: its id (a results folder's game id, or the record's file name), the game
    and options, the entrant at each seat, each seat's final margin (its score less the best
    other's), what the review was asked (seats, budget, seed) and the decisions, in order."""

    game_id: str
    game: str
    options: dict[str, Any]
    entrants: tuple[str, ...]
    margins: tuple[float, ...]
    seats: tuple[int, ...]
    budget: int
    seed: int
    decisions: tuple[ReviewedDecision, ...] = field(default=())

    def of_seat(self, seat: int) -> list[ReviewedDecision]:
        return [d for d in self.decisions if d.seat == seat]

    def lost(self, seat: int) -> float:
        """The points ``seat`` lost over the game (summed)."""
        return sum(d.points_lost for d in self.of_seat(seat))

    def costliest(self, seat: int, n: int = 3) -> list[ReviewedDecision]:
        """The ``n`` decisions where ``seat`` lost most (those that lost anything), costliest first."""
        lost = [d for d in self.of_seat(seat) if d.points_lost > 0]
        return sorted(lost, key=lambda d: (-d.points_lost, d.decision))[:n]

    def rows(self) -> list[dict[str, Any]]:
        """``review.csv``'s rows of this game."""
        return [{"game": self.game_id, "seat": d.seat, "entrant": d.entrant, "decision": d.decision, "kind": d.kind,
                 "move_played": d.played, "best_move": d.best, "value_played": round(d.value_played, 3),
                 "value_best": round(d.value_best, 3), "points_lost": round(d.points_lost, 3),
                 "standard_error": round(d.error, 3), "expected_lead": round(d.expected_lead, 3)}
                for d in self.decisions]

    def to_dict(self) -> dict[str, Any]:
        """The per-game JSON a viewer draws (its graph: each decision's ``expected_lead`` by seat,
        each marked by its ``points_lost``; the best move beside the one played)."""
        return {"format": FORMAT, "game_id": self.game_id, "game": self.game, "options": self.options,
                "entrants": list(self.entrants), "margins": list(self.margins), "seats": list(self.seats),
                "budget": self.budget, "seed": self.seed, "noise": NOISE,
                "decisions": [d.to_dict() for d in self.decisions]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=True, allow_nan=False)

    @classmethod
    def from_dict(cls, data: Any) -> "ReviewedGame":
        try:
            if int(data.get("format", 0)) != FORMAT:
                raise ConfigError(f"unknown review format {data.get('format')!r} (this version reads {FORMAT})")
            return cls(str(data["game_id"]), str(data["game"]), dict(data["options"]), tuple(data["entrants"]),
                       tuple(float(m) for m in data["margins"]), tuple(int(s) for s in data["seats"]),
                       int(data["budget"]), int(data["seed"]),
                       tuple(ReviewedDecision.from_dict(d) for d in data["decisions"]))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ConfigError(f"not a game review ({type(exc).__name__}: {exc})") from None

    def summary_lines(self) -> list[str]:
        """Per seat reviewed: decisions, mean points lost, the three costliest moves with the best
        alternative."""
        lines = []
        for seat in self.seats:
            mine = self.of_seat(seat)
            if not mine:
                continue
            lost = self.lost(seat)
            lines.append(f"seat {seat} ({self.entrants[seat]}): {len(mine)} decisions, {lost:.1f} points lost "
                         f"({lost / len(mine):.2f} per decision), final margin {self.margins[seat]:+.0f}")
            costly = self.costliest(seat)
            if not costly:
                lines.append("  no move lost more than the noise of the review")
            for d in costly:
                lines.append(f"  decision {d.decision}: played {d.played}; better {d.best} "
                             f"(+{d.points_lost:.1f} ± {d.error:.1f} points)")
        return lines


def csv_text(games: Iterable[ReviewedGame]) -> str:
    """``review.csv``: one row per reviewed decision of every game."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for game in games:
        writer.writerows(game.rows())
    return out.getvalue()


def summary_text(games: Sequence[ReviewedGame]) -> str:
    """The readable summary of ``games`` (Markdown): each game's lines under its id."""
    parts = []
    for game in games:
        parts.append(f"## Game {game.game_id}\n")
        parts.append(f"{game.game} {_options(game.options)}, {len(game.entrants)} players, "
                     f"{game.budget} play-outs a decision, seed {game.seed}; points lost count only beyond "
                     f"{NOISE:g} standard errors of the paired difference.\n")
        parts += [("    " + line if line.startswith("  ") else "- " + line) for line in game.summary_lines()]
        parts.append("")
    return "\n".join(parts)


def _options(options: dict[str, Any]) -> str:
    return "(" + ", ".join(f"{k} {v}" for k, v in sorted(options.items())) + ")" if options else ""


def finite(value: float) -> float:
    """``value``, or 0 when it is not a number (a standard error of one sample)."""
    return value if math.isfinite(value) else 0.0
