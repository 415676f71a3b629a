"""The kernels' constants derived from the declarations of ``kernels/layout.py``.

GENERATED: do not edit. After changing a declaration there, regenerate this file with
``python -m ttr_lab.games.ticket_to_ride.kernels.regenerate``; a test fails while the two differ.
Import them through ``kernels.layout`` (``L.S_HANDS``), which holds the declarations too.
"""

from typing import Final

# -- the card kinds, as ``colours.py`` numbers them, under the kernels' short names
KINDS: Final = 9  # card kinds: the eight colours and the locomotive
COLOURS: Final = 8  # train colours
LOCOMOTIVE: Final = 8  # a card; on a track the same index is GRAY
GRAY: Final = 8  # a track payable with any one colour

# -- the state array's header slots (``STATE.header``)
PHASE: Final = 0  # the phase number (``Phase``)
PLAYER: Final = 1  # the seat to move
FINAL_TURNS: Final = 2  # -1 until the final round starts, then the turns left in it
PASSES: Final = 3  # passes in a row
TURNS: Final = 4  # normal turns played
STALLED: Final = 5  # 1 once a full round of passes ended the game
RNG: Final = 6  # the SplitMix64 state of the engine's shuffles (a uint64's bits)
PILE_N: Final = 7  # cards in the draw pile (its top is the last)
MARKET_N: Final = 8  # cards in the market
DECK_HEAD: Final = 9  # the ticket deck is a ring: its top at DECK_HEAD
DECK_N: Final = 10  # tickets in the ticket deck
BOXED_N: Final = 11  # tickets out of the game
LAST_CARD: Final = 12  # the card the last action showed to everyone (a market card), else NO_CARD
TUNNEL_CLAIM: Final = 13  # the claim (its action id less ID_CLAIM) of a tunnel waiting for its extra cards, else -1; its payment is laid down, out of the hand
TUNNEL_EXTRA: Final = 14  # the extra cards that tunnel asks (0 when none waits)
REVEALED_N: Final = 15  # cards in revealed
STATE_HEADER: Final = 16  # the header's length

