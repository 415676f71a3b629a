"""Hand-built Trans-Orient Express positions, random games and invariants, for the tests.

``make_state`` takes only what matters to a test; every travel card not placed goes to the
draw deck (ascending, under the cards ``deck`` puts on top), every luggage card not placed to the luggage
deck, and every token not in a pile or a reserve to the bag, so positions are always whole.
"""

from __future__ import annotations

import random
from typing import Any, Iterator, Mapping, Sequence

from ttr_lab.games.trans_orient import Effect, LuggageEffect, Phase, GameState, TransOrientExpress, round_order
from ttr_lab.games.trans_orient.rules import K, columns_for
from ttr_lab.games.trans_orient.snapshot import check

GAME = TransOrientExpress()
DECK = GAME.deck
COLOURS = DECK.colours  # blue, green, yellow, red, purple in the stand-in deck


def tokens(**counts: int) -> dict[str, int]:
    """``tokens(red=2, blue=1)`` -> a full colour dict."""
    unknown = set(counts) - set(COLOURS)
    assert not unknown, f"unknown colours {unknown}"
    return {c: counts.get(c, 0) for c in COLOURS}


def make_state(
    n: int = 3,
    *,
    lower: Sequence[int] | None = None,
    upper: Sequence[int] | None = None,
    piles: Sequence[Mapping[str, int]] | None = None,
    hands: Sequence[Sequence[int]] | None = None,
    played: Sequence[Sequence[int]] | None = None,
    reserves: Sequence[Mapping[str, int]] | None = None,
    luggage: Sequence[Sequence[int]] | None = None,
    luggage_deck: Sequence[int] | None = None,
    offer: Sequence[int] = (),
    deck: Sequence[int] | None = None,
    deck_known: int = 0,
    phase: str = "take",
    starter: int = 0,
    turn: int = 0,
    player: int | None = None,
    master: int | None = None,
    master_column: int = -1,
    round: int = 1,
    objectives: Sequence[int] = (1, 7, 13),
    final: bool = False,
) -> GameState:
    cols = columns_for(n)
    order = round_order(starter, n)
    lower = list(lower) if lower is not None else list(range(40, 40 + cols))
    upper = list(upper) if upper is not None else list(range(50, 50 + cols))
    hands = [list(h) for h in hands] if hands is not None else [[] for _ in range(n)]
    played = [list(p) for p in played] if played is not None else [[] for _ in range(n)]
    used = {x for x in lower + upper if x} | {x for h in hands for x in h} | {x for p in played for x in p}
    deck = list(deck or ())  # the top of the draw deck; every card placed nowhere else follows
    deck += [x for x in range(1, len(DECK.travel) + 1) if x not in used and x not in deck]
    luggage = [list(x) for x in luggage] if luggage is not None else [[] for _ in range(n)]
    lug_used = {x for h in luggage for x in h} | set(offer)
    if luggage_deck is None:
        luggage_deck = [x for x in range(1, len(DECK.luggage) + 1) if x not in lug_used]
    piles = [tokens(**p) for p in piles] if piles is not None else [tokens() for _ in range(cols)]
    reserves = [tokens(**r) for r in reserves] if reserves is not None else [tokens() for _ in range(n)]
    bag = {c: 10 - sum(p[c] for p in piles) - sum(r[c] for r in reserves) for c in COLOURS}
    snap: dict[str, Any] = {
        "num_players": n, "phase": phase, "current_player": order[turn] if player is None else player,
        "round": round, "turn_in_round": turn, "order": list(order), "starter": starter,
        "master": starter if master is None else master, "master_column": master_column,
        "lower": lower, "upper": upper, "piles": piles, "draw_deck": list(deck), "draw_deck_known": deck_known,
        "hands": hands, "played": played, "reserves": reserves, "bag": bag, "luggage": luggage,
        "luggage_deck": list(luggage_deck), "luggage_offer": list(offer), "objectives": list(objectives),
        "final_round": final, "rng_state": 12345,
    }
    return GAME.restore(snap)


def find_cards(**conditions: Any) -> list[int]:
    """Numbers of the stand-in travel cards whose fields equal ``conditions`` (colour by name)."""
    if "colour" in conditions:
        conditions["colour"] = COLOURS.index(conditions["colour"])
    if "effect_colour" in conditions:
        conditions["effect_colour"] = COLOURS.index(conditions["effect_colour"])
    return [c.number for c in DECK.travel if all(getattr(c, k) == v for k, v in conditions.items())]


