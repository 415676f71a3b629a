"""A replayed state in words (``ttr-lab replay``; the replay itself is ``GameRecord.state_at``)."""

from __future__ import annotations

from ttr_lab.games.ticket_to_ride.colours import CARD_NAMES
from ttr_lab.core.record import GameRecord
from ttr_lab.games.ticket_to_ride.state import GameState


def describe_state(state: GameState, record: GameRecord, index: int) -> str:
    """A few readable lines: where the game is, each player's position, the last actions."""
    lines = [f"{state.board.title}, seed {record.seed}: after {index} actions, turn {state.turns}, "
             f"{'game over' if state.is_terminal() else f'player {state.current_player} to play ({state.phase_name.name.lower()})'}"
             + (", final round" if state.final_round and not state.is_terminal() else "")]
    for p in range(state.num_players):
        hand = state.hands[p * 9:(p + 1) * 9]
        cards = ", ".join(f"{n} {CARD_NAMES[c]}" for c, n in enumerate(hand) if n) or "no cards"
        tickets = ", ".join(state.board.tickets[t].label for t in state.tickets[p]) or "none"
        stations = ""
        if state.ruleset.stations_per_player:
            built = ", ".join(state.board.cities[c] for c, o in enumerate(state.stations) if o == p) or "none"
            stations = f"; stations {built}"
        lines.append(f"  seat {p} ({record.strategies[p]}): {state.points[p]} route points, {state.trains[p]} trains; "
                     f"{cards}; tickets {tickets}{stations}")
    lines.append("  market: " + ", ".join(CARD_NAMES[c] for c in state.market))
    if state.tunnel_pending is not None:
        lines.append(f"  tunnel: {state.tunnel_pending}, turned over "
                     + ", ".join(CARD_NAMES[c] for c in state.revealed) + f": {state.tunnel_extra} extra card(s) asked")
    lines.extend(record.closing_lines(state, index))
    return "\n".join(lines)
