"""The rules of Ticket to Ride: game facts, state, actions, observation, scoring."""
