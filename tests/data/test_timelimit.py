"""The time limit on a generator call holds even when the call swallows the timeout."""

from __future__ import annotations

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
