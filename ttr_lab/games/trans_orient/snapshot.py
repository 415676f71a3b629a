"""``snapshot()``: the full state, hidden parts included, as plain JSON; ``restore`` reads one back.

``restore`` is for hand-built positions (tests, bug reports): take a snapshot, change what
matters, restore it. It checks that the 72 travel cards, the 50 tokens and the 16 luggage cards
are each where exactly one thing says, so a position cannot silently hold a card twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ttr_lab.core.errors import ConfigError
from ttr_lab.games.trans_orient.cards import Effect
from ttr_lab.games.trans_orient.rules import K, Phase, setup_for

if TYPE_CHECKING:
    from ttr_lab.games.trans_orient.cards import Deck
    from ttr_lab.games.trans_orient.state import TOEState

COUNTER_NAMES = ("card_takes", "pile_takes", "tokens_paid", "tokens_wasted", "cards_given_back")


def snapshot(state: "TOEState") -> dict[str, Any]:
    setup = state.setup
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


def restore(deck: "Deck", snap: dict[str, Any]) -> "TOEState":
    """The state a ``snapshot()`` describes (discounts and capacity are recomputed from the
    cards placed). A snapshot is the position, not the path: the public history is counted, not
    listed (a record lists it), so a restored state's ``history()`` starts empty."""
    from ttr_lab.games.trans_orient.state import TOEState

    n = int(snap["num_players"])
    setup = setup_for(deck, n)
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

    s = object.__new__(TOEState)
    s.setup = setup
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


def check(s: "TOEState") -> None:
    """Raise ``ConfigError`` unless every card and token is in exactly one place."""
    setup = s.setup
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
