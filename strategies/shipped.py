"""The shipped strategies by registered name (``ttr_lab.core.registry`` reads these tables; any
``package.module:Class`` import path works too).

``REGISTRY`` holds Ticket to Ride's (the default game). A game with strategies of its own lists
them in ``GAME_REGISTRY`` under its name, with the same names where the idea is the same, so
``greedy`` is Trans-Orient Express's greedy player in a ``trans_orient`` tournament."""

REGISTRY: dict[str, str] = {
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
    "trans_orient": {
        "random": "strategies.random:Random",
        "greedy": "strategies.trans_orient.greedy:Greedy",
        "planner": "strategies.trans_orient.planner:Planner",
        "mcts": "strategies.trans_orient.mcts:MCTS",
    },
}
