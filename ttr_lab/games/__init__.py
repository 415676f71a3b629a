"""One package per game, each implementing the core's game protocol."""
