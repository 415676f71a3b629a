"""The shipped strategies by registered name, one table per game (``ttr_lab.core.registry``
reads them; any ``package.module:Class`` import path works too).

Every game lists its own, under its registered name, with the same names where the idea is the
same: ``greedy`` is Trans-Orient Express's greedy player in a ``trans_orient`` tournament and
Ticket to Ride's in a ``ticket_to_ride`` one. A game with no table here has no shipped names."""

TICKET_TO_RIDE: dict[str, str] = {
    "random": "ttr_lab.strategies.random:Random",
    "greedy": "ttr_lab.strategies.ticket_to_ride.greedy:Greedy",
    "ticket_planner": "ttr_lab.strategies.ticket_to_ride.ticket_planner:TicketPlanner",
    "compiled_planner": "ttr_lab.strategies.ticket_to_ride.compiled_planner:CompiledPlanner",
    "mcts": "ttr_lab.strategies.ticket_to_ride.mcts:MCTS",
    "mcts_classic": "ttr_lab.strategies.ticket_to_ride.mcts_classic:MCTSClassic",
    "mcts_flat": "ttr_lab.strategies.ticket_to_ride.mcts_flat:MCTSFlat",
    "mcts_tree": "ttr_lab.strategies.ticket_to_ride.tree_search:TreeSearch",
    "mcts_halving": "ttr_lab.strategies.ticket_to_ride.halving_search:HalvingSearch",
    "mcts_learned": "ttr_lab.strategies.ticket_to_ride.mcts_learned:MCTSLearned",
    "destination_hungry": "ttr_lab.strategies.ticket_to_ride.destination_hungry:DestinationHungry",
    "route_focus": "ttr_lab.strategies.ticket_to_ride.route_focus:RouteFocus",
    "one_step": "ttr_lab.strategies.ticket_to_ride.one_step_thinking:OneStepThinking",
    "long_route": "ttr_lab.strategies.ticket_to_ride.long_route:LongRoute",
    "learned": "ttr_lab.strategies.ticket_to_ride.learned:Learned",
}

GAME_REGISTRY: dict[str, dict[str, str]] = {
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
}
