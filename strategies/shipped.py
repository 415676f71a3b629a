"""The shipped strategies by registered name, one table per game (``ttr_lab.core.registry``
reads them; any ``package.module:Class`` import path works too).

Every game lists its own, under its registered name, with the same names where the idea is the
same: ``greedy`` is Trans-Orient Express's greedy player in a ``trans_orient`` tournament and
Ticket to Ride's in a ``ticket_to_ride`` one. A game with no table here has no shipped names.

A ``Preset`` is a shipped strategy that is another with some parameters fixed (a frozen
configuration kept as a yardstick, or a search with another prior): one line here, checked by the
registry against its base's signature."""

from ttr_lab.core.registry import Preset

_MCTS = "ttr_lab.strategies.ticket_to_ride.search.mcts:MCTS"
_HALVING = "ttr_lab.strategies.ticket_to_ride.search.mcts_halving:HalvingSearch"
_BUDGET = ("iterations", "steps", "time_ms", "cpu_ms")

TICKET_TO_RIDE: dict[str, str | Preset] = {
    "random": "ttr_lab.strategies.random:Random",
    "greedy": "ttr_lab.strategies.ticket_to_ride.greedy:Greedy",
    "ticket_planner": "ttr_lab.strategies.ticket_to_ride.ticket_planner:TicketPlanner",
    "compiled_planner": Preset(
        "ttr_lab.strategies.ticket_to_ride.ticket_planner:TicketPlanner",
        defaults={"plan_orders": 1, "keep_orders": 1}, tunable={},  # tuned as ticket_planner's
        about="The ticket planner with the search's play-out settings (one ticket order tried): the "
              "games the planner plays inside mcts's play-outs, to watch and measure on their own."),
    "mcts": _MCTS,
    "mcts_classic": Preset(
        _MCTS, fixed={"playout": "python", "tree": True},
        open=(*_BUDGET, "exploration", "widening", "rollout_depth", "confidence", "turn_confidence",
              "search_turns", "turn_alternatives", "endgame_trains", "tickets_when_tracks_left"),
        defaults={"steps": 500},
        tunable={"exploration": {"low": 1.0, "high": 40.0, "log": True}, "widening": {"low": 0.25, "high": 0.8},
                 "confidence": {"low": 0.0, "high": 2.5}, "turn_confidence": {"low": 0.0, "high": 4.0},
                 "endgame_trains": {"low": 0, "high": 25}, "tickets_when_tracks_left": {"low": 0, "high": 5}},
        about="mcts as it was before its play-outs were compiled (the ticket planner in Python at every "
              "seat, a tree below each candidate), kept for comparisons; golden records pin its games."),
    "mcts_flat": Preset(
        _MCTS, open=_BUDGET,
        # mcts's configuration of December 2026, frozen: a new default of mcts does not move it.
        fixed={"playout": "planner", "leaf_playouts": 1, "tree": False, "exploration": 10.0, "widening": 0.5,
               "rollout_depth": 0, "confidence": 0.0, "turn_confidence": 2.0, "search_turns": True,
               "turn_alternatives": "tickets,points", "endgame_trains": 12, "tickets_when_tracks_left": 2},
        about="The flat search of mcts as it stood in December 2026, frozen as the yardstick later "
              "searches are measured against; only its budget is open. Golden records pin its games."),
    "mcts_tree": "ttr_lab.strategies.ticket_to_ride.search.mcts_tree:TreeSearch",
    "mcts_halving": _HALVING,
    "mcts_learned": Preset(
        _HALVING, defaults={"policy": "learned"},
        about="The strongest search here: mcts_halving with the shipped policy network as its prior, the "
              "rivals it races being the groups of moves the network scores highest (policy may name "
              "another weights file)."),
    "destination_hungry": "ttr_lab.strategies.ticket_to_ride.destination_hungry:DestinationHungry",
    "route_focus": "ttr_lab.strategies.ticket_to_ride.route_focus:RouteFocus",
    "one_step": "ttr_lab.strategies.ticket_to_ride.one_step_thinking:OneStepThinking",
    "long_route": "ttr_lab.strategies.ticket_to_ride.long_route:LongRoute",
    "learned": "ttr_lab.strategies.ticket_to_ride.learned:Learned",
}

GAME_REGISTRY: dict[str, dict[str, str | Preset]] = {
    "ticket_to_ride": TICKET_TO_RIDE,
    "trans_orient": {
        "random": "ttr_lab.strategies.random:Random",
        "greedy": "ttr_lab.strategies.trans_orient.greedy:Greedy",
        "planner": "ttr_lab.strategies.trans_orient.planner:Planner",
        "mcts": "ttr_lab.strategies.trans_orient.mcts:MCTS",
    },
}

# Modules of 0.2 that moved in 0.3 (each game's strategies in a folder of their own): a config
# naming one by its old import path still resolves, with a DeprecationWarning (core.registry).
MOVED: dict[str, str] = {f"ttr_lab.strategies.{name}": f"ttr_lab.strategies.ticket_to_ride.{name}" for name in (
    "candidate_playouts", "compiled_planner", "destination_hungry", "engine_plan", "greedy", "greedy_kernel",
    "long_route", "mcts", "mcts_classic", "mcts_flat", "one_step_thinking", "planner_playouts", "planning",
    "playout", "reference_common", "route_focus", "step_agent", "ticket_planner",
)} | {
    "ttr_lab.strategies.planner_kernel": "ttr_lab.strategies.ticket_to_ride.planner_decisions",
    "ttr_lab.strategies.planning_kernels": "ttr_lab.strategies.ticket_to_ride.planner_toolkit",
} | {
    # The searches in one package, each algorithm a module named after its registered name.
    f"ttr_lab.strategies.ticket_to_ride.{old}": f"ttr_lab.strategies.ticket_to_ride.search.{new}" for old, new in (
        ("mcts", "mcts"), ("candidate_playouts", "mcts.candidate_playouts"), ("playout", "mcts.playout"),
        ("tree_search", "mcts_tree"), ("tree_kernels", "mcts_tree.kernels"), ("halving_search", "mcts_halving"),
        ("halving_kernels", "mcts_halving.kernels"), ("pile_streams", "pile_streams"),
    )
}
# Classes of 0.2 that are presets now: a config naming one by its import path gets the preset.
RETIRED: dict[str, str] = {
    "ttr_lab.strategies.ticket_to_ride.mcts_flat:MCTSFlat": "mcts_flat",
    "ttr_lab.strategies.ticket_to_ride.mcts_classic:MCTSClassic": "mcts_classic",
    "ttr_lab.strategies.ticket_to_ride.mcts_learned:MCTSLearned": "mcts_learned",
    "ttr_lab.strategies.ticket_to_ride.compiled_planner:CompiledPlanner": "compiled_planner",
}
