"""The shipped strategies by registered name, one table per game (``ttr_lab.core.registry``
reads them; any ``package.module:Class`` import path works too).

Every game lists its own, under its registered name, with the same names where the idea is the
same: ``greedy`` is Trans-Orient Express's greedy player in a ``trans_orient`` tournament and
Ticket to Ride's in a ``ticket_to_ride`` one. A game with no table here has no shipped names."""

TICKET_TO_RIDE: dict[str, str] = {
    "random": "strategies.random:Random",
    "greedy": "strategies.greedy:Greedy",
    "ticket_planner": "strategies.ticket_planner:TicketPlanner",
    "mcts": "strategies.mcts:MCTS",
    "destination_hungry": "strategies.destination_hungry:DestinationHungry",
    "route_focus": "strategies.route_focus:RouteFocus",
    "one_step": "strategies.one_step_thinking:OneStepThinking",
    "long_route": "strategies.long_route:LongRoute",
}

GAME_REGISTRY: dict[str, dict[str, str]] = {
    "ticket_to_ride": TICKET_TO_RIDE,
    "trans_orient": {
        "random": "strategies.random:Random",
        "greedy": "strategies.trans_orient.greedy:Greedy",
        "planner": "strategies.trans_orient.planner:Planner",
        "mcts": "strategies.trans_orient.mcts:MCTS",
    },
}
