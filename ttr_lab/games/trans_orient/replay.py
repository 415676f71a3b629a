"""Trans-Orient Express told in words: a replayed position (``ttr-lab replay``) and a finished
game (``ttr-lab play``). Plain strings; the command line lays them out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttr_lab.games.trans_orient.cards import count_text
from ttr_lab.games.trans_orient.rules import Phase

if TYPE_CHECKING:
    from ttr_lab.games.trans_orient.state import GameState

_TAKE, _OVER = int(Phase.TAKE), int(Phase.OVER)


def turn_number(state: "GameState") -> int | None:
    """Turns completed, at a turn boundary (a player about to take, or the game over)."""
    return state.turns if state.phase in (_TAKE, _OVER) else None


def describe_state(state: "GameState", record: Any, index: int) -> str:
    """Where a replayed game is: the round, the station's two rows and piles, each player's
    hand, reserve and tableau (luggage only as a count until the end), the last actions."""
    deck = state.tables.deck
    colours = deck.colours
    C = state.tables.colours
    if state.is_terminal():
        where = "game over" + (" (stalled)" if state.stalled else "")
    else:
        where = f"seat {state.player} to play ({Phase(state.phase).name.lower().replace('_', ' ')})"
    lines = [f"{deck.title}, seed {record.seed}: after {index} actions, round {state.round}, turn {state.turns}, "
             f"{where}" + (", final round" if state.final and not state.is_terminal() else "")]
    lines.append("  objectives: " + "; ".join(deck.objective(n).describe(colours) for n in state.objectives))
    cells = []
    for col, (low, up) in enumerate(zip(state.lower, state.upper)):
        pile = count_text(tuple(state.piles[col * C:(col + 1) * C]), colours)
        master = " [station master]" if state.mcol == col else ""
        cells.append(f"{col}: {low or '-'} over {pile}{master} (next {up or '-'})")
    lines.append("  station: " + "; ".join(cells))
    for p in range(state.num_players):
        reserve = count_text(tuple(state.reserves[p * C:(p + 1) * C]), colours)
        hand = ", ".join(map(str, state.hands[p])) or "none"
        played = ", ".join(map(str, state.played[p])) or "none"
        luggage = (", ".join(map(str, state.luggage[p])) or "none") if state.is_terminal() else f"{len(state.luggage[p])} hidden"
        holder = " (station master)" if state.master == p else ""
        lines.append(f"  seat {p} ({record.strategies[p]}){holder}: played {played}; hand {hand}; reserve {reserve}; "
                     f"luggage {luggage}")
    lines.extend(record.closing_lines(state, index))
    return "\n".join(lines)


# The score's parts, in the order they add up (result.py's PlayerResult fields).
_PARTS = (("travel", "vp_travel"), ("colour", "vp_colour_bonus"), ("luggage", "vp_luggage"),
          ("visa", "vp_visa"), ("season", "vp_season"), ("route", "vp_route"))


def result_summary(record: Any) -> tuple[str, list[str], list[list[str]], list[str]]:
    """``(ending, headers, rows, lines)``: one row per player that adds up to the score, sorted by
    rank, then each player's cards and luggage."""
    result = record.result
    ending = (f"stalled after {result['rounds']} rounds" if result["termination"] == "stalled"
              else f"7th card placed; {result['rounds']} rounds")
    headers = ["rank", "seat", "strategy", *(h for h, _ in _PARTS), "total", "passports", "run", "cards"]
    rows = []
    for p in sorted(result["players"], key=lambda p: (p["rank"], p["player"])):
        rows.append([str(p["rank"]), str(p["player"]), record.strategies[p["player"]],
                     *(str(p[field]) for _, field in _PARTS), str(p["score"]), str(p["passports"]),
                     str(p["longest_run"]), str(p["cards_played"])])
    lines = [f"seat {p['player']}: cards {', '.join(map(str, p['cards'])) or 'none'}; "
             f"luggage {', '.join(map(str, p['luggage'])) or 'none'}; tokens wasted {p['tokens_wasted']}"
             for p in result["players"]]
    return ending, headers, rows, lines
