"""The time limit on a generator call holds even when the call swallows the timeout."""

from __future__ import annotations

import gc
import signal
import threading
import time

import pytest

from continual_arc.data.timelimit import CallTimeout, timed_call


def _sleeps(seconds: float) -> str:
    time.sleep(seconds)
    return "done"


def _swallows(seconds: float) -> str:
    # A hostile or careless generator: a broad except around its work eats the alarm's exception.
    try:
        time.sleep(seconds)
    except Exception:
        time.sleep(seconds / 2)
    return "done anyway"


def test_a_call_within_its_limit_returns_its_value() -> None:
    assert timed_call(_sleeps, 1.0, 0.01) == "done"


def test_a_call_past_its_limit_is_interrupted() -> None:
    start = time.monotonic()
    with pytest.raises(CallTimeout):
        timed_call(_sleeps, 0.05, 5.0)
    assert time.monotonic() - start < 2.0  # interrupted, not waited out


def test_a_call_that_swallows_the_timeout_still_fails_once_it_returns() -> None:
    with pytest.raises(CallTimeout):
        timed_call(_swallows, 0.05, 0.2)


def test_a_late_call_after_a_swallowed_timeout_does_not_taint_the_next_one() -> None:
    with pytest.raises(CallTimeout):
        timed_call(_swallows, 0.05, 0.2)
    assert timed_call(_sleeps, 1.0, 0.0) == "done"


def test_off_the_main_thread_a_late_call_is_refused_after_it_returns() -> None:
    outcome: list[object] = []

    def worker() -> None:
        try:
            outcome.append(timed_call(_sleeps, 0.05, 0.2))
        except CallTimeout as err:
            outcome.append(err)

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert len(outcome) == 1 and isinstance(outcome[0], CallTimeout)


class _Cycle:
    """An object in a reference cycle, so that ``gc.collect`` has something to free."""

    def __init__(self) -> None:
        self.me = self


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_alarm_raised_inside_a_gc_callback_still_fails_the_call() -> None:
    landed: list[str] = []

    def slow_callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and not landed:
            landed.append(phase)
            time.sleep(0.3)  # the alarm fires here, in the collector, which drops its exception

    def collects() -> str:
        _Cycle()
        gc.collect()
        landed.append("returned")  # the alarm's exception never reached the call
        return "returned as if in time"

    gc.callbacks.append(slow_callback)
    try:
        with pytest.raises(CallTimeout):
            timed_call(collects, 0.05)
    finally:
        gc.callbacks.remove(slow_callback)
    assert landed == ["start", "returned"]


def test_a_call_that_takes_the_alarm_for_itself_is_refused_by_the_clock() -> None:
    def deaf(seconds: float) -> str:
        signal.signal(signal.SIGALRM, signal.SIG_IGN)  # a generator that silences every alarm
        time.sleep(seconds)
        return "late"

    with pytest.raises(CallTimeout):
        timed_call(deaf, 0.05, 0.2)
    assert timed_call(_sleeps, 1.0, 0.0) == "done"  # and the next call is timed as before