# -- the game array's header (``GAME``): scalars, table offsets, the state's length and field offsets
N_PLAYERS: Final = 0
N_TRACKS: Final = 1
N_CITIES: Final = 2
N_TICKETS: Final = 3
N_CARDS: Final = 4
MARKET_SIZE: Final = 5
MAX_OFFER: Final = 6
INITIAL_HAND: Final = 7
INITIAL_TICKETS: Final = 8
INITIAL_LONG: Final = 9
INITIAL_KEEP_MIN: Final = 10
TICKET_DRAW: Final = 11
TICKET_KEEP_MIN: Final = 12
LOCO_LIMIT: Final = 13
MAX_REDEALS: Final = 14
REDEAL_MIN: Final = 15
END_TRAINS: Final = 16
DOUBLES_SHARED: Final = 17
TRAINS_PER_PLAYER: Final = 18
LONGEST_BONUS: Final = 19
EXPLORER_BONUS: Final = 20
REJECTS_BOX: Final = 21
N_TIE_BREAKS: Final = 22
TIE_BREAKS: Final = 23  # TIE_* codes in order (every TieBreak at most once)
HAS_MOUNTAINS: Final = 29
ID_MARKET: Final = 30  # action ids: draw blind is 0, then draw market 0.., tickets, pass, keeps, stations, claims
ID_TICKETS: Final = 31
ID_PASS: Final = 32
ID_KEEP: Final = 33
ID_CLAIM: Final = 34
N_ACTIONS: Final = 35
N_GROUPS: Final = 36
MAX_LENGTH: Final = 37
N_REGULAR: Final = 38
N_LONG: Final = 39
T_LENGTH: Final = 40
T_COLOUR: Final = 41
T_FERRY: Final = 42
T_TRAINS: Final = 43  # trains a claim takes (length plus mountain spaces)
T_POINTS: Final = 44
T_TWIN: Final = 45  # the other track of a double route, -1 for none
T_CITY_A: Final = 46
T_CITY_B: Final = 47
T_GROUP: Final = 48  # payment group: tracks alike in colour, length, ferry and trains
T_MOUNTAIN: Final = 49  # mountain spaces
CLAIM_ID: Final = 50  # [track, payment colour (8: only locomotives), locomotives] -> action id or -1
CLAIM_TRACK: Final = 51  # per claim (action id - ID_CLAIM): track, colour, cards, locomotives
CLAIM_COLOUR: Final = 52
CLAIM_CARDS: Final = 53
CLAIM_LOCOS: Final = 54
GROUP_START: Final = 55  # per group: its first entry in GROUP_TRACKS (tracks by id), and count
GROUP_COUNT: Final = 56
GROUP_TRACKS: Final = 57
GROUP_LENGTH: Final = 58
GROUP_FERRY: Final = 59
GROUP_NEED: Final = 60
COLOUR_GROUP_START: Final = 61  # per track colour (gray last): its groups by length, in GROUP_ORDER
COLOUR_GROUP_COUNT: Final = 62
GROUP_ORDER: Final = 63
TICKET_A: Final = 64
TICKET_B: Final = 65
TICKET_POINTS: Final = 66
REGULAR_TICKETS: Final = 67  # ticket ids of the regular deck, in board order (before the shuffle)
LONG_TICKETS: Final = 68
DECK_CARDS: Final = 69  # the train cards in colour order (before the shuffle)
KEEP_START: Final = 70  # [offered, minimum] -> first entry in KEEP_MASKS and count: the keep subsets
KEEP_COUNT: Final = 71
KEEP_MASKS: Final = 72
GLOBETROTTER_BONUS: Final = 73  # to everyone tied for the most completed tickets (at least one)
GRAND_TOUR: Final = 74  # the Grand Tour bonus by qualifying tickets (the last entry: that many or more)
N_GRAND_TOUR: Final = 75  # its entries; 0: no Grand Tour
TUNNEL_REVEAL: Final = 76
ID_TUNNEL: Final = 77
ID_DECLINE: Final = 78
T_TUNNEL: Final = 79  # 1 for a tunnel
PAY_ID: Final = 80  # [extra cards asked * (TUNNEL_REVEAL + 1) + locomotives] -> the extra payment's action id
PAY_CARDS: Final = 81  # per extra payment (action id - ID_TUNNEL): cards of the claim's colour, and locomotives
PAY_LOCOS: Final = 82
STATIONS_PER_PLAYER: Final = 83
STATION_POINTS: Final = 84  # points per station not built
STATION_CITIES: Final = 85  # the stations field's length: N_CITIES with stations, else 0
STATION_PLAYERS: Final = 86  # the stations_built field's length: N_PLAYERS with stations, else 0
MAX_STATION_COST: Final = 87
ID_STATION: Final = 88  # the first station build's action id (ID_CLAIM when there are none)
STATION_COSTS: Final = 89  # per station already built (0, 1, ...): the cards the next one costs
STATION_ID: Final = 90  # [city, cost, payment colour (8: only locomotives), locomotives] -> action id or -1
STATION_CITY: Final = 91  # per station build (action id - ID_STATION): city, colour, cards, locomotives
STATION_COLOUR: Final = 92
STATION_CARDS: Final = 93
STATION_LOCOS: Final = 94
S_SIZE: Final = 95  # the length of the array
S_HANDS: Final = 96  # where hands starts
S_KNOWN: Final = 97  # where known starts
S_PILE: Final = 98  # where pile starts
S_DISCARD: Final = 99  # where discard starts
S_MARKET: Final = 100  # where market starts
S_OWNER: Final = 101  # where owner starts
S_TRAINS: Final = 102  # where trains starts
S_POINTS: Final = 103  # where points starts
S_TICKETS: Final = 104  # where tickets starts
S_TICKETS_N: Final = 105  # where tickets_n starts
S_OFFERS: Final = 106  # where offers starts
S_OFFERS_N: Final = 107  # where offers_n starts
S_DECK: Final = 108  # where deck starts
S_RETURNED: Final = 109  # where returned starts
S_BOXED: Final = 110  # where boxed starts
S_BOXED_BY: Final = 111  # where boxed_by starts
S_REVEALED: Final = 112  # where revealed starts
S_TUNNELS: Final = 113  # where tunnels starts
S_STATIONS: Final = 114  # where stations starts
S_STATIONS_BUILT: Final = 115  # where stations_built starts
GAME_HEADER: Final = 116  # the header's length

