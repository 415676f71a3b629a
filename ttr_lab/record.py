"""``GameRecord``: everything needed to replay, report on or check a game, as plain JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ttr_lab.games.ticket_to_ride.board import Board, load_board
from ttr_lab.core.errors import IllegalActionError
from ttr_lab.games.ticket_to_ride.actions import parse_action
from ttr_lab.games.ticket_to_ride.state import GameState, new_game
from ttr_lab.games.ticket_to_ride.ruleset import Ruleset

FORMAT = 1


@dataclass(frozen=True)
class GameRecord:
    map: str
    num_players: int
    seed: int
    strategies: tuple[str, ...]  # by seat
    actions: tuple[tuple[int, str], ...]  # (seat, action text) in order
    result: dict[str, Any]
    ruleset: dict[str, Any] | None = None  # only when it differs from the map's own
    format: int = field(default=FORMAT)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": self.format,
            "map": self.map,
            "num_players": self.num_players,
            "seed": self.seed,
            "strategies": list(self.strategies),
        }
        if self.ruleset is not None:
            out["ruleset"] = self.ruleset
        out["actions"] = [[p, a] for p, a in self.actions]
        out["result"] = self.result
        return out

    def to_json(self, pretty: bool = False) -> str:
        """Deterministic JSON: the same game gives the same text, byte for byte. ``pretty``
        puts each top-level field and each action on its own line, for diffs and reading."""
        data = self.to_dict()
        if not pretty:
            return json.dumps(data, ensure_ascii=True)
        lines = []
        for key, value in data.items():
            if key == "actions":
                body = ",\n".join("  " + json.dumps(a, ensure_ascii=True) for a in value)
                lines.append(f' "actions": [\n{body}\n ]')
            else:
                lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=True)}")
        return "{\n" + ",\n".join(lines) + "\n}"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(pretty=True) + "\n", encoding="utf-8")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameRecord":
        return cls(
            map=data["map"], num_players=int(data["num_players"]), seed=int(data["seed"]),
            strategies=tuple(data["strategies"]),
            actions=tuple((int(p), str(a)) for p, a in data["actions"]),
            result=data["result"], ruleset=data.get("ruleset"), format=int(data.get("format", FORMAT)),
        )

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        return cls.from_dict(json.loads(text))

    @classmethod
    def load(cls, path: str | Path) -> "GameRecord":
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    def board(self) -> Board:
        return load_board(self.map)

    def states(self) -> Iterator[GameState]:
        """Replay: the state before each action, then the final state."""
        board = self.board()
        rules = Ruleset.from_mapping(self.ruleset, base=board.ruleset) if self.ruleset else None
        state = new_game(board, self.num_players, self.seed, rules)
        for i, (seat, text) in enumerate(self.actions):
            yield state
            if state.current_player != seat:
                raise IllegalActionError(f"record action {i} ({text!r}) is for seat {seat}, but seat {state.current_player} is to move")
            state = state.clone()
            state.apply(parse_action(text, board))
        yield state

    def _repr_html_(self) -> str:
        """A record shows its result and its final board in Jupyter."""
        import base64
        import html

        from ttr_lab.analysis.board_plot import draw_state, png_bytes

        rows = "".join(
            f"<tr><td>{p['rank']}</td><td>{p['player']}</td><td>{html.escape(self.strategies[p['player']])}</td>"
            f"<td>{p['route_points']}</td><td>{p['ticket_points']:+d} ({p['tickets_completed']}/{len(p['tickets'])})</td>"
            f"<td>{p['longest_trail']}</td><td>{p['longest_bonus']}</td><td><b>{p['total']}</b></td></tr>"
            for p in sorted(self.result["players"], key=lambda p: (p["rank"], p["player"]))
        )
        image = base64.b64encode(png_bytes(draw_state(self.replay()), dpi=80)).decode()
        return (
            f"<p>{html.escape(self.map)}, {self.num_players} players, seed {self.seed}: {self.result['turns']} turns"
            f"{' (stalled)' if self.result['stalled'] else ''}</p><table><tr><th>rank</th><th>seat</th><th>strategy</th>"
            f"<th>routes</th><th>tickets</th><th>longest</th><th>bonus</th><th>total</th></tr>{rows}</table>"
            f'<img src="data:image/png;base64,{image}">'
        )

    def replay(self) -> GameState:
        """The final state, rebuilt by replaying every action."""
        state = None
        for state in self.states():
            pass
        assert state is not None
        return state
