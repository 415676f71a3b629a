"""``LiveView``: how a game shows itself to a person sitting at the table (``ttr-lab play
--human``, ``ttr-lab serve``), built from that person's ``observation(player)`` alone.

The defaults work for any game: the observation's fields one per line, each event as its public
action's text. A game replaces what it has more to say about (``views.live()`` returns its own
subclass): a compact account for the terminal, and for the browser the pieces of a page that
draws the game as its replay viewer does (``page``: the viewer's markup and its ``render``
script, fed one ``step`` per position) with, for each legal action, the element a click on which
plays it (``target``: a CSS selector inside the page) or the items a ticked set of which chooses
it (``keep``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from ttr_lab.core.game import Game


@dataclass(frozen=True)
class LivePage:
    """What a game's browser page is made of: ``body`` (HTML: the board, the tables the script
    fills), ``style`` (CSS), ``script`` (JavaScript: ``function(ctx)`` returning ``render(step)``,
    the replay viewer's contract, ``ttr_lab.core.replay_page``) and ``data`` (JSON the script reads
    as ``ctx.D``: the players and the game's constant tables)."""

    body: str
    style: str
    script: str
    data: dict[str, Any] = field(default_factory=dict)


class LiveView:
    """The live views of ``game``, with defaults a game replaces where it has its own."""

    def __init__(self, game: "Game") -> None:
        self.game = game

    def describe(self, observation: Any, names: Sequence[str]) -> list[str]:
        """What the observing seat knows, in lines for the terminal (``names``: each seat's player)."""
        data = observation.to_dict() if hasattr(observation, "to_dict") else vars(observation)
        return [f"{key}: {value}" for key, value in data.items() if key not in ("history", "log")]

    def action_line(self, observation: Any, action: Any) -> str:
        """A legal action as the terminal lists it: its text, which a game may follow with what
        the text alone does not say (a claimed track's kind); typing the text still plays it."""
        return str(action)

    def event_text(self, player: int, action: Any, card: Any) -> str:
        """One public event (``state.last_event()``'s fields) as text: the public action, and the
        card it moved into sight, if any."""
        return str(action) + ("" if card is None else f" ({card})")

    def history(self, observation: Any) -> list[tuple[int, Any, Any]]:
        """The public events so far, oldest first, as ``(player, public action, card)``."""
        return [(e[0], e[1], e[2]) for e in getattr(observation, "history", ())]

    def scores(self, observation: Any) -> list[int]:
        """Each seat's public score now (the score track); empty when the game shows none."""
        return []

    def page(self, names: Sequence[str]) -> LivePage | None:
        """The browser page's pieces (``names``: each seat's player, for the page's tables);
        None: the game has no page of its own, and the browser lists the actions alone."""
        return None

    def step(self, observation: Any, mark: dict[str, Any] | None) -> dict[str, Any]:
        """The position as the page's ``render`` reads it, from ``observation`` alone. ``mark``
        is the step the same seat last decided at (None before), so a page can highlight what
        changed since (the claims of the others' turns)."""
        return {}

    def final(self, record: Any) -> dict[str, Any]:
        """What the finished game's record adds to the last ``step`` (what the end of the game
        settles and no observation holds); empty by default."""
        return {}

    def target(self, observation: Any, action: Any) -> str | None:
        """The CSS selector, inside the page, of the element a click on which plays ``action``
        (several actions may share one: the page then asks which); None: a button of its own."""
        return None

    def keep(self, action: Any) -> list[int] | None:
        """For an action that keeps some of several items on offer: the indices it keeps, which
        the page offers as boxes to tick; else None."""
        return None
