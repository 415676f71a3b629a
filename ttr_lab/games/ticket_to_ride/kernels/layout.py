"""Where everything lives in the two flat arrays the kernels read: the game's tables and a state.

A compiled kernel takes two ``int64`` arrays, ``g`` (one game: board, ruleset, player count,
action ids) and ``s`` (one position). Two flat arrays rather than many small ones because a call
from Python pays for every argument it unboxes, and a state that is one array clones with one
copy. Both are declared below, once, as named parts (``core.array_layout``): ``STATE`` (the
state's header slots, then its fields with their length rules) and ``GAME`` (``g``'s header:
scalars, the offsets of its tables, the state's length and the offset of each state field).
Every constant the kernels index with (``PHASE``, ``N_PLAYERS``, ``T_LENGTH``, ``S_HANDS``...)
is derived from them at import; numba compiles module globals as constants, so a kernel reads
``s[g[S_HANDS] + p * KINDS + card]`` exactly as if the numbers were typed by hand.
"""

from __future__ import annotations

from typing import Any

from ttr_lab.core.array_layout import ArrayLayout, Part, block_constants, numbered
from ttr_lab.core.tensor_layout import TensorLayout

KINDS = 9  # card kinds: the eight colours and the locomotive (colours.NUM_CARD_KINDS)
COLOURS = 8
LOCOMOTIVE = 8  # a card; on a track the same index means gray
GRAY = 8
NO_CARD = -1

# Phases, as ``game.Phase`` numbers them.
SETUP, TURN, SECOND, KEEP, OVER = 0, 1, 2, 3, 4

# -- the state array, declared: header slots (constants), then fields sized by the game ----------
# A new field is one line in ``STATE``: its offset, the game array's slot for it (``S_<NAME>``),
# the Python face's attribute, ``Fields``, a snapshot's plain entry and ``assemble_state`` follow.
STATE = ArrayLayout(
    header=(
        Part("phase", (1,), "the phase number (``Phase``)", "scalar"),
        Part("player", (1,), "the seat to move", "scalar"),
        Part("final_turns", (1,), "-1 until the final round starts, then the turns left in it", "scalar", fill=-1),
        Part("passes", (1,), "passes in a row", "scalar"),
        Part("turns", (1,), "normal turns played", "scalar"),
        Part("stalled", (1,), "1 once a full round of passes ended the game", "scalar", python=bool),
        Part("rng", (1,), "the SplitMix64 state of the engine's shuffles (a uint64's bits)", "scalar"),
        Part("pile_n", (1,), "cards in the draw pile (its top is the last)", "internal"),
        Part("market_n", (1,), "cards in the market", "internal"),
        Part("deck_head", (1,), "the ticket deck is a ring: its top at DECK_HEAD", "internal"),
        Part("deck_n", (1,), "tickets in the ticket deck", "internal"),
        Part("boxed_n", (1,), "tickets out of the game", "internal"),
        Part("last_card", (1,), "the card the last action showed to everyone (a market card), else NO_CARD", "internal"),
    ),
    body=(
        Part("hands", ("players", KINDS), "every hand: ``hands[p * 9 + kind]`` cards of that kind"),
        Part("known", ("players", KINDS), "cards each player is publicly known to hold, as ``hands``"),
        Part("pile", ("cards",), "the draw pile, card kinds, top last", "counted", "pile_n"),
        Part("discard", (KINDS,), "the discard pile, a count per kind"),
        Part("market", ("market",), "the face-up cards, slot by slot", "counted", "market_n"),
        Part("owner", ("tracks",), "per track, the seat holding it, or -1", fill=-1),
        Part("trains", ("players",), "trains left per player"),
        Part("points", ("players",), "route points scored so far per player"),
        Part("tickets", ("players", "tickets"), "per player, the tickets held, in the order kept", "rows", "tickets_n"),
        Part("tickets_n", ("players",), "per player, how many tickets are held"),
        Part("offers", ("players", "offer"), "per player, the tickets on offer (empty when not choosing)", "rows",
             "offers_n"),
        Part("offers_n", ("players",), "per player, how many tickets are on offer"),
        Part("deck", ("tickets",), "the ticket deck, top first", "ring", "deck_head,deck_n", tuple, "ticket_deck"),
        Part("returned", ("tickets",), "per deck position, the seat that put that ticket back, or -1", "ring",
             "deck_head,deck_n", tuple, "returned_by", -1),
        Part("boxed", ("tickets",), "tickets out of the game", "counted", "boxed_n", tuple),
        Part("boxed_by", ("tickets",), "who put each boxed ticket there (-1: nobody saw it)", "counted", "boxed_n",
             tuple, fill=-1),
    ),
)
globals().update(STATE.constants())  # PHASE, PLAYER, ... LAST_CARD: the header's slots
STATE_HEADER = STATE.header_size

