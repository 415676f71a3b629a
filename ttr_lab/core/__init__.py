"""The game-agnostic core: what every game, strategy and tournament shares (knows no game)."""
