"""tablero: El Grande, Don Carlo and Mafia Legend with their exact rules."""

__version__ = "0.1.0"
