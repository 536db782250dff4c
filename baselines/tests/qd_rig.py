"""A fake teacher for QD's tests: its move a function of the state, every reply logged, behind a proxy."""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, serve_proxy

TEACHER = "org/teacher-model"


def fenced(rows: list[list[int]]) -> str:
    """A grid in a fenced block, written here rather than by the code under test."""
    return "```\n" + "\n".join(" ".join(str(c) for c in row) for row in rows) + "\n```"


@dataclass
class FakeTeacher:
    """A teacher whose move is a function of the state it reads; every reply it sent is logged.

    A quarter of the states (by a hash of their text) get a reply with no move in it.
    """

    replies: list[tuple[str, str]] = field(default_factory=list)  # (the state's text, the reply)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, body: dict[str, Any]) -> str:
        state = str(body["messages"][-1]["content"])
        digest = hashlib.sha256(state.encode()).digest()
        if digest[0] % 4 == 0:
            reply = "I cannot tell."
        elif "Offered actions" in state:
            reply = "I would press\nACTION6 3 4"
        else:
            rows = [[digest[1 + r * 3 + c] % 10 for c in range(3)] for r in range(2)]
            reply = "My answer:\n" + fenced(rows)
        with self.lock:
            self.replies.append((state, reply))
        return reply

    def grid_moves(self) -> list[str]:
        """The grids of the replies that gave one, in the order sent."""
        return [reply.split(":\n", 1)[1] for _, reply in self.replies if reply.startswith("My answer")]


@contextlib.contextmanager
def teacher_rig(**config: Any) -> Iterator[tuple[FakeTeacher, FakeModelServer, ProxyHandle]]:
    """The fake teacher served on 127.0.0.1 behind a tracking proxy that serves its model alone.

    ``config``: further fields of the proxy's [ProxyConfig][continual_arc_baselines.proxy.ProxyConfig].
    """
    script = FakeTeacher()
    with FakeModelServer(script, model=TEACHER) as fake:
        proxy = serve_proxy(ProxyConfig(upstream=fake.url, models=(TEACHER,), **config))
        try:
            yield script, fake, proxy
        finally:
            proxy.close()
