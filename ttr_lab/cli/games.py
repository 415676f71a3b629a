"""Commands about single games and strategies: ``play``, ``replay``, ``strategies``."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ttr_lab.cli.console import fail
from ttr_lab.core.errors import TTRLabError


def play(
    players: int = typer.Option(4, "--players", "-p", help="Number of players (2-5)."),
    strategy: List[str] = typer.Option(["random"], "--strategy", "-s", help="Strategy per seat (repeat, or one for all seats)."),
    seed: int = typer.Option(0, "--seed", help="Game seed."),
    map_name: str = typer.Option("usa", "--map", help="Map name or map folder."),
    record: Optional[Path] = typer.Option(None, "--record", help="Save the game record (JSON) here."),
) -> None:
    """Play one game and print a summary: scores, tickets, longest trail."""
    from ttr_lab.core.registry import build_strategies
    from ttr_lab.cli.summary import print_game_summary
    from ttr_lab.games.ticket_to_ride.board import load_board
    from ttr_lab.core.play import play_game
    from ttr_lab.games.ticket_to_ride.definition import TicketToRide

    try:
        board = load_board(map_name)
        seats = build_strategies(strategy, players)
        rec = play_game(TicketToRide(board), seats, seed)
    except TTRLabError as exc:
        fail(exc)
    print_game_summary(board, rec)
    if record is not None:
        rec.save(record)
        typer.echo(f"record saved to {record}")


def replay(
    record: Path = typer.Argument(..., help="A game record (JSON), e.g. from ttr-lab play --record."),
    turn: Optional[int] = typer.Option(None, "--turn", help="Show the state after this many turns (default: the end)."),
    action: Optional[int] = typer.Option(None, "--action", help="Or after this many actions."),
    picture: Optional[Path] = typer.Option(None, "--picture", help="Save the board (PNG or SVG) here."),
) -> None:
    """Replay a recorded game to a turn: scores, hands, the last actions, and a board picture."""
    from ttr_lab.core.record import GameRecord
    from ttr_lab.games.ticket_to_ride.replay import describe_state, state_at

    try:
        rec = GameRecord.load(record)
        state, index = state_at(rec, turn=turn, action=action)
    except (OSError, ValueError) as exc:
        fail(ValueError(f"cannot replay {record}: {exc}"))
    except TTRLabError as exc:
        fail(exc)
    typer.echo(describe_state(state, rec, index))
    if picture is not None:
        from ttr_lab.games.ticket_to_ride.drawing import draw_state

        draw_state(state).savefig(picture, dpi=120)
        typer.echo(f"board picture saved to {picture}")


def strategies() -> None:
    """List the registered strategies and their tunable parameters."""
    import sys

    from ttr_lab.core.registry import REGISTRY, describe_parameters, resolve
    from ttr_lab.tuning.space import documented_ranges

    for name in REGISTRY:
        cls = resolve(name)
        doc = cls.__doc__ or sys.modules[cls.__module__].__doc__ or ""
        summary = doc.strip().splitlines()[0] if doc.strip() else ""
        typer.echo(f"{name:20s} {summary}")
        typer.echo(f"{'':20s} parameters: {describe_parameters(cls)}")
        ranges = documented_ranges(cls)
        if ranges:
            typer.echo(f"{'':20s} worth tuning: {'; '.join(r.describe() for r in ranges.values())}")
