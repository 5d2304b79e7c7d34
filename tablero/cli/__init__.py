"""The ``tablero`` command line (Typer + rich)."""
