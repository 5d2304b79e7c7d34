"""One package per game: data beside rules, no third-party imports."""