# -- the game array's header, declared: scalars, the offsets of its tables and of the state's fields
_GAME_SCALARS_AND_TABLES = (
    ("n_players", 1, ""), ("n_tracks", 1, ""), ("n_cities", 1, ""), ("n_tickets", 1, ""), ("n_cards", 1, ""),
    ("market_size", 1, ""), ("max_offer", 1, ""), ("initial_hand", 1, ""), ("initial_tickets", 1, ""),
    ("initial_long", 1, ""), ("initial_keep_min", 1, ""), ("ticket_draw", 1, ""), ("ticket_keep_min", 1, ""),
    ("loco_limit", 1, ""), ("max_redeals", 1, ""), ("redeal_min", 1, ""), ("end_trains", 1, ""),
    ("doubles_shared", 1, ""), ("trains_per_player", 1, ""), ("longest_bonus", 1, ""), ("explorer_bonus", 1, ""),
    ("rejects_box", 1, ""), ("n_tie_breaks", 1, ""),
    ("tie_breaks", 4, "TIE_* codes in order"),
    ("has_mountains", 1, ""),
    ("id_market", 1, "action ids: draw blind is 0, then draw market 0.., tickets, pass, keeps, claims"),
    ("id_tickets", 1, ""), ("id_pass", 1, ""), ("id_keep", 1, ""), ("id_claim", 1, ""), ("n_actions", 1, ""),
    ("n_groups", 1, ""), ("max_length", 1, ""), ("n_regular", 1, ""), ("n_long", 1, ""),
    # The offsets of the game's tables (``tables.game_array`` appends each after the header).
    ("t_length", 1, ""), ("t_colour", 1, ""), ("t_ferry", 1, ""),
    ("t_trains", 1, "trains a claim takes (length plus mountain spaces)"), ("t_points", 1, ""),
    ("t_twin", 1, "the other track of a double route, -1 for none"), ("t_city_a", 1, ""), ("t_city_b", 1, ""),
    ("t_group", 1, "payment group: tracks alike in colour, length, ferry and trains"),
    ("t_mountain", 1, "mountain spaces"),
    ("claim_id", 1, "[track, payment colour (8: only locomotives), locomotives] -> action id or -1"),
    ("claim_track", 1, "per claim (action id - ID_CLAIM): track, colour, cards, locomotives"),
    ("claim_colour", 1, ""), ("claim_cards", 1, ""), ("claim_locos", 1, ""),
    ("group_start", 1, "per group: its first entry in GROUP_TRACKS (tracks by id), and count"),
    ("group_count", 1, ""), ("group_tracks", 1, ""), ("group_length", 1, ""), ("group_ferry", 1, ""),
    ("group_need", 1, ""),
    ("colour_group_start", 1, "per track colour (gray last): its groups by length, in GROUP_ORDER"),
    ("colour_group_count", 1, ""), ("group_order", 1, ""), ("ticket_a", 1, ""), ("ticket_b", 1, ""),
    ("ticket_points", 1, ""),
    ("regular_tickets", 1, "ticket ids of the regular deck, in board order (before the shuffle)"),
    ("long_tickets", 1, ""), ("deck_cards", 1, "the train cards in colour order (before the shuffle)"),
    ("keep_start", 1, "[offered, minimum] -> first entry in KEEP_MASKS and count: the keep subsets"),
    ("keep_count", 1, ""), ("keep_masks", 1, ""),
)