# -- the columns of ``score_game``'s result (``RESULT``)
R_ROUTES: Final = 0  # route points
R_TICKET_POINTS: Final = 1  # ticket points, completed less failed
R_COMPLETED: Final = 2  # tickets completed
R_FAILED: Final = 3  # tickets failed
R_TRAIL: Final = 4  # the longest trail's length
R_LONGEST_BONUS: Final = 5  # the longest-trail bonus
R_NETWORK: Final = 6  # the largest network's cities
R_EXPLORER_BONUS: Final = 7  # the explorer bonus
R_MOUNTAINS: Final = 8  # mountain routes
R_TOTAL: Final = 9  # the final score
R_RANK: Final = 10  # 1 = first, ties share
R_GLOBETROTTER_BONUS: Final = 11  # the Globetrotter bonus
R_GRAND_TOUR_TICKETS: Final = 12  # tickets joined by two paths of own tracks with no track in common
R_GRAND_TOUR_BONUS: Final = 13  # the Grand Tour bonus
R_STATIONS_BUILT: Final = 14  # train stations built
R_STATION_POINTS: Final = 15  # points for the stations not built
RESULT_COLUMNS: Final = 16  # columns per player

# -- an observation's view row (``VIEW``)
V_PHASE: Final = 0
V_PLAYER: Final = 1  # the seat to move
V_FINAL_TURNS: Final = 2
V_PASSES: Final = 3
V_TURNS: Final = 4
V_PILE_N: Final = 5
V_DECK_N: Final = 6  # also the length of the deck block
V_TICKETS_N: Final = 7  # the viewer's tickets held
V_OFFERS_N: Final = 8  # the viewer's tickets on offer
V_MARKET_N: Final = 9
V_BOXED_N: Final = 10  # boxed tickets the viewer saw boxed
V_FINAL_ROUND: Final = 11  # 1 once the final round started
V_FINAL_LEFT: Final = 12  # its turns left, 0 before it
V_ZERO: Final = 13  # always 0: the tensor's padded seats
V_TUNNEL_CLAIM: Final = 14
V_TUNNEL_EXTRA: Final = 15
V_REVEALED_N: Final = 16
V_HEADER: Final = 17  # the header's length

# -- a determinization's plan (``DEAL_PLAN``)
P_OPPONENTS: Final = 0  # opponents (rows below)
P_COLUMNS: Final = 1  # columns per opponent row
P_CARDS: Final = 2  # unseen cards (the pool: opponents' unknown cards and the draw pile)
P_REGULAR: Final = 3  # unseen regular tickets
P_LONG: Final = 4  # unseen long tickets
P_MIN_LONGS: Final = 5  # the long tickets the opponents hold together: at least this many (else too few regular tickets are left for the rest)
P_MAX_LONGS: Final = 6  # ... and at most this many
P_DECK_UNKNOWN: Final = 7  # deck positions the observer did not see filled
P_BOXED_KNOWN: Final = 8  # boxed tickets the observer knows (at the front of the boxed field)
P_REJECTS_BOX: Final = 9  # 1 when rejected tickets leave the game (unseen regular ones may be boxed)
P_TRIES: Final = 10  # draws of the long-ticket counts before the fallback counts are used
PLAN_HEADER: Final = 11  # the header's length

# -- an opponent's row of that plan (``OPPONENT_ROW``)
O_SEAT: Final = 0
O_HIDDEN: Final = 1  # cards in its hand nobody else saw enter it
O_HELD: Final = 2  # tickets held
O_OFFER: Final = 3  # tickets on offer
O_OFFER_LONG: Final = 4  # of those, long ones (still choosing its setup tickets: they come first)
O_CAP: Final = 5  # at most this many long tickets held
O_FALLBACK: Final = 6  # long tickets held when no draw fits
O_WEIGHTS: Final = 7  # entries of its cumulative weights (0: it holds none, nothing is drawn)
OPPONENT_FIXED: Final = 8  # the fixed columns of a row
O_CUMULATIVE: Final = 8  # its cumulative weights start here

