"""Strategies for Ticket to Ride, by registered name (``ttr_lab.core.registry`` resolves these,
and any ``package.module:Class`` import path)."""

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
