"""``GameRecord``: everything needed to replay, report on or check a game, as plain JSON.

    {"format": 2, "game": "ticket_to_ride", "options": {"map": "usa"}, "num_players": 4,
     "seed": 7, "strategies": [...], "actions": [[seat, "text"], ...], "result": {...}}

``result`` is the game's own account of the end (for Ticket to Ride: every player's routes,
tickets, bonuses, rank); ``outcome()`` gives the game-agnostic ``Outcome``. Records of format 1
(written before there was more than one game) name no game: they are Ticket to Ride records
with ``map`` and ``ruleset`` at the top level, and load as such.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ttr_lab.core.errors import ConfigError, IllegalActionError
from ttr_lab.core.game import Game, State, catalogue_entry, load_game
from ttr_lab.core.outcome import Outcome

FORMAT = 2


@dataclass(frozen=True)
class GameRecord:
    game: str
    options: dict[str, Any]
    num_players: int
    seed: int
    strategies: tuple[str, ...]  # by seat
    actions: tuple[tuple[int, str], ...]  # (seat, action text) in order
    result: dict[str, Any]
    format: int = FORMAT
    # The outcome as the game loop computed it (not serialised; rebuilt by replay when loaded).
    _outcome: Outcome | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "game": self.game, "options": self.options, "num_players": self.num_players,
            "seed": self.seed, "strategies": list(self.strategies), "actions": [[p, a] for p, a in self.actions],
            "result": self.result,
        }

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
    def from_dict(cls, data: Any) -> "GameRecord":
        if not isinstance(data, dict):
            raise ConfigError(f"a game record is a JSON object, not a {type(data).__name__}")
        try:
            version = int(data.get("format", 1))
            if version not in (1, FORMAT):
                raise ConfigError(f"unknown record format {version} (this version reads formats 1 and {FORMAT})")
            if version == 1:
                # Format 1 predates game names: every such record is of the one game the games
                # catalogue names for it, and its "map" field is that game's option.
                game, options = str(catalogue_entry("FORMAT_1_GAME")), {"map": data["map"]}
                if data.get("ruleset"):
                    options["ruleset"] = data["ruleset"]
            else:
                game, options = str(data["game"]), dict(data.get("options") or {})
            strategies = tuple(str(s) for s in data["strategies"])
            num_players = int(data["num_players"])
            if len(strategies) != num_players:
                raise ConfigError(f"the record names {len(strategies)} strategies for {num_players} players")
            if not isinstance(data.get("result") or {}, dict):
                raise ConfigError(f"a game record's result is a JSON object, not a {type(data['result']).__name__}")
            return cls(
                game=game, options=options, num_players=num_players, seed=int(data["seed"]),
                strategies=strategies, actions=tuple((int(p), str(a)) for p, a in data["actions"]),
                result=data.get("result") or {}, format=FORMAT,
            )
        except ConfigError:
            raise
        except KeyError as exc:
            field_name = exc.args[0]
            if field_name == "map" and "format" not in data:
                field_name = "game"  # an empty or foreign object: name the field of today's format
            raise ConfigError(f"a game record needs the field {field_name!r}") from None
        except (TypeError, ValueError, OverflowError) as exc:  # OverflowError: a seed of 1e400 (infinity)
            raise ConfigError(f"a game record has a malformed field: {exc}") from None

    @classmethod
    def from_json(cls, text: str) -> "GameRecord":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"not a game record (invalid JSON: {exc})") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> "GameRecord":
        return cls.from_json(Path(path).read_text(encoding="utf-8"))

    def load_game(self) -> Game:
        """The game this record was played in, with its options."""
        return load_game(self.game, **self.options)

    def states(self) -> Iterator[State]:
        """Replay: the state before each action, then the final state. A replay that ends the
        game checks its result against the one stored in the record: an edited or damaged
        record is an error, never another game shown as this one."""
        game = self.load_game()
        state = game.new_game(self.num_players, self.seed)
        for i, (seat, text) in enumerate(self.actions):
            yield state
            if state.current_player != seat:
                raise IllegalActionError(
                    f"record action {i} ({text!r}) is for seat {seat}, but seat {state.current_player} is to move")
            state = state.clone()
            state.apply(game.parse_action(text))
        if state.is_terminal() and self.result:
            self._check_result(state.result_data())
        yield state

    def _check_result(self, replayed: dict[str, Any]) -> None:
        """ConfigError when ``replayed`` (the end of the replay) differs from the stored result."""
        fresh, stored = json.loads(json.dumps(replayed)), json.loads(json.dumps(self.result))
        changed = sorted(str(k) for k in set(fresh) | set(stored) if fresh.get(k) != stored.get(k))
        if changed:
            raise ConfigError(f"the record's actions replay to another result than the one stored in it (differs in "
                              f"{', '.join(changed)}): the record was edited or is damaged")

    def replay(self) -> State:
        """The final state, rebuilt by replaying every action."""
        state = None
        for state in self.states():
            pass
        assert state is not None
        return state

    def state_at(self, turn: int | None = None, action: int | None = None) -> tuple[State, int]:
        """The state after ``action`` actions, or at the first turn boundary once ``turn`` turns
        are done (default: the end), with how many actions led there.

        Turns are the game's own count, read with its views' ``turn_number(state, index)`` (the
        number of turns completed when ``state`` is at a turn boundary, else None; by default
        every action is a turn)."""
        if turn is not None and action is not None:
            raise ConfigError("give a turn or an action count, not both")
        if (turn is not None and turn < 0) or (action is not None and action < 0):
            raise ConfigError(f"a turn or action count is 0 or more, not {turn if turn is not None else action}")
        turn_number = self.load_game().views.turn_number
        last: tuple[State, int] | None = None
        for index, state in enumerate(self.states()):
            last = (state, index)
            if action is not None and index == action:
                return last
            if turn is not None:
                done = turn_number(state, index)
                if done is not None and done >= turn:
                    return last
        assert last is not None
        if action is not None:
            raise ConfigError(f"the record has {last[1]} actions, not {action}")
        if turn is not None:
            raise ConfigError(f"the game ended after {turn_number(*last)} turns, "
                              f"before turn {turn}")
        return last

    def cut_short(self, state: State, index: int) -> bool:
        """Whether ``state``, after all ``index`` of the record's actions, is not the game's end:
        the record was cut short (a copy interrupted, a file truncated by hand)."""
        return index == len(self.actions) and not state.is_terminal()

    def closing_lines(self, state: State, index: int, recent: int = 6) -> list[str]:
        """The last ``recent`` actions before action ``index`` and, once ``state`` is over, each
        seat's score and rank: how every game's replay description ends."""
        lines = []
        last = self.actions[max(0, index - recent):index]
        if last:
            lines.append("  last actions: " + "; ".join(f"{p}: {a}" for p, a in last))
        if state.is_terminal():
            players = state.outcome().players
            lines.append("  final: " + ", ".join(f"seat {p} ({self.strategies[p]}) {o.score} (rank {o.rank})"
                                                 for p, o in enumerate(players)))
        return lines

    def outcome(self) -> Outcome:
        """The game-agnostic outcome (from the game loop, or by replaying the record)."""
        return self._outcome if self._outcome is not None else self.replay().outcome()

    def _repr_html_(self) -> str | None:
        """A record shows itself in Jupyter the way its game draws it (if the game does)."""
        return self.load_game().views.record_html(self)
