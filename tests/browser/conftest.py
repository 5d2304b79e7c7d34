"""Browser tests: a real server in a thread, Debian's Chromium driven by Playwright.

``make test`` installs Chromium (scripts/services.sh). Without /usr/bin/chromium these tests
skip, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from tablero.server.app import create_app
from tablero.server.settings import ServerSettings

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--disable-quic"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """A tablero server on a free port with its own SQLite database; yields its base URL. A test
    gives it :class:`ServerSettings` by indirect parametrisation:
    ``@pytest.mark.parametrize("server", [ServerSettings(...)], indirect=True)``."""
    settings: ServerSettings | None = getattr(request, "param", None)
    app = create_app(f"sqlite:///{tmp_path / 'web.db'}", bot_delay=0, tick_seconds=0.2, settings=settings)
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65_536))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(300):
        if srv.started:
            break
        time.sleep(0.05)
    assert srv.started, "server did not start"
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but Chromium is missing (make test installs it)")
        pytest.skip("no /usr/bin/chromium")
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield b
        b.close()
