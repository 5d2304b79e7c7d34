"""The real server (the app of ``tablero serve`` on uvicorn) with small socket send buffers (test_fanout.py only).

    python tests/server/small_buffer_serve.py PORT DATABASE_URL

A client that stops reading fills the operating system's buffers first: with Linux's usual
autotuning that is megabytes on the loopback, hundreds of updates. The listening socket here
gets a small ``SO_SNDBUF`` (the connections it accepts inherit it), so such a client blocks
the server's sends after a few dozen updates. Everything else is the production app; its
settings come from the environment (``TABLERO_<FIELD>``) as usual.
"""

from __future__ import annotations

import asyncio
import socket
import sys

import uvicorn

from tablero.server.app import create_app

SEND_BUFFER = 4096
"""Bytes (the kernel doubles it, and has a floor of its own)."""


def main() -> None:
    port, url = int(sys.argv[1]), sys.argv[2]
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    config = uvicorn.Config(create_app(url, bot_delay=0), ws_max_size=65_536, log_level="warning")
    asyncio.run(uvicorn.Server(config).serve(sockets=[sock]))


if __name__ == "__main__":
    main()