def find_luggage(**conditions: Any) -> list[int]:
    return [c.number for c in DECK.luggage if all(getattr(c, k) == v for k, v in conditions.items())]


def act(state: GameState, *texts: str) -> GameState:
    """Apply actions written in the action language."""
    for text in texts:
        state.apply(GAME.parse_action(text))
    return state


def texts(state: GameState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


def reserve(state: GameState, p: int) -> dict[str, int]:
    C = len(COLOURS)
    return dict(zip(COLOURS, state.reserves[p * C:(p + 1) * C]))


def pile(state: GameState, col: int) -> dict[str, int]:
    C = len(COLOURS)
    return dict(zip(COLOURS, state.piles[col * C:(col + 1) * C]))


def random_game_states(n: int, seed: int, game: TransOrientExpress = GAME) -> Iterator[tuple[GameState, list, Any]]:
    """Every state of a uniformly random game (before each action), with the action then taken."""
    from ttr_lab.core.testing import random_walk

    return random_walk(game.new_game(n, seed), seed)


def check_invariants(state: GameState) -> None:
    """Conservation of cards and tokens, derived fields, and the limits at every turn's start."""
    check(state)  # 72 travel, 16 luggage cards each in one place; 10 tokens of each colour
    setup = state.tables
    n, C, rules = setup.num_players, setup.colours, setup.rules
    assert len(state.lower) == len(state.upper) == setup.columns
    assert 0 <= state.deck_known <= len(state.deck)
    assert len(state.lug_by) == len(state.lug_deck)
    assert min(state.bag) >= 0 and min(state.piles) >= 0 and min(state.reserves) >= 0
    assert state.log_len == len(state.history())
    for p in range(n):
        effects = [DECK.card(x).effect for x in state.played[p]]
        assert state.capacity[p] == effects.count(Effect.CAPACITY)
        assert sum(state.discounts[p * C:(p + 1) * C]) == effects.count(Effect.DISCOUNT)
        assert list(state.hands[p]) == sorted(state.hands[p])
        assert sum(state.counters[p * K:(p + 1) * K]) >= 0
    if state.phase == Phase.TAKE:  # every turn so far ended within the limits
        for p in range(n):
            assert len(state.hands[p]) <= rules.hand_limit, f"player {p} holds {state.hands[p]}"
            assert sum(state.reserves[p * C:(p + 1) * C]) <= rules.reserve_limit + state.capacity[p]
        assert any(state.lower), "a turn with no column to take"
        assert state.player == state.order[state.tidx]
    if state.phase != Phase.LUGGAGE:
        assert state.offer == ()
    if state.phase != Phase.OVER:
        assert 1 <= state.round <= rules.max_rounds


def hidden_shuffle(state: GameState, viewer: int, rng: random.Random) -> GameState:
    """A state ``viewer`` cannot tell apart from ``state``: the shuffled part of the draw deck
    reordered, opponents' luggage (held and on offer) swapped with the unknown luggage deck
    positions, and the bag's future draws changed."""
    s = state.clone()
    unknown = len(s.deck) - s.deck_known
    top = list(s.deck[:unknown])
    rng.shuffle(top)
    s.deck = tuple(top) + s.deck[unknown:]
    over = s.phase == Phase.OVER
    pool = [x for x, by in zip(s.lug_deck, s.lug_by) if by != viewer]
    shapes = []
    if not over:
        for q in range(state.num_players):
            if q != viewer:
                shapes.append(q)
                pool += list(s.luggage[q])
        if s.player != viewer:
            pool += list(s.offer)
    rng.shuffle(pool)
    s.luggage = s.luggage[:]
    for q in shapes:
        s.luggage[q] = tuple(sorted(pool.pop() for _ in state.luggage[q]))
    if not over and s.player != viewer:
        s.offer = tuple(pool.pop() for _ in state.offer)
    s.lug_deck = tuple(x if by == viewer else pool.pop() for x, by in zip(s.lug_deck, s.lug_by))
    assert not pool
    s.rng = rng.getrandbits(64)
    return s


__all__ = [
    "COLOURS", "DECK", "Effect", "GAME", "LuggageEffect", "Phase", "act", "check_invariants", "find_cards",
    "find_luggage", "hidden_shuffle", "make_state", "pile", "random_game_states", "reserve", "texts", "tokens",
]
