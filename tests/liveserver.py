"""Run the real app under uvicorn in a thread, on a socket bound beforehand (no race for a free port)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from reverie import Settings
from reverie.server import build_server


@contextmanager
def live_server(settings: Settings, *, log_level: str = "warning") -> Iterator[str]:
    """Serve the app until the block ends; yields its base URL, e.g. ``http://127.0.0.1:54321``.

    ``log_level="info"`` turns uvicorn's access log on.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    settings.server.port = port
    server = build_server(settings, log_level=log_level)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
    assert not thread.is_alive(), "uvicorn did not stop"


__all__ = ["live_server"]
