"""The shipped strategies by registered name, one table per game (``ttr_lab.core.registry``
reads them; any ``package.module:Class`` import path works too).

Every game lists its own, under its registered name, with the same names where the idea is the
same: ``greedy`` is Trans-Orient Express's greedy player in a ``trans_orient`` tournament and
Ticket to Ride's in a ``ticket_to_ride`` one. A game with no table here has no shipped names."""

TICKET_TO_RIDE: dict[str, str] = {
    "random": "ttr_lab.strategies.random:Random",
    "greedy": "ttr_lab.strategies.greedy:Greedy",
    "ticket_planner": "ttr_lab.strategies.ticket_planner:TicketPlanner",
    "compiled_planner": "ttr_lab.strategies.compiled_planner:CompiledPlanner",
    "mcts": "ttr_lab.strategies.mcts:MCTS",
    "mcts_classic": "ttr_lab.strategies.mcts_classic:MCTSClassic",
    "mcts_flat": "ttr_lab.strategies.mcts_flat:MCTSFlat",
    "mcts_tree": "ttr_lab.strategies.tree_search:TreeSearch",
    "destination_hungry": "ttr_lab.strategies.destination_hungry:DestinationHungry",
    "route_focus": "ttr_lab.strategies.route_focus:RouteFocus",
    "one_step": "ttr_lab.strategies.one_step_thinking:OneStepThinking",
    "long_route": "ttr_lab.strategies.long_route:LongRoute",
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
