"""A person's seat in the terminal: a strategy whose ``act`` shows that seat's observation (as
the game's ``views.live()`` tells it), what the others did since its last decision, the legal
actions numbered in the action language, and reads the choice (an index or an action's text) from
standard input, refusing bad input with one line and asking again.

So ``play_game`` plays a table with people as it plays any other: the record it returns is an
ordinary one. Several people at one terminal share a ``Terminal``, which puts a "pass to the next
player" screen between two people's turns, so that no one sees another's hand. Read line by line,
it works the same when standard input is a file or a pipe (then it neither clears the screen nor
waits for the hand-over, and it writes each line read after its prompt, so the transcript reads
as typed).
"""

from __future__ import annotations

import random
from typing import Any, Sequence, TextIO

from ttr_lab.core.errors import TTRLabError
from ttr_lab.human.seats import LeftTheTable, Quit

HELP = ("type the number of an action, or the action itself in the action language (e.g. {example!r}); "
        "'?' shows this help and the actions again; 'quit' ends the game here (a record is a whole game: "
        "none is saved)")


class Terminal:
    """The terminal the people at a table share: where it reads and writes, and whose turn it
    showed last (for the hand-over screen)."""

    def __init__(self, stdin: TextIO, stdout: TextIO, names: Sequence[str]) -> None:
        self.stdin, self.stdout, self.names = stdin, stdout, list(names)
        self.interactive = stdin.isatty() and stdout.isatty()
        self.people = 0  # how many seats share it
        self.last: int | None = None

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise LeftTheTable("standard input ended before the game did")
        if not self.stdin.isatty():
            shown = line.rstrip("\n")
            shown = shown if len(shown) <= 200 else shown[:200] + f"... ({len(shown)} characters)"
            self.stdout.write(shown + "\n")  # a transcript reads as typed
        return line.strip()

    def hand_over(self, seat: int) -> None:
        """Between two people's turns: clear the screen and wait until the next one is there."""
        if self.people < 2 or self.last in (None, seat):
            self.last = seat
            return
        self.last = seat
        if self.interactive:
            self.stdout.write("\033[2J\033[H")
            self.ask(f"pass the terminal to seat {seat} ({self.names[seat]}) and press Enter ")
            self.stdout.write("\033[2J\033[H")
        else:
            self.say(f"--- pass to seat {seat} ({self.names[seat]}) ---")


class TerminalSeat:
    """One person's seat (``game``: the game played; ``terminal``: shared with the table's other
    people)."""

    def __init__(self, game: Any, seat: int, terminal: Terminal) -> None:
        self.game, self.seat, self.terminal = game, seat, terminal
        self.name = "human"
        self.live = game.views.live()
        self.seen = 0  # public events already shown to this seat
        terminal.people += 1

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        out = self.terminal
        out.hand_over(self.seat)
        events = self.live.history(observation)
        news = events[self.seen:]
        self.seen = len(events) + 1  # and this seat's own decision, shown by the next call
        said = ("since your last turn: " + "; ".join(
            f"seat {p} ({'you' if p == self.seat else out.names[p]}) {self.live.event_text(p, a, c)}" for p, a, c in news)
            if news else "")
        texts = [str(a) for a in legal_actions]
        # A claim of a tunnel or a ferry says so in its line; the plain text is still what may be typed.
        shown = [self.live.action_line(observation, a) for a in legal_actions]
        out.say("")
        self._show(observation, shown, said)
        while True:
            answer = out.ask(f"seat {self.seat}, your action (number, text or ?): ")
            if answer in ("?", "help"):
                out.say(HELP.format(example=texts[-1]))
                self._show(observation, shown, said)
                continue
            if answer.lower() in ("quit", "exit"):
                raise Quit(f"seat {self.seat} left the game")
            try:
                return self._choice(answer, legal_actions, texts)
            except (TTRLabError, ValueError) as exc:
                out.say(f"error: {' '.join(str(exc).split())}")

    def _show(self, observation: Any, texts: Sequence[str], news: str) -> None:
        """The actions, then the news and the state: a long list (a hand that can pay for many
        tracks runs to dozens of lines) scrolls away above, and the hand and tickets stay in view
        just above the prompt."""
        self._list(texts)
        if news:
            self.terminal.say(news)
        for line in self.live.describe(observation, self.terminal.names):
            self.terminal.say(line)

    def _list(self, texts: Sequence[str]) -> None:
        """The actions, numbered; consecutive ones that differ only after " with " (a claim's
        payments) share a line, each payment with its number, so a long hand's list stays short."""
        width = len(str(len(texts) - 1))
        lines: list[tuple[str, list[str]]] = []
        for i, text in enumerate(texts):
            head, sep, rest = text.rpartition(" with ")
            if sep and lines and lines[-1][0] == head + sep:
                lines[-1][1].append(f"{i} {rest}")
            elif sep:
                lines.append((head + sep, [f"{i:>{width}}  {head}{sep}{rest}"]))
            else:
                lines.append(("", [f"{i:>{width}}  {text}"]))
        for _, parts in lines:
            self.terminal.say("  " + " | ".join(parts))

    def _choice(self, answer: str, legal: Sequence[Any], texts: Sequence[str]) -> Any:
        """The legal action ``answer`` names: its index in the list, or its text."""
        if not answer:
            raise ValueError("type a number or an action (? for help)")
        if answer.isascii() and answer.isdigit():
            # A number longer than any index is out of the list without reading it (int() refuses
            # past 4,300 digits, and the line would be echoed back whole).
            if len(answer.lstrip("0")) <= len(str(len(legal))) and int(answer) < len(legal):
                return legal[int(answer)]
            shown = answer if len(answer) <= 20 else f"a {len(answer)}-digit number"
            raise ValueError(f"{shown} is not in the list (0 to {len(legal) - 1})")
        action = self.game.parse_action(answer)
        for candidate in legal:
            if candidate == action:
                return candidate
        raise ValueError(f"{action} is not legal now (? lists what is)")
