"""``tablero serve`` that dies right after its n-th commit, before anybody is told (test_crash.py only).

    python tests/server/crashing_serve.py N serve --host 127.0.0.1 --port ... --database ...

The real command line runs unchanged; only the service the app builds is a subclass whose
:meth:`~tablero.server.service.GameService.commit` ends the process with :data:`CRASH_EXIT`
once ``N`` changes are committed. Production code knows nothing of it.
"""

from __future__ import annotations

import os
import sys

import tablero.server.app as server_app
from tablero.server.service import GameService, LiveGame

CRASH_EXIT = 3


class CrashingService(GameService):
    """Counts commits; after the n-th one the process exits at once (committed, not broadcast)."""

    crash_after = 0
    commits = 0

    async def commit(self, live: LiveGame, start: int, acted: set[int]) -> None:
        await super().commit(live, start, acted)
        self.commits += 1
        if self.commits >= self.crash_after:
            os._exit(CRASH_EXIT)


def main() -> None:
    CrashingService.crash_after = int(sys.argv.pop(1))
    server_app.GameService = CrashingService  # type: ignore[attr-defined]  # what create_app builds
    from tablero.cli.main import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
