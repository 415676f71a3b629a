"""A readable summary of a finished game for the terminal."""

from __future__ import annotations

from rich.console import Console

from ttr_lab.console import make_console
from rich.table import Table

from ttr_lab.games.ticket_to_ride.board import Board
from ttr_lab.core.record import GameRecord


def print_summary(board: Board, record: GameRecord, console: Console | None = None) -> None:
    console = console or make_console()
    result = record.result
    ending = "stalled (a full round of passes)" if result["stalled"] else "final round played"
    console.print(
        f"[bold]{board.title}[/bold], {record.num_players} players, seed {record.seed}: "
        f"{result['turns']} turns, {len(record.actions)} actions, {ending}"
    )
    table = Table(show_header=True, header_style="bold")
    for col in ("rank", "seat", "strategy", "routes", "tickets", "longest", "bonus", "total", "trains left"):
        table.add_column(col, justify="left" if col == "strategy" else "right")
    for p in sorted(result["players"], key=lambda p: (p["rank"], p["player"])):
        table.add_row(
            str(p["rank"]), str(p["player"]), record.strategies[p["player"]], str(p["route_points"]),
            f"{p['ticket_points']:+d} ({p['tickets_completed']}/{len(p['tickets'])})",
            str(p["longest_trail"]), str(p["longest_bonus"]), f"[bold]{p['total']}[/bold]", str(p["trains_left"]),
        )
    console.print(table)
    for p in result["players"]:
        tickets = ", ".join(f"{'+' if t['completed'] else '-'}{t['name']}" for t in p["tickets"]) or "none"
        console.print(f"seat {p['player']} tickets: {tickets}")
