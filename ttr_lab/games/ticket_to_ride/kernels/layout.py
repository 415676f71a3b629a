"""Where everything lives in the two flat arrays the kernels read: the game's tables and a state.

A compiled kernel takes two ``int64`` arrays, ``g`` (one game: board, ruleset, player count,
action ids) and ``s`` (one position). Two flat arrays rather than many small ones because a call
from Python pays for every argument it unboxes, and a state that is one array clones with one
copy. Both are declared below, once, as named parts (``core.array_layout``): ``STATE`` (the
state's header slots, then its fields with their length rules) and ``GAME`` (``g``'s header:
scalars, the offsets of its tables, the state's length and the offset of each state field).
Every constant the kernels index with (``PHASE``, ``N_PLAYERS``, ``T_LENGTH``, ``S_HANDS``...)
is derived from them; numba compiles module globals as constants, so a kernel reads
``s[g[S_HANDS] + p * KINDS + card]`` exactly as if the numbers were typed by hand.

The derived constants are written out, one ``NAME: Final = <int>`` line each, in
``layout_constants.py`` (generated from the declarations below: ``python -m
ttr_lab.games.ticket_to_ride.kernels.regenerate``), so a reader, an IDE and the type checker find
every one of them, and a misspelt name is an error; ``tests/rules/test_state_layout.py`` fails
while that file and the declarations differ. The constants are map-independent: a header slot is
the same in every game, and what depends on the map (a field's offset, the number of tracks) is
read at run time off the game array, ``g[S_HANDS]``, ``g[N_TRACKS]``, or ``dims_of(g)``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Final

from ttr_lab.core.array_layout import ArrayLayout, Part, block_constants, numbered
from ttr_lab.core.tensor_layout import TensorLayout
from ttr_lab.games.ticket_to_ride import colours
from ttr_lab.games.ticket_to_ride.kernels.layout_constants import *  # noqa: F403 (generated, see the module doc)

# The card kinds (``KINDS``, ``COLOURS``, ``LOCOMOTIVE``, ``GRAY``) are ``colours``' numbers under the
# kernels' short names, written into the generated file like every derived constant (a number
# compiled into a kernel is then in this folder, whose sources the kernel caches are checked against).
NO_CARD: Final = -1


class Phase(IntEnum):
    """What the current player is doing (the state's ``phase`` slot)."""

    INITIAL_TICKETS = 0  # setup: choose which dealt tickets to keep
    TURN = 1  # the start of a turn: draw, claim or take tickets
    SECOND_DRAW = 2  # the second card of a draw-cards turn
    KEEP_TICKETS = 3  # choose which drawn tickets to keep
    OVER = 4
    # After OVER, so the phases before keep their numbers: a tunnel claim's cards are turned
    # over and ask for more; the same player pays the extra cards or declines.
    TUNNEL = 5


# The phases under the kernels' short names, as plain ints: numba compiles an int global as a
# constant, where an enum member would be typed as an enum.
SETUP: Final = int(Phase.INITIAL_TICKETS)
TURN: Final = int(Phase.TURN)
SECOND: Final = int(Phase.SECOND_DRAW)
KEEP: Final = int(Phase.KEEP_TICKETS)
OVER: Final = int(Phase.OVER)
TUNNEL: Final = int(Phase.TUNNEL)

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
        Part("tunnel_claim", (1,), "the claim (its action id less ID_CLAIM) of a tunnel waiting for its extra cards, "
             "else -1; its payment is laid down, out of the hand", "scalar", fill=-1),
        Part("tunnel_extra", (1,), "the extra cards that tunnel asks (0 when none waits)", "scalar"),
        Part("revealed_n", (1,), "cards in revealed", "internal"),
    ),
    body=(
        Part("hands", ("players", colours.NUM_CARD_KINDS), "every hand: ``hands[p * 9 + kind]`` cards of that kind"),
        Part("known", ("players", colours.NUM_CARD_KINDS), "cards each player is publicly known to hold, as ``hands``"),
        Part("pile", ("cards",), "the draw pile, card kinds, top last", "counted", "pile_n"),
        Part("discard", (colours.NUM_CARD_KINDS,), "the discard pile, a count per kind"),
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
        Part("revealed", ("reveal",), "the cards the waiting tunnel claim turned over (public; discarded once it is "
             "paid or declined)", "counted", "revealed_n"),
        Part("tunnels", ("players", 3), "per player, its last tunnel claim: track, extra cards asked, extra cards "
             "paid (-1: declined); all -1 before its first", fill=-1),
        # Train stations: empty on a map without them (their dimensions are then 0).
        Part("stations", ("station_cities",), "per city, the seat whose train station stands there, or -1",
             fill=-1),
        Part("stations_built", ("station_players",), "per player, train stations built"),
    ),
)

