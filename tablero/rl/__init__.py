"""Research bindings (the ``tablero[rl]`` extra): observation tensors, a PettingZoo AEC
environment, OpenSpiel games and a Gymnasium single-agent wrapper.

Nothing here is imported by the rest of tablero; the modules import NumPy, PettingZoo,
Gymnasium and OpenSpiel themselves (install them with ``pip install 'tablero[rl]'``).

* :mod:`tablero.rl.encoders` — per-game observation tensors from a seat's view.
* :mod:`tablero.rl.pettingzoo` — ``env(game_id, players=N, **options)``.
* :mod:`tablero.rl.openspiel` — ``register()`` → ``["tablero_don_carlo", ...]``.
* :mod:`tablero.rl.gym` — ``SingleSeatEnv``: one seat learns, the others are tablero bots.
"""
