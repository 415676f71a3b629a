"""``snapshot()``: the full state, hidden parts included, as plain JSON (``restore.py`` reads one
back); ``check``: every card and token in exactly one place.

Restoring is for hand-built positions (tests, bug reports): take a snapshot, change what
matters, restore it. It checks that the 72 travel cards, the 50 tokens and the 16 luggage cards
are each where exactly one thing says, so a position cannot silently hold a card twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttr_lab.core.errors import ConfigError
from ttr_lab.games.trans_orient.rules import K, Phase

if TYPE_CHECKING:
    from ttr_lab.games.trans_orient.slots import StateSlots

COUNTER_NAMES = ("card_takes", "pile_takes", "tokens_paid", "tokens_wasted", "cards_given_back")


def snapshot(state: "StateSlots") -> dict[str, Any]:
    setup = state.tables
    n, C, names = setup.num_players, setup.colours, setup.deck.colours

    def by_colour(values: list[int], i: int) -> dict[str, int]:
        return {names[c]: values[i * C + c] for c in range(C)}

    return {
        "deck": setup.deck.name,
        "num_players": n,
        "phase": Phase(state.phase).name.lower(),
        "current_player": state.player,
        "round": state.round,
        "turn_in_round": state.tidx,
        "order": list(state.order),
        "starter": state.starter,
        "master": state.master,
        "master_column": state.mcol,
        "lower": list(state.lower),
        "upper": list(state.upper),
        "piles": [by_colour(state.piles, col) for col in range(setup.columns)],
        "draw_deck": list(state.deck),  # top first
        "draw_deck_known": state.deck_known,  # how many at the bottom were put there in sight
        "hands": [list(h) for h in state.hands],
        "played": [list(p) for p in state.played],
        "reserves": [by_colour(state.reserves, p) for p in range(n)],
        "bag": by_colour(state.bag, 0),
        "discounts": [by_colour(state.discounts, p) for p in range(n)],
        "capacity": list(state.capacity),
        "luggage": [list(x) for x in state.luggage],
        "luggage_deck": list(state.lug_deck),  # top first
        "luggage_deck_returned_by": list(state.lug_by),  # per position: who put it there, or -1
        "luggage_offer": list(state.offer),
        "objectives": list(state.objectives),
        "final_round": state.final,
        "stalled": state.stalled,
        "terminal": state.is_terminal(),
        "turns": state.turns,
        "counters": [dict(zip(COUNTER_NAMES, state.counters[p * K:(p + 1) * K])) for p in range(n)],
        "rng_state": state.rng,
        "history_length": state.log_len,
    }


def check(s: "StateSlots") -> None:
    """Raise ``ConfigError`` unless every card and token is in exactly one place."""
    setup = s.tables
    deck, n, C = setup.deck, setup.num_players, setup.colours
    if not (len(s.hands) == len(s.played) == len(s.luggage) == n) or len(s.order) == 0:
        raise ConfigError(f"snapshot: hands, played and luggage need one entry per player ({n})")
    travel = [x for x in s.lower + s.upper if x] + list(s.deck)
    travel += [x for h in s.hands for x in h] + [x for p in s.played for x in p]
    if sorted(travel) != list(range(1, len(deck.travel) + 1)):
        raise ConfigError(f"snapshot: the travel cards are not each in one place ({len(travel)} placed, "
                          f"{len(set(travel))} different, of {len(deck.travel)})")
    luggage = [x for h in s.luggage for x in h] + list(s.lug_deck) + list(s.offer)
    if sorted(luggage) != list(range(1, len(deck.luggage) + 1)):
        raise ConfigError(f"snapshot: the luggage cards are not each in one place ({len(luggage)} placed)")
    if len(s.lug_by) != len(s.lug_deck):
        raise ConfigError("snapshot: luggage_deck_returned_by needs one entry per luggage deck position")
    cols = setup.columns
    for c in range(C):
        total = s.bag[c] + sum(s.piles[col * C + c] for col in range(cols)) + sum(s.reserves[p * C + c] for p in range(n))
        if total != setup.rules.tokens_per_colour:
            raise ConfigError(f"snapshot: {total} {deck.colours[c]} tokens, expected {setup.rules.tokens_per_colour}")
    if not 0 <= s.player < n or not 0 <= s.master < n or not 0 <= s.starter < n:
        raise ConfigError("snapshot: a player index is out of range")
