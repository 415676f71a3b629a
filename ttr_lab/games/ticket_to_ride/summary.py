"""What ``ttr-lab play`` shows of a finished game: one row per player that adds up to the score,
then each player's tickets. Plain strings: the command line lays them out."""

from __future__ import annotations

from ttr_lab.core.record import GameRecord

# Header of each end bonus (a result field), in the order they are added.
_BONUSES = {"longest_bonus": "longest", "explorer_bonus": "explorer", "globetrotter_bonus": "globetrotter",
            "grand_tour_bonus": "grand tour"}


def result_summary(record: GameRecord, score_parts: tuple[str, ...]) -> tuple[list[str], list[list[str]], list[str]]:
    """``(headers, rows, lines)``: rows sorted by rank; the bonus columns are those the game's
    ruleset awards (its ``score_parts``), so every row adds up (routes + tickets + bonuses = total)."""
    result = record.result
    bonuses = [(head, field) for field, head in _BONUSES.items() if field in score_parts]
    stations = bool(result["players"]) and "station_points" in result["players"][0]  # a game with train stations
    if stations:
        bonuses.append(("stations kept", "station_points"))
    # How many stations each built, after the columns that add up to the total.
    headers = ["rank", "seat", "strategy", "routes", "tickets", *(h for h, _ in bonuses), "total", "trains left",
               *(["stations built"] if stations else [])]
    rows = []
    for p in sorted(result["players"], key=lambda p: (p["rank"], p["player"])):
        rows.append([
            str(p["rank"]), str(p["player"]), record.strategies[p["player"]], str(p["route_points"]),
            f"{p['ticket_points']:+d} ({p['tickets_completed']}/{len(p['tickets'])})",
            *(str(p[field]) for _, field in bonuses), str(p["total"]), str(p["trains_left"]),
            *([str(p.get("stations_built") or 0)] if stations else []),
        ])
    lines = []
    for p in result["players"]:
        tickets = ", ".join(f"{'+' if t['completed'] else '-'}{t['name']}" for t in p["tickets"]) or "none"
        lines.append(f"seat {p['player']} tickets: {tickets}")
    if stations:
        board = record.load_game().board  # type: ignore[attr-defined]
        for p in result["players"]:
            if p.get("station_tracks"):  # the track of another seat each station lent to its tickets
                lines.append(f"seat {p['player']} stations: " + ", ".join(
                    f"{board.cities[c]} " + (f"borrows {board.tracks[t].label}" if t >= 0 else "borrows none")
                    for c, t in p["station_tracks"]))
    if "longest_bonus" in score_parts:
        lines.append("longest trail: " + ", ".join(f"seat {p['player']} {p['longest_trail']}" for p in result["players"]))
    return headers, rows, lines


def ending(record: GameRecord) -> str:
    return "stalled (a full round of passes)" if record.result.get("stalled") else "final round played"