def game_layout(state: ArrayLayout) -> TensorLayout:
    """The game array's header for a state declared as ``state``: its scalars and table offsets,
    then the state's length (``S_SIZE``) and one slot per state field (``S_HANDS``...)."""
    return TensorLayout(_GAME_SCALARS_AND_TABLES + tuple(state.offset_slots()))


GAME = game_layout(STATE)
globals().update(block_constants(GAME))  # N_PLAYERS ... KEEP_MASKS, S_SIZE, S_HANDS ... S_BOXED_BY
GAME_HEADER = GAME.size

# The dimensions of the state's length rules, as the game array holds them: a game's offsets are
# read off its own array (``dims_of``), and a kernel finds a row's width there (``row_width``).
DIM_SLOTS = {
    "players": GAME.offsets["n_players"], "cards": GAME.offsets["n_cards"], "market": GAME.offsets["market_size"],
    "tracks": GAME.offsets["n_tracks"], "tickets": GAME.offsets["n_tickets"], "offer": GAME.offsets["max_offer"],
}


def dims_of(g: Any) -> dict[str, int]:
    """The dimensions the state's length rules are read with, off a game array or its header
    (a list while ``tables.game_array`` builds it)."""
    return {dim: int(g[slot]) for dim, slot in DIM_SLOTS.items()}


def row_width(name: str) -> tuple[int, int]:
    """The width of one player's row of the field ``name`` (its length rule after the first
    factor) as ``(number, game slot)``: the width is the number times ``g[slot]``, or the number
    alone when the slot is -1 (at most one dimension in a row's width)."""
    number, slot = 1, -1
    for factor in STATE.by_name[name].length[1:]:
        if isinstance(factor, int):
            number *= factor
        elif slot < 0:
            slot = DIM_SLOTS[factor]
        else:
            raise ValueError(f"the row of {name!r} has more than one dimension")
    return number, slot


def __getattr__(name: str) -> int:
    # Only reached for a name neither declaration gives (a typo, a removed part); it also tells
    # the type checker that the derived names above are ints.
    raise AttributeError(f"kernels.layout declares no {name!r}: see STATE and GAME")


# Tie-break codes (``Ruleset.tie_breaks``).
TIE_TICKETS, TIE_LONGEST, TIE_EXPLORER, TIE_MOUNTAINS = 0, 1, 2, 3

# Refusal codes of ``apply_action`` (0: applied); the face turns each into the rule's message.
OK = 0
E_PHASE = 1  # not an action of this phase
E_NO_ACTION = 2  # not an action id of this game
E_TRACK_TAKEN = 3
E_DOUBLE_CLOSED = 4  # with few players only one track of a double route
E_DOUBLE_SELF = 5  # a player may not hold both tracks of a double route
E_CARDS = 6  # the hand lacks the cards
E_LOCOS = 7  # the hand lacks the locomotives
E_TRAINS = 8  # too few trains
E_PILE_EMPTY = 9  # draw pile and discard both empty
E_NO_SLOT = 10  # no card in that market slot
E_SECOND_LOCO = 11  # a face-up locomotive as the second card
E_DECK_EMPTY = 12  # no ticket to draw
E_KEEP_RANGE = 13  # a kept index beyond the offer
E_KEEP_FEW = 14  # too few tickets kept
E_PASS = 15  # passing while something else is legal

# -- the kernels' smaller arrays of one number per entry, declared in order (``numbered``) -------


def _declare(constants: dict[str, int]) -> None:
    """Makes ``constants`` module globals (the kernels' compile-time constants), refusing a name
    another declaration of this module already gives."""
    taken = sorted(set(constants) & set(globals()))
    if taken:
        raise ValueError(f"kernels.layout declares {', '.join(taken)} twice")
    globals().update(constants)


