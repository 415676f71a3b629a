"""Trans-Orient Express's observation tensor: one player's information set as a fixed-size
float32 vector, for learners (``TransOrientExpress.observation_tensor``; layout in docs/rl.md).

Built from an ``Observation`` only (what is public at the table, plus the viewer's own luggage
and offer), so it holds nothing the player cannot know. Seats are relative to the viewer (slot
0 is the viewer) and padded to the most players; columns are padded to the most columns, so one
shape serves every player count. Cards are multi-hot over their printed numbers.
"""

from __future__ import annotations

import functools

import numpy as np

from ttr_lab.core.tensor_layout import TensorLayout
from ttr_lab.games.trans_orient.cards import Deck
from ttr_lab.games.trans_orient.observation import Observation
from ttr_lab.games.trans_orient.rules import K, MAX_PLAYERS, RULES, Phase, columns_for

_PHASES = len(Phase)
_MAX_COLUMNS = max(columns_for(n) for n in range(2, MAX_PLAYERS + 1))


@functools.lru_cache(maxsize=None)
def layout(deck: Deck) -> TensorLayout:
    """The blocks of the tensor for one deck (seats padded to 4, columns to 5)."""
    m, cols, c = MAX_PLAYERS, _MAX_COLUMNS, deck.num_colours
    t, lug, obj = len(deck.travel), len(deck.luggage), len(deck.objectives)
    return TensorLayout([
        ("num_players", m, "one-hot: players at the table (index n-1)"),
        ("to_move", m, "one-hot: the player to move, relative to the viewer (0 = the viewer)"),
        ("phase", _PHASES, "one-hot: take, station, play, luggage, give card, give token, over"),
        ("clock", 4, "round / round limit; final round; stalled; turn in round / 4"),
        ("starter", m, "one-hot: this round's starter, relative"),
        ("master", m, "one-hot: the station master's holder, relative"),
        ("master_column", cols + 1, "one-hot: the column it lies on (last: none)"),
        ("lower", cols * t, "per column, one-hot over travel card numbers (1..T at 0..T-1): the lower-row card"),
        ("upper", cols * t, "per column, one-hot: the upper-row card"),
        ("piles", cols * c, "per column, tokens per colour / pile size"),
        ("bag", c, "tokens per colour in the bag / tokens per colour"),
        ("hands", m * t, "per relative seat, multi-hot over travel cards: its hand (public)"),
        ("played", m * t, "per relative seat, multi-hot: its tableau"),
        ("reserves", m * c, "per relative seat: tokens per colour / reserve limit"),
        ("discounts", m * c, "per relative seat: discount per colour / 3"),
        ("seat_counts", m * 3, "per relative seat: capacity / 3, luggage cards / 4, cards played / 7"),
        ("counters", m * K, "per relative seat: card takes, pile takes, tokens paid, wasted, cards given / 20"),
        ("luggage", lug, "multi-hot over luggage numbers: the viewer's luggage"),
        ("offer", lug, "multi-hot: the luggage cards the viewer is choosing between"),
        ("luggage_known", lug, "multi-hot: luggage cards the viewer put back under the luggage deck"),
        ("deck", 1 + t, "draw deck size / travel cards; multi-hot: cards known at its bottom"),
        ("objectives", obj, "multi-hot over objective numbers: the game's objectives"),
    ])


def observation_shape(deck: Deck) -> tuple[int]:
    return (layout(deck).size,)


def observation_tensor(obs: Observation) -> np.ndarray:
    """``obs`` as a float32 vector of ``observation_shape`` (see ``layout`` for its slices)."""
    deck = obs.deck
    lay = layout(deck)
    off = lay.offsets
    m, cols, c, t = MAX_PLAYERS, _MAX_COLUMNS, deck.num_colours, len(deck.travel)
    n, me = obs.num_players, obs.player
    out = np.zeros(lay.size, dtype=np.float32)
    rel = [(s - me) % n for s in range(n)]  # seat -> relative slot
    out[off["num_players"] + n - 1] = 1.0
    out[off["to_move"] + rel[obs.current_player]] = 1.0
    out[off["phase"] + int(obs.phase)] = 1.0
    out[off["clock"]:off["clock"] + 4] = (obs.round / RULES.max_rounds, obs.final_round, obs.stalled,
                                          obs.turn_in_round / 4)
    out[off["starter"] + rel[obs.starter]] = 1.0
    if 0 <= obs.master < n:
        out[off["master"] + rel[obs.master]] = 1.0
    out[off["master_column"] + (obs.master_column if obs.master_column >= 0 else cols)] = 1.0
    for row in ("lower", "upper"):
        at = off[row]
        for col, number in enumerate(getattr(obs, row)):
            if number:
                out[at + col * t + number - 1] = 1.0
    piles = np.asarray(obs.piles, dtype=np.float32) / RULES.pile_size
    out[off["piles"]:off["piles"] + piles.size] = piles
    out[off["bag"]:off["bag"] + c] = obs.bag
    out[off["bag"]:off["bag"] + c] /= RULES.tokens_per_colour
    for s in range(n):
        j = rel[s]
        for name, cards in (("hands", obs.hands[s]), ("played", obs.played[s])):
            for number in cards:
                out[off[name] + j * t + number - 1] = 1.0
        out[off["reserves"] + j * c:off["reserves"] + (j + 1) * c] = obs.reserves[s * c:(s + 1) * c]
        out[off["reserves"] + j * c:off["reserves"] + (j + 1) * c] /= RULES.reserve_limit
        out[off["discounts"] + j * c:off["discounts"] + (j + 1) * c] = obs.discounts[s * c:(s + 1) * c]
        out[off["discounts"] + j * c:off["discounts"] + (j + 1) * c] /= 3.0
        at = off["seat_counts"] + j * 3
        out[at:at + 3] = (obs.capacity[s] / 3, obs.luggage_counts[s] / 4, len(obs.played[s]) / RULES.end_cards)
        out[off["counters"] + j * K:off["counters"] + (j + 1) * K] = obs.counters[s * K:(s + 1) * K]
        out[off["counters"] + j * K:off["counters"] + (j + 1) * K] /= 20.0
    for name, cards in (("luggage", obs.luggage), ("offer", obs.offer),
                        ("luggage_known", [x for x in obs.luggage_deck_known if x])):
        for number in cards:
            out[off[name] + number - 1] = 1.0
    out[off["deck"]] = obs.deck_size / t
    for number in obs.deck_bottom:
        out[off["deck"] + number] = 1.0
    for number in obs.objectives:
        out[off["objectives"] + number - 1] = 1.0
    return out