# -- the game array's header, declared: scalars, the offsets of its tables and of the state's fields
_GAME_SCALARS_AND_TABLES = (
    ("n_players", 1, ""), ("n_tracks", 1, ""), ("n_cities", 1, ""), ("n_tickets", 1, ""), ("n_cards", 1, ""),
    ("market_size", 1, ""), ("max_offer", 1, ""), ("initial_hand", 1, ""), ("initial_tickets", 1, ""),
    ("initial_long", 1, ""), ("initial_keep_min", 1, ""), ("ticket_draw", 1, ""), ("ticket_keep_min", 1, ""),
    ("loco_limit", 1, ""), ("max_redeals", 1, ""), ("redeal_min", 1, ""), ("end_trains", 1, ""),
    ("doubles_shared", 1, ""), ("trains_per_player", 1, ""), ("longest_bonus", 1, ""), ("explorer_bonus", 1, ""),
    ("rejects_box", 1, ""), ("n_tie_breaks", 1, ""),
    ("tie_breaks", 6, "TIE_* codes in order (every TieBreak at most once)"),
    ("has_mountains", 1, ""),
    ("id_market", 1, "action ids: draw blind is 0, then draw market 0.., tickets, pass, keeps, stations, claims"),
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
    ("globetrotter_bonus", 1, "to everyone tied for the most completed tickets (at least one)"),
    ("grand_tour", 1, "the Grand Tour bonus by qualifying tickets (the last entry: that many or more)"),
    ("n_grand_tour", 1, "its entries; 0: no Grand Tour"),
    # Tunnels: how many cards a claim turns over (0 on a map without tunnels), the first id of
    # the tunnel decisions (extra payments by cards asked then locomotives, then decline; none
    # on a map without tunnels, so the claims' ids do not move), and their tables.
    ("tunnel_reveal", 1, ""), ("id_tunnel", 1, ""), ("id_decline", 1, ""), ("t_tunnel", 1, "1 for a tunnel"),
    ("pay_id", 1, "[extra cards asked * (TUNNEL_REVEAL + 1) + locomotives] -> the extra payment's action id"),
    ("pay_cards", 1, "per extra payment (action id - ID_TUNNEL): cards of the claim's colour, and locomotives"),
    ("pay_locos", 1, ""),
    # Train stations (all 0 and empty tables when the ruleset has none).
    ("stations_per_player", 1, ""), ("station_points", 1, "points per station not built"),
    ("station_cities", 1, "the stations field's length: N_CITIES with stations, else 0"),
    ("station_players", 1, "the stations_built field's length: N_PLAYERS with stations, else 0"),
    ("max_station_cost", 1, ""),
    ("id_station", 1, "the first station build's action id (ID_CLAIM when there are none)"),
    ("station_costs", 1, "per station already built (0, 1, ...): the cards the next one costs"),
    ("station_id", 1, "[city, cost, payment colour (8: only locomotives), locomotives] -> action id or -1"),
    ("station_city", 1, "per station build (action id - ID_STATION): city, colour, cards, locomotives"),
    ("station_colour", 1, ""), ("station_cards", 1, ""), ("station_locos", 1, ""),
)


def game_layout(state: ArrayLayout) -> TensorLayout:
    """The game array's header for a state declared as ``state``: its scalars and table offsets,
    then the state's length (``S_SIZE``) and one slot per state field (``S_HANDS``...)."""
    return TensorLayout(_GAME_SCALARS_AND_TABLES + tuple(state.offset_slots()))


GAME = game_layout(STATE)

