"""The tools to study the games: one executor for many games (this process, a process pool or
Ray), tournaments with ratings, and the designer's lab (docs/cluster.md for Ray).

Import the modules themselves (``tablero.study.executor``, ...): this package imports nothing,
so ``tablero`` never pays for matplotlib or Ray unless a study tool is used.
"""
