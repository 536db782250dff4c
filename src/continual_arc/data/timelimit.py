"""A time limit on one call of a task generator (or a verifier), shared by every source.

On the main thread a real-time timer interrupts a call that runs past its limit. On any other
thread, where Python delivers no signal, a call that returns past the limit is refused afterwards
(a call that never returns cannot be stopped there). Either way a call past its limit raises
[CallTimeout][continual_arc.data.timelimit.CallTimeout]: whether a call finishes in time depends on
the machine, so it is never a reason to redraw, only an error.

The timer alone is not enough to refuse a late call: its exception is lost when the alarm lands
in a garbage-collector callback (Python drops exceptions raised there) or in a bare ``except``,
and the signal itself is lost when the call replaces the ``SIGALRM`` handler. So the clock is read
too, on every path, and a call that returns past its limit is refused whatever became of the alarm.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["CallTimeout", "timed_call"]

T = TypeVar("T")


class CallTimeout(Exception):
    """A call ran past its time limit."""


class _Alarm:
    """Whether the timer of the call in progress has fired (a flag, since the exception may be lost)."""

    fired = False


def _on_alarm(signum: int, frame: object) -> None:
    _Alarm.fired = True
    raise CallTimeout


def timed_call(fn: Callable[..., T], limit: float, *args: Any) -> T:
    """Call ``fn(*args)`` under a time limit of ``limit`` seconds.

    A timeout the call swallows (a bare ``except`` in a generator, or the alarm landing inside a
    garbage-collector callback, where Python drops exceptions), or an alarm the call never receives
    (it set its own ``SIGALRM`` handler), still fails the call once it returns: the call is refused
    whenever it returns past ``limit``, by the clock.

    Raises:
        CallTimeout: the call ran past the limit.
    """
    start = time.monotonic()
    on_main = threading.current_thread() is threading.main_thread()
    if on_main and signal.getitimer(signal.ITIMER_REAL)[0] == 0.0:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        _Alarm.fired = False
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            result = fn(*args)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0.0)
            signal.signal(signal.SIGALRM, previous)
        if _Alarm.fired or time.monotonic() - start > limit:
            raise CallTimeout
        return result
    result = fn(*args)
    if time.monotonic() - start > limit:
        raise CallTimeout
    return result