# The dimensions of the state's length rules, as the game array holds them: a game's offsets are
# read off its own array (``dims_of``), and a kernel finds a row's width there (``row_width``).
DIM_SLOTS = {
    "players": GAME.offsets["n_players"], "cards": GAME.offsets["n_cards"], "market": GAME.offsets["market_size"],
    "tracks": GAME.offsets["n_tracks"], "tickets": GAME.offsets["n_tickets"], "offer": GAME.offsets["max_offer"],
    "reveal": GAME.offsets["tunnel_reveal"],
    "station_cities": GAME.offsets["station_cities"], "station_players": GAME.offsets["station_players"],
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


# Tie-break codes (``Ruleset.tie_breaks``).
TIE_TICKETS: Final = 0
TIE_LONGEST: Final = 1
TIE_EXPLORER: Final = 2
TIE_MOUNTAINS: Final = 3
TIE_STATIONS: Final = 4
TIE_GLOBETROTTER: Final = 5

# Refusal codes of ``apply_action`` (0: applied); the face turns each into the rule's message.
OK: Final = 0
E_PHASE: Final = 1  # not an action of this phase
E_NO_ACTION: Final = 2  # not an action id of this game
E_TRACK_TAKEN: Final = 3
E_DOUBLE_CLOSED: Final = 4  # with few players only one track of a double route
E_DOUBLE_SELF: Final = 5  # a player may not hold both tracks of a double route
E_CARDS: Final = 6  # the hand lacks the cards
E_LOCOS: Final = 7  # the hand lacks the locomotives
E_TRAINS: Final = 8  # too few trains
E_PILE_EMPTY: Final = 9  # draw pile and discard both empty
E_NO_SLOT: Final = 10  # no card in that market slot
E_SECOND_LOCO: Final = 11  # a face-up locomotive as the second card
E_DECK_EMPTY: Final = 12  # no ticket to draw
E_KEEP_RANGE: Final = 13  # a kept index beyond the offer
E_KEEP_FEW: Final = 14  # too few tickets kept
E_PASS: Final = 15  # passing while something else is legal
E_TUNNEL_EXTRA: Final = 16  # an extra payment of another size than the tunnel asks
E_TUNNEL_LOCOS: Final = 17  # a tunnel paid with locomotives only asks locomotives only
E_NO_STATION: Final = 18  # no station left to build
E_CITY_TAKEN: Final = 19  # the city already holds a station
E_STATION_COST: Final = 20  # the payment is not the cost of the player's next station

# -- the kernels' smaller arrays of one number per entry, declared in order (``numbered``) -------

# Per-player columns of ``score_game``'s result: R_ROUTES ... R_RANK, and RESULT_COLUMNS.
RESULT = (
    ("routes", "route points"), ("ticket_points", "ticket points, completed less failed"),
    ("completed", "tickets completed"), ("failed", "tickets failed"), ("trail", "the longest trail's length"),
    ("longest_bonus", "the longest-trail bonus"), ("network", "the largest network's cities"),
    ("explorer_bonus", "the explorer bonus"), ("mountains", "mountain routes"), ("total", "the final score"),
    ("rank", "1 = first, ties share"),
    ("globetrotter_bonus", "the Globetrotter bonus"),
    ("grand_tour_tickets", "tickets joined by two paths of own tracks with no track in common"),
    ("grand_tour_bonus", "the Grand Tour bonus"),
    ("stations_built", "train stations built"), ("station_points", "points for the stations not built"),
)

# The header of an observation's view row (``observe.view_row``): V_PHASE ... V_ZERO, V_HEADER.
VIEW = (
    ("phase", ""), ("player", "the seat to move"), ("final_turns", ""), ("passes", ""), ("turns", ""),
    ("pile_n", ""), ("deck_n", "also the length of the deck block"), ("tickets_n", "the viewer's tickets held"),
    ("offers_n", "the viewer's tickets on offer"), ("market_n", ""), ("boxed_n", "boxed tickets the viewer saw boxed"),
    # What the observation tensor counts besides (tensor.py gathers its counts block from the row):
    ("final_round", "1 once the final round started"), ("final_left", "its turns left, 0 before it"),
    ("zero", "always 0: the tensor's padded seats"),
    # The waiting tunnel claim (public): its claim or -1, the extra cards asked, the cards turned
    # over (a block after the boxed tickets).
    ("tunnel_claim", ""), ("tunnel_extra", ""), ("revealed_n", ""),
)

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

# An opponent's row of that plan: O_SEAT ... O_WEIGHTS, then from OPPONENT_FIXED its cumulative
# weights of holding 0, 1, ... long tickets (O_CUMULATIVE, as many as O_WEIGHTS says).
OPPONENT_ROW = (
    ("seat", ""), ("hidden", "cards in its hand nobody else saw enter it"), ("held", "tickets held"),
    ("offer", "tickets on offer"), ("offer_long", "of those, long ones (still choosing its setup tickets: they come first)"),
    ("cap", "at most this many long tickets held"), ("fallback", "long tickets held when no draw fits"),
    ("weights", "entries of its cumulative weights (0: it holds none, nothing is drawn)"),
)

# The plan of the tensor writer (``tensor.write_tensor``): the tensor's size, the map's most
# players, then each block's offset; W_SIZE ... W_OWNER, WRITER_PLAN_SIZE.
TENSOR_PLAN = (
    ("size", ""), ("seats", ""), ("hand", ""), ("market", ""), ("discard", ""), ("decks", ""), ("trains", ""),
    ("points", ""), ("hand_sizes", ""), ("ticket_counts", ""), ("offer_sizes", ""), ("known_cards", ""),
    ("num_players", ""), ("to_move", ""), ("phase", ""), ("tickets", ""), ("offered", ""), ("tickets_out", ""),
    ("owner", ""), ("tunnel", "the tunnel block, on a map with tunnels (else the tensor's size)"),
    ("station_counts", "-1 where the ruleset has no stations (the tensor has no such block)"), ("stations", ""),
)


# -- the constants derived from the declarations above, as ``layout_constants.py`` states them ----


def derived_constants() -> list[tuple[str, list[tuple[str, int, str]]]]:
    """Every constant derived from the declarations above, ``(name, value, meaning)``, in
    sections titled by what they index: what ``layout_constants.py`` must say."""
    def parts(declared: dict[str, int], meanings: dict[str, str]) -> list[tuple[str, int, str]]:
        return [(name, value, meanings.get(name, "")) for name, value in declared.items()]

    def entries(prefix: str, declared: tuple[tuple[str, str], ...], size: str, size_meaning: str
                ) -> list[tuple[str, int, str]]:
        meanings = {f"{prefix}{name}".upper(): meaning for name, meaning in declared}
        # The size after the entries, never merged with them: an entry named like it is a clash.
        return parts(numbered(prefix, declared), meanings) + [(size, len(declared), size_meaning)]

    game_meanings = {name.upper(): meaning for name, _, meaning in GAME.blocks}
    opponent = entries("O_", OPPONENT_ROW, "OPPONENT_FIXED", "the fixed columns of a row")
    sections = [
        ("the card kinds, as ``colours.py`` numbers them, under the kernels' short names", [
            ("KINDS", colours.NUM_CARD_KINDS, "card kinds: the eight colours and the locomotive"),
            ("COLOURS", colours.NUM_COLOURS, "train colours"),
            ("LOCOMOTIVE", colours.LOCOMOTIVE, "a card; on a track the same index is GRAY"),
            ("GRAY", colours.GRAY, "a track payable with any one colour")]),
        ("the state array's header slots (``STATE.header``)",
         parts(STATE.constants(), {p.name.upper(): p.meaning for p in STATE.header})
         + [("STATE_HEADER", STATE.header_size, "the header's length")]),
        ("the game array's header (``GAME``): scalars, table offsets, the state's length and field offsets",
         parts(block_constants(GAME), game_meanings) + [("GAME_HEADER", GAME.size, "the header's length")]),
        ("the columns of ``score_game``'s result (``RESULT``)",
         entries("R_", RESULT, "RESULT_COLUMNS", "columns per player")),
        ("an observation's view row (``VIEW``)", entries("V_", VIEW, "V_HEADER", "the header's length")),
        ("a determinization's plan (``DEAL_PLAN``)", entries("P_", DEAL_PLAN, "PLAN_HEADER", "the header's length")),
        ("an opponent's row of that plan (``OPPONENT_ROW``)",
         opponent + [("O_CUMULATIVE", len(OPPONENT_ROW), "its cumulative weights start here")]),
        ("the tensor writer's plan (``TENSOR_PLAN``)",
         entries("W_", TENSOR_PLAN, "WRITER_PLAN_SIZE", "the plan's length")),
    ]
    seen: set[str] = set()
    for _, constants in sections:
        for name, _, _ in constants:
            if name in seen:
                raise ValueError(f"kernels.layout declares {name} twice")
            seen.add(name)
    return sections


def constants_source() -> str:
    """The text of ``layout_constants.py``: every derived constant as a ``NAME: Final = <int>`` line."""
    lines = [
        '"""The kernels\' constants derived from the declarations of ``kernels/layout.py``.',
        "",
        "GENERATED: do not edit. After changing a declaration there, regenerate this file with",
        "``python -m ttr_lab.games.ticket_to_ride.kernels.regenerate``; a test fails while the two differ.",
        "Import them through ``kernels.layout`` (``L.S_HANDS``), which holds the declarations too.",
        '"""',
        "",
        "from typing import Final",
    ]
    names: list[str] = []
    for title, constants in derived_constants():
        lines += ["", f"# -- {title}"]
        for name, value, meaning in constants:
            names.append(name)
            lines.append(f"{name}: Final = {value}" + (f"  # {meaning}" if meaning else ""))
    lines += ["", "__all__ = ["]
    lines += [f"    {name!r}," for name in names]
    lines += ["]", ""]
    return "\n".join(lines)
