"""One package per game, each implementing the core's game protocol.

The catalogue of the games shipped with ttr-lab. The shared layers (core, analysis, tournament,
tuning, benchmarks, command line) name no game: what they need to know of one, they read here
or from the game itself (its config shorthands are data on its ``Game``: ``config_shorthands``).
"""

# The shipped games, the house game first: a config or a command that names no game plays it.
INSTALLED = ("ticket_to_ride", "trans_orient")
DEFAULT = INSTALLED[0]

# Records of format 1 were written before a record named its game; they are all of this one.
FORMAT_1_GAME = "ticket_to_ride"

# What each benchmark measures, as (game, options): the strength ladder, the reference agents
# and the engine figures are Ticket to Ride's base game; the environment bench covers each game.
BENCHMARKED: dict[str, tuple[tuple[str, dict[str, str]], ...]] = {
    "engine": (("ticket_to_ride", {"map": "usa"}),),
    "strength": (("ticket_to_ride", {"map": "usa"}),),
    "env": (("ticket_to_ride", {"map": "usa"}), ("trans_orient", {})),
    # The batched environments (they run on compiled kernels: Ticket to Ride's).
    "batched": (("ticket_to_ride", {"map": "usa"}),),
    # The ticket planner's decision speed (both maps) and play-out speed (the first).
    "planner": (("ticket_to_ride", {"map": "usa"}), ("ticket_to_ride", {"map": "legendary_asia"})),
}
