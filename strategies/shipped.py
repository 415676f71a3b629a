"""The shipped strategies by registered name (``ttr_lab.core.registry`` reads this table; any
``package.module:Class`` import path works too)."""

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
