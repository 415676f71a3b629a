"""``restore``: the state a ``snapshot()`` describes, read back (``snapshot.py`` writes one;
reading needs the state, which writing must not import: the state's ``snapshot()`` calls it).
"""

from __future__ import annotations

from typing import Any

from ttr_lab.core.errors import ConfigError
from ttr_lab.games.trans_orient.cards import Deck, Effect
from ttr_lab.games.trans_orient.rules import Phase, tables_for
from ttr_lab.games.trans_orient.snapshot import COUNTER_NAMES, check
from ttr_lab.games.trans_orient.state import GameState


def restore(deck: Deck, snap: dict[str, Any]) -> GameState:
    """The state a ``snapshot()`` describes (discounts and capacity are recomputed from the
    cards placed). A snapshot is the position, not the path: the public history is counted, not
    listed (a record lists it), so a restored state's ``history()`` starts empty."""
    n = int(snap["num_players"])
    setup = tables_for(deck, n)
    C, cols, names = setup.colours, setup.columns, deck.colours

    def flat(rows: list[dict[str, int]], what: str, size: int) -> list[int]:
        if len(rows) != size:
            raise ConfigError(f"snapshot: {what} has {len(rows)} entries, expected {size}")
        out = []
        for row in rows:
            unknown = set(row) - set(names)
            if unknown:
                raise ConfigError(f"snapshot: {what} names unknown colour {sorted(unknown)[0]!r}")
            out += [int(row.get(c, 0)) for c in names]
        if min(out, default=0) < 0:
            raise ConfigError(f"snapshot: {what} holds a negative count")
        return out

    s = object.__new__(GameState)
    s.tables = setup
    try:
        s.phase = int(Phase[str(snap["phase"]).upper()])
    except KeyError:
        raise ConfigError(f"snapshot: unknown phase {snap['phase']!r}") from None
    s.player = int(snap["current_player"])
    s.round = int(snap["round"])
    s.tidx = int(snap["turn_in_round"])
    s.order = tuple(int(p) for p in snap["order"])
    s.starter, s.master, s.mcol = int(snap["starter"]), int(snap["master"]), int(snap["master_column"])
    s.lower, s.upper = [int(x) for x in snap["lower"]], [int(x) for x in snap["upper"]]
    if len(s.lower) != cols or len(s.upper) != cols:
        raise ConfigError(f"snapshot: {n} players lay {cols} columns")
    s.piles = flat(snap["piles"], "piles", cols)
    s.deck = tuple(int(x) for x in snap["draw_deck"])
    s.deck_known = min(int(snap.get("draw_deck_known", 0)), len(s.deck))
    s.hands = [tuple(sorted(int(x) for x in h)) for h in snap["hands"]]
    s.played = [tuple(int(x) for x in p) for p in snap["played"]]
    s.reserves = flat(snap["reserves"], "reserves", n)
    s.bag = flat([snap["bag"]], "bag", 1)
    s.luggage = [tuple(sorted(int(x) for x in h)) for h in snap["luggage"]]
    s.lug_deck = tuple(int(x) for x in snap["luggage_deck"])
    s.lug_by = tuple(int(x) for x in snap.get("luggage_deck_returned_by", [-1] * len(s.lug_deck)))
    s.offer = tuple(int(x) for x in snap.get("luggage_offer", ()))
    s.objectives = tuple(int(x) for x in snap["objectives"])
    s.final, s.stalled = bool(snap["final_round"]), bool(snap.get("stalled", False))
    s.turns = int(snap.get("turns", 0))
    counters = snap.get("counters") or [{}] * n
    s.counters = [int(c.get(name, 0)) for c in counters for name in COUNTER_NAMES]
    s.rng = int(snap.get("rng_state", 0))
    s.log, s.log_len = None, int(snap.get("history_length", 0))  # the count, not the events
    s.discounts, s.capacity = [0] * (n * C), [0] * n
    for p, cards in enumerate(s.played):
        for x in cards:
            card = deck.card(x)
            if card.effect == Effect.DISCOUNT:
                s.discounts[p * C + card.effect_colour] += 1
            elif card.effect == Effect.CAPACITY:
                s.capacity[p] += 1
    check(s)
    return s