# -- the tensor writer's plan (``TENSOR_PLAN``)
W_SIZE: Final = 0
W_SEATS: Final = 1
W_HAND: Final = 2
W_MARKET: Final = 3
W_DISCARD: Final = 4
W_DECKS: Final = 5
W_TRAINS: Final = 6
W_POINTS: Final = 7
W_HAND_SIZES: Final = 8
W_TICKET_COUNTS: Final = 9
W_OFFER_SIZES: Final = 10
W_KNOWN_CARDS: Final = 11
W_NUM_PLAYERS: Final = 12
W_TO_MOVE: Final = 13
W_PHASE: Final = 14
W_TICKETS: Final = 15
W_OFFERED: Final = 16
W_TICKETS_OUT: Final = 17
W_OWNER: Final = 18
W_TUNNEL: Final = 19  # the tunnel block, on a map with tunnels (else the tensor's size)
W_STATION_COUNTS: Final = 20  # -1 where the ruleset has no stations (the tensor has no such block)
W_STATIONS: Final = 21
WRITER_PLAN_SIZE: Final = 22  # the plan's length

__all__ = [
    'KINDS',
    'COLOURS',
    'LOCOMOTIVE',
    'GRAY',
    'PHASE',
    'PLAYER',
    'FINAL_TURNS',
    'PASSES',
    'TURNS',
    'STALLED',
    'RNG',
    'PILE_N',
    'MARKET_N',
    'DECK_HEAD',
    'DECK_N',
    'BOXED_N',
    'LAST_CARD',
    'TUNNEL_CLAIM',
    'TUNNEL_EXTRA',
    'REVEALED_N',
    'STATE_HEADER',
    'N_PLAYERS',
    'N_TRACKS',
    'N_CITIES',
    'N_TICKETS',
    'N_CARDS',
    'MARKET_SIZE',
    'MAX_OFFER',
    'INITIAL_HAND',
    'INITIAL_TICKETS',
    'INITIAL_LONG',
    'INITIAL_KEEP_MIN',
    'TICKET_DRAW',
    'TICKET_KEEP_MIN',
    'LOCO_LIMIT',
    'MAX_REDEALS',
    'REDEAL_MIN',
    'END_TRAINS',
    'DOUBLES_SHARED',
    'TRAINS_PER_PLAYER',
    'LONGEST_BONUS',
    'EXPLORER_BONUS',
    'REJECTS_BOX',
    'N_TIE_BREAKS',
    'TIE_BREAKS',
    'HAS_MOUNTAINS',
    'ID_MARKET',
    'ID_TICKETS',
    'ID_PASS',
    'ID_KEEP',
    'ID_CLAIM',
    'N_ACTIONS',
    'N_GROUPS',
    'MAX_LENGTH',
    'N_REGULAR',
    'N_LONG',
    'T_LENGTH',
    'T_COLOUR',
    'T_FERRY',
    'T_TRAINS',
    'T_POINTS',
    'T_TWIN',
    'T_CITY_A',
    'T_CITY_B',
    'T_GROUP',
    'T_MOUNTAIN',
    'CLAIM_ID',
    'CLAIM_TRACK',
    'CLAIM_COLOUR',
    'CLAIM_CARDS',
    'CLAIM_LOCOS',
    'GROUP_START',
    'GROUP_COUNT',
    'GROUP_TRACKS',
    'GROUP_LENGTH',
    'GROUP_FERRY',
    'GROUP_NEED',
    'COLOUR_GROUP_START',
    'COLOUR_GROUP_COUNT',
    'GROUP_ORDER',
    'TICKET_A',
    'TICKET_B',
    'TICKET_POINTS',
    'REGULAR_TICKETS',
    'LONG_TICKETS',
    'DECK_CARDS',
    'KEEP_START',
    'KEEP_COUNT',
    'KEEP_MASKS',
    'GLOBETROTTER_BONUS',
    'GRAND_TOUR',
    'N_GRAND_TOUR',
    'TUNNEL_REVEAL',
    'ID_TUNNEL',
    'ID_DECLINE',
    'T_TUNNEL',
    'PAY_ID',
    'PAY_CARDS',
    'PAY_LOCOS',
    'STATIONS_PER_PLAYER',
    'STATION_POINTS',
    'STATION_CITIES',
    'STATION_PLAYERS',
    'MAX_STATION_COST',
    'ID_STATION',
    'STATION_COSTS',
    'STATION_ID',
    'STATION_CITY',
    'STATION_COLOUR',
    'STATION_CARDS',
    'STATION_LOCOS',
    'S_SIZE',
    'S_HANDS',
    'S_KNOWN',
    'S_PILE',
    'S_DISCARD',
    'S_MARKET',
    'S_OWNER',
    'S_TRAINS',
    'S_POINTS',
    'S_TICKETS',
    'S_TICKETS_N',
    'S_OFFERS',
    'S_OFFERS_N',
    'S_DECK',
    'S_RETURNED',
    'S_BOXED',
    'S_BOXED_BY',
    'S_REVEALED',
    'S_TUNNELS',
    'S_STATIONS',
    'S_STATIONS_BUILT',
    'GAME_HEADER',
    'R_ROUTES',
    'R_TICKET_POINTS',
    'R_COMPLETED',
    'R_FAILED',
    'R_TRAIL',
    'R_LONGEST_BONUS',
    'R_NETWORK',
    'R_EXPLORER_BONUS',
    'R_MOUNTAINS',
    'R_TOTAL',
    'R_RANK',
    'R_GLOBETROTTER_BONUS',
    'R_GRAND_TOUR_TICKETS',
    'R_GRAND_TOUR_BONUS',
    'R_STATIONS_BUILT',
    'R_STATION_POINTS',
    'RESULT_COLUMNS',
    'V_PHASE',
    'V_PLAYER',
    'V_FINAL_TURNS',
    'V_PASSES',
    'V_TURNS',
    'V_PILE_N',
    'V_DECK_N',
    'V_TICKETS_N',
    'V_OFFERS_N',
    'V_MARKET_N',
    'V_BOXED_N',
    'V_FINAL_ROUND',
    'V_FINAL_LEFT',
    'V_ZERO',
    'V_TUNNEL_CLAIM',
    'V_TUNNEL_EXTRA',
    'V_REVEALED_N',
    'V_HEADER',
    'P_OPPONENTS',
    'P_COLUMNS',
    'P_CARDS',
    'P_REGULAR',
    'P_LONG',
    'P_MIN_LONGS',
    'P_MAX_LONGS',
    'P_DECK_UNKNOWN',
    'P_BOXED_KNOWN',
    'P_REJECTS_BOX',
    'P_TRIES',
    'PLAN_HEADER',
    'O_SEAT',
    'O_HIDDEN',
    'O_HELD',
    'O_OFFER',
    'O_OFFER_LONG',
    'O_CAP',
    'O_FALLBACK',
    'O_WEIGHTS',
    'OPPONENT_FIXED',
    'O_CUMULATIVE',
    'W_SIZE',
    'W_SEATS',
    'W_HAND',
    'W_MARKET',
    'W_DISCARD',
    'W_DECKS',
    'W_TRAINS',
    'W_POINTS',
    'W_HAND_SIZES',
    'W_TICKET_COUNTS',
    'W_OFFER_SIZES',
    'W_KNOWN_CARDS',
    'W_NUM_PLAYERS',
    'W_TO_MOVE',
    'W_PHASE',
    'W_TICKETS',
    'W_OFFERED',
    'W_TICKETS_OUT',
    'W_OWNER',
    'W_TUNNEL',
    'W_STATION_COUNTS',
    'W_STATIONS',
    'WRITER_PLAN_SIZE',
]
