"""Game-specific heuristic bots: one module per game, working from views only."""
