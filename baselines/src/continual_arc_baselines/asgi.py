"""Serving a Starlette application with uvicorn on a loopback port, in a background thread.

Every Starlette application the baselines serve runs this way: the tracking proxy
([proxy.server][continual_arc_baselines.proxy.server]), ``serve``'s OpenAI endpoint
([serve.app][continual_arc_baselines.serve.app]) and the scripted fake model server
([fake_server][continual_arc_baselines.fake_server]) start through `BackgroundServer` (the proxy's
command line in the foreground, on the same `bind` and `uvicorn_config`). The socket is bound
before uvicorn starts, so that port 0 gives a known free port and a connection made before the
server is up waits in the backlog instead of failing.

`BackgroundServer.drop` ends a request's connection unanswered, with a TCP reset or a plain close:
what ASGI cannot say, and what the fake server's faults need (an upstream that resets or hangs).
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Mapping

import uvicorn
from starlette.applications import Starlette

__all__ = ["BackgroundServer", "bind", "uvicorn_config"]

_START_LIMIT = 20.0  # seconds a server may take to start


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (0: a free port)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    return sock


def uvicorn_config(app: Starlette) -> uvicorn.Config:
    """How every server here runs under uvicorn: quiet (its own logs say what matters), 5 s to stop."""
    return uvicorn.Config(
        app,
        lifespan="on",
        log_config=None,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
    )


class BackgroundServer:
    """``app`` served on ``host:port`` in a daemon thread, from construction until `close`.

    Args:
        app: the application. host: the address (keep it on loopback). port: 0 for a free one.
        name: the thread's name.
        sock: a socket already listening (from `bind`), served instead of binding ``host:port``.

    Attributes:
        host, port: where it listens (the port bound, when 0 was asked for).

    Raises:
        RuntimeError: the server did not start in time.
    """

    def __init__(
        self,
        app: Starlette,
        host: str = "127.0.0.1",
        port: int = 0,
        name: str = "asgi",
        sock: socket.socket | None = None,
    ) -> None:
        sock = bind(host, port) if sock is None else sock
        self.host, self.port = str(sock.getsockname()[0]), int(sock.getsockname()[1])
        self._server = uvicorn.Server(uvicorn_config(app))
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name=name, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + _START_LIMIT
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self._server.should_exit = True
                raise RuntimeError(f"the {name} server did not start")
            time.sleep(0.01)

    def drop(self, scope: Mapping[str, object], *, reset: bool) -> None:
        """End the connection of the request ``scope`` at once, whatever was sent on it.

        With ``reset``, a TCP reset (``SO_LINGER`` 0), as a crashed or overloaded upstream sends;
        otherwise a plain close. The application returns without answering after it: uvicorn sees
        the connection lost and answers nothing.
        """
        client = scope.get("client")
        for connection in list(self._server.server_state.connections):
            transport = getattr(connection, "transport", None)
            if transport is None or getattr(connection, "client", None) != client:
                continue
            if reset:
                linger = struct.pack("ii", 1, 0)
                transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
                transport.abort()
            else:
                transport.close()

    def wait(self) -> None:
        """Block until the server stops (for the command line, until Ctrl-C)."""
        self._thread.join()

    def close(self, *, drop_connections: bool = False) -> None:
        """Stop serving and wait for the thread.

        Args:
            drop_connections: close every connection first (at once, answered or not), so that
                requests still held (a fake upstream's hang) end instead of being waited for.
        """
        if drop_connections:
            for connection in list(self._server.server_state.connections):
                transport, loop = getattr(connection, "transport", None), getattr(connection, "loop", None)
                if transport is not None and loop is not None:
                    loop.call_soon_threadsafe(transport.abort)  # transports belong to the server's loop
        self._server.should_exit = True
        self._thread.join(timeout=30)