# Per-player columns of ``score_game``'s result: R_ROUTES ... R_RANK, and RESULT_COLUMNS.
RESULT = (
    ("routes", "route points"), ("ticket_points", "ticket points, completed less failed"),
    ("completed", "tickets completed"), ("failed", "tickets failed"), ("trail", "the longest trail's length"),
    ("longest_bonus", "the longest-trail bonus"), ("network", "the largest network's cities"),
    ("explorer_bonus", "the explorer bonus"), ("mountains", "mountain routes"), ("total", "the final score"),
    ("rank", "1 = first, ties share"),
)
_declare(numbered("R_", RESULT, "RESULT_COLUMNS"))

# The header of an observation's view row (``observe.view_row``): V_PHASE ... V_ZERO, V_HEADER.
VIEW = (
    ("phase", ""), ("player", "the seat to move"), ("final_turns", ""), ("passes", ""), ("turns", ""),
    ("pile_n", ""), ("deck_n", "also the length of the deck block"), ("tickets_n", "the viewer's tickets held"),
    ("offers_n", "the viewer's tickets on offer"), ("market_n", ""), ("boxed_n", "boxed tickets the viewer saw boxed"),
    # What the observation tensor counts besides (tensor.py gathers its counts block from the row):
    ("final_round", "1 once the final round started"), ("final_left", "its turns left, 0 before it"),
    ("zero", "always 0: the tensor's padded seats"),
)
_declare(numbered("V_", VIEW, "V_HEADER"))

# The header of a determinization's plan (``determinize.deal``): P_OPPONENTS ... P_TRIES, PLAN_HEADER.
DEAL_PLAN = (
    ("opponents", "opponents (rows below)"), ("columns", "columns per opponent row"),
    ("cards", "unseen cards (the pool: opponents' unknown cards and the draw pile)"),
    ("regular", "unseen regular tickets"), ("long", "unseen long tickets"),
    ("min_longs", "the long tickets the opponents hold together: at least this many (else too few regular "
                  "tickets are left for the rest)"),
    ("max_longs", "... and at most this many"),
    ("deck_unknown", "deck positions the observer did not see filled"),
    ("boxed_known", "boxed tickets the observer knows (at the front of the boxed field)"),
    ("rejects_box", "1 when rejected tickets leave the game (unseen regular ones may be boxed)"),
    ("tries", "draws of the long-ticket counts before the fallback counts are used"),
)
_declare(numbered("P_", DEAL_PLAN, "PLAN_HEADER"))

# An opponent's row of that plan: O_SEAT ... O_WEIGHTS, then from OPPONENT_FIXED its cumulative
# weights of holding 0, 1, ... long tickets (O_CUMULATIVE, as many as O_WEIGHTS says).
OPPONENT_ROW = (
    ("seat", ""), ("hidden", "cards in its hand nobody else saw enter it"), ("held", "tickets held"),
    ("offer", "tickets on offer"), ("offer_long", "of those, long ones (still choosing its setup tickets: they come first)"),
    ("cap", "at most this many long tickets held"), ("fallback", "long tickets held when no draw fits"),
    ("weights", "entries of its cumulative weights (0: it holds none, nothing is drawn)"),
)
_row = numbered("O_", OPPONENT_ROW, "OPPONENT_FIXED")
_declare({**_row, "O_CUMULATIVE": _row["OPPONENT_FIXED"]})

# The plan of the tensor writer (``tensor.write_tensor``): the tensor's size, the map's most
# players, then each block's offset; W_SIZE ... W_OWNER, WRITER_PLAN_SIZE.
TENSOR_PLAN = (
    ("size", ""), ("seats", ""), ("hand", ""), ("market", ""), ("discard", ""), ("decks", ""), ("trains", ""),
    ("points", ""), ("hand_sizes", ""), ("ticket_counts", ""), ("offer_sizes", ""), ("known_cards", ""),
    ("num_players", ""), ("to_move", ""), ("phase", ""), ("tickets", ""), ("offered", ""), ("tickets_out", ""),
    ("owner", ""),
)
_declare(numbered("W_", TENSOR_PLAN, "WRITER_PLAN_SIZE"))
