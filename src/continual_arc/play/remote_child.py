"""The child side of a remote learner: ``python -m continual_arc.play.remote_child SPEC``.

It builds the learner named by ``SPEC`` (JSON: ``{"class": "module:Class", "kwargs": {...}}``) and
answers the runner's calls, one JSON message a line: a request ``{"call": name, "args": [...]}``
on standard input, a reply ``{"ok": value}`` or ``{"error": {"type", "message", "traceback"}}`` on
the standard output it had at start. Anything the learner prints goes to standard error, so it
can never be taken for a reply.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from ..core.learner_ref import LearnerRef
from ..core.wire import from_wire, to_wire
from .fingerprint import learner_fingerprint
from .learner import (
    OPTIONAL_PROTOCOLS,
    AnyLearner,
    HasTeacher,
    TeacherPlaysFirst,
    TrainsWeights,
    is_stateless,
    load_learner,
)

if TYPE_CHECKING:  # the child imports no more than it serves with
    from .remote_process import Hello

__all__ = ["OPTIONAL", "main", "serve"]

OPTIONAL: tuple[str, ...] = tuple(OPTIONAL_PROTOCOLS)
"""The optional members of a learner the child reports having, so the parent offers the same."""


def _offers(learner: AnyLearner, name: str, protocol: type) -> bool:
    # A protocol is checked on the class; the member must also answer on the instance, as a
    # learner that hides it (``__getattribute__``) offers nothing the parent could call.
    return isinstance(learner, protocol) and callable(getattr(learner, name, None))


def _hello(learner: AnyLearner) -> Hello:
    return {
        "members": [name for name, kind in OPTIONAL_PROTOCOLS.items() if _offers(learner, name, kind)],
        "stateless": is_stateless(learner),
        "concurrent_users": bool(getattr(learner, "concurrent_users", False)),
        "teacher_plays_first": isinstance(learner, TeacherPlaysFirst),
    }


def _handlers(learner: AnyLearner) -> dict[str, Callable[..., object]]:
    """What each call does; arguments and results cross as `continual_arc.core.wire` has them.

    An optional member has a handler only if the learner has it (the parent calls only those
    `_hello` names).
    """
    handlers: dict[str, Callable[..., object]] = {
        "hello": lambda: _hello(learner),
        "reset": learner.reset,
        "begin_round": learner.begin_round,
        "end_round": learner.end_round,
        "act": lambda obs: to_wire(learner.act(from_wire(obs))),
        "observe": lambda obs, action, feedback: learner.observe(
            from_wire(obs), from_wire(action), from_wire(feedback)
        ),
        "resources": lambda: dict(learner.resources()),
        "user_resources": lambda user: dict(learner.user_resources(user)),
        "fingerprint": lambda: learner_fingerprint(learner),
    }
    for name, kind in OPTIONAL_PROTOCOLS.items():
        if _offers(learner, name, kind):
            handlers[name] = getattr(learner, name)
    if isinstance(learner, TrainsWeights) and "training_resources" in handlers:
        trains = learner  # narrowed, for the closure
        handlers["training_resources"] = lambda: dict(trains.training_resources())
    if isinstance(learner, HasTeacher) and "teacher_resources" in handlers:
        taught = learner  # narrowed, for the closure: counters cross the pipe as a plain dict
        handlers["teacher_resources"] = lambda: dict(taught.teacher_resources())
    return handlers


def serve(learner: AnyLearner, requests: TextIO, replies: TextIO) -> None:
    """Answer requests until ``quit`` or the end of input."""
    handlers = _handlers(learner)
    for line in requests:
        request = json.loads(line)
        if request.get("call") == "quit":
            break
        try:
            value = handlers[request["call"]](*request.get("args", []))
            reply: dict[str, object] = {"ok": value}
        except Exception as err:  # the learner's fault, reported to the runner, never fatal here
            trace = "".join(traceback.format_exception(err))
            fault: dict[str, object] = {"type": type(err).__name__, "message": str(err), "traceback": trace}
            if isinstance(err, MemoryError):  # the sandbox's memory cap, most likely: its owner names it
                fault["memory"] = True
            if isinstance(err, OSError) and err.errno == errno.EFBIG:  # its file-size cap
                fault["file_size"] = True
            reply = {"error": fault}
        try:
            text = json.dumps(reply)
        except (TypeError, ValueError) as err:
            text = json.dumps({"error": {"type": "TypeError", "message": f"a reply that is not JSON: {err}"}})
        replies.write(text + "\n")
        replies.flush()


def main(argv: list[str] | None = None) -> int:
    """Build the learner and serve the runner."""
    args = sys.argv[1:] if argv is None else argv
    # Python ignores SIGXFSZ: restored, a write past the sandbox's file-size cap ends the process,
    # and its owner reads the signal as that limit (the first process of a PID namespace is spared
    # it by the kernel, and sees EFBIG instead: said with its error).
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a print of the learner's goes to stderr
    try:
        ref = LearnerRef.of(json.loads(args[0]))  # as the parent wrote it: LearnerRef.spec
        learner = load_learner(ref.path, ref.kwargs)
    except Exception as err:  # say why in the first reply, which the parent reads before any call
        replies.write(json.dumps({"error": {"type": type(err).__name__, "message": str(err)}}) + "\n")
        replies.flush()
        return 1
    replies.write(json.dumps({"ok": "ready"}) + "\n")
    replies.flush()
    serve(learner, sys.stdin, replies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
