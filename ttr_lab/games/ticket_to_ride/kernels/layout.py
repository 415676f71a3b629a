"""Where everything lives in the two flat arrays the kernels read: the game's tables and a state.

A compiled kernel takes two ``int64`` arrays, ``g`` (one game: board, ruleset, player count,
action ids) and ``s`` (one position). Two flat arrays rather than many small ones because a call
from Python pays for every argument it unboxes, and a state that is one array clones with one
copy. ``g`` starts with fixed slots (the names below): scalars, then the offsets of its tables
and of the state's fields, so a state is read as ``s[g[S_HANDS] + p * KINDS + card]``.

The state's own first slots (``PHASE`` ... ``BOXED_N``) are fixed too; its variable-length
fields follow at the offsets ``g`` names.
"""

from __future__ import annotations

KINDS = 9  # card kinds: the eight colours and the locomotive (colours.NUM_CARD_KINDS)
COLOURS = 8
LOCOMOTIVE = 8  # a card; on a track the same index means gray
GRAY = 8
NO_CARD = -1

# Phases, as ``game.Phase`` numbers them.
SETUP, TURN, SECOND, KEEP, OVER = 0, 1, 2, 3, 4

# -- the state's fixed slots ---------------------------------------------------------------------
PHASE = 0
PLAYER = 1
FINAL_TURNS = 2  # -1 until the final round starts, then the turns left in it
PASSES = 3  # passes in a row
TURNS = 4
STALLED = 5  # 1 once a full round of passes ended the game
RNG = 6  # the SplitMix64 state of the engine's shuffles (a uint64's bits)
PILE_N = 7  # cards in the draw pile (its top is the last)
MARKET_N = 8
DECK_HEAD = 9  # the ticket deck is a ring: its top at DECK_HEAD, DECK_N tickets long
DECK_N = 10
BOXED_N = 11
LAST_CARD = 12  # the card the last action showed to everyone (a market card), else NO_CARD
STATE_HEADER = 13

# -- the game's fixed slots: scalars ---------------------------------------------------------------
N_PLAYERS = 0
N_TRACKS = 1
N_CITIES = 2
N_TICKETS = 3
N_CARDS = 4
MARKET_SIZE = 5
MAX_OFFER = 6
INITIAL_HAND = 7
INITIAL_TICKETS = 8
INITIAL_LONG = 9
INITIAL_KEEP_MIN = 10
TICKET_DRAW = 11
TICKET_KEEP_MIN = 12
LOCO_LIMIT = 13
MAX_REDEALS = 14
REDEAL_MIN = 15
END_TRAINS = 16
DOUBLES_SHARED = 17
TRAINS_PER_PLAYER = 18
LONGEST_BONUS = 19
EXPLORER_BONUS = 20
REJECTS_BOX = 21
N_TIE_BREAKS = 22
TIE_BREAKS = 23  # four slots: TIE_* codes in order
HAS_MOUNTAINS = 27
ID_MARKET = 28  # action ids: draw blind is 0, then draw market 0.., tickets, pass, keeps, claims
ID_TICKETS = 29
ID_PASS = 30
ID_KEEP = 31
ID_CLAIM = 32
N_ACTIONS = 33
N_GROUPS = 34
MAX_LENGTH = 35
N_REGULAR = 36
N_LONG = 37
# -- the game's fixed slots: offsets of its tables ----------------------------------------------
T_LENGTH = 40
T_COLOUR = 41
T_FERRY = 42
T_TRAINS = 43  # trains a claim takes (length plus mountain spaces)
T_POINTS = 44
T_TWIN = 45  # the other track of a double route, -1 for none
T_CITY_A = 46
T_CITY_B = 47
T_GROUP = 48  # payment group: tracks alike in colour, length, ferry and trains
T_MOUNTAIN = 49  # mountain spaces
CLAIM_ID = 50  # [track, payment colour (8: only locomotives), locomotives] -> action id or -1
CLAIM_TRACK = 51  # per claim (action id - ID_CLAIM): track, colour, cards, locomotives
CLAIM_COLOUR = 52
CLAIM_CARDS = 53
CLAIM_LOCOS = 54
GROUP_START = 55  # per group: its first entry in GROUP_TRACKS (tracks by id), and count
GROUP_COUNT = 56
GROUP_TRACKS = 57
GROUP_LENGTH = 58
GROUP_FERRY = 59
GROUP_NEED = 60
COLOUR_GROUP_START = 61  # per track colour (gray last): its groups by length, in GROUP_ORDER
COLOUR_GROUP_COUNT = 62
GROUP_ORDER = 63
TICKET_A = 64
TICKET_B = 65
TICKET_POINTS = 66
REGULAR_TICKETS = 67  # ticket ids of the regular deck, in board order (before the shuffle)
LONG_TICKETS = 68
DECK_CARDS = 69  # the train cards in colour order (before the shuffle)
KEEP_START = 70  # [offered, minimum] -> first entry in KEEP_MASKS and count: the keep subsets
KEEP_COUNT = 71
KEEP_MASKS = 72
# -- the game's fixed slots: offsets of the state's fields ----------------------------------------
S_HANDS = 80  # [player, kind]
S_KNOWN = 81  # [player, kind]: cards publicly known to be in the hand
S_PILE = 82
S_DISCARD = 83
S_MARKET = 84
S_OWNER = 85  # per track: its owner, -1 for nobody
S_TRAINS = 86
S_POINTS = 87
S_TICKETS = 88  # [player, i]: held tickets, in the order kept
S_TICKETS_N = 89
S_OFFERS = 90  # [player, i]: tickets on offer
S_OFFERS_N = 91
S_DECK = 92  # the ticket deck's ring
S_RETURNED = 93  # per ring position: the seat that put the ticket there, -1 for none
S_BOXED = 94
S_BOXED_BY = 95
S_SIZE = 96  # the length of a state array
GAME_HEADER = 100

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

# Per-player columns of ``score_game``'s result.
R_ROUTES, R_TICKET_POINTS, R_COMPLETED, R_FAILED, R_TRAIL, R_LONGEST_BONUS = 0, 1, 2, 3, 4, 5
R_NETWORK, R_EXPLORER_BONUS, R_MOUNTAINS, R_TOTAL, R_RANK = 6, 7, 8, 9, 10
RESULT_COLUMNS = 11
