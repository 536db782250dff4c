"""Concurrent requests decoded together: a queue that groups what arrives within a short window.

A request waits in the queue; one worker thread takes the oldest, waits ``window`` seconds for
others (at most ``max_batch`` in all), and decodes those sampled alike (`GenerationKey`) in
one ``generate``. Each batch gets a number, kept in the server's log beside every reply it served.
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass

from .engine import Completion, Engine, GenerationKey, Prompt

__all__ = ["Batched", "Batcher"]


@dataclass(frozen=True)
class Batched:
    """A reply and the batch it was decoded in (its number and size)."""

    completion: Completion
    batch: int
    batch_size: int


@dataclass(frozen=True)
class _Job:
    prompt: Prompt
    key: GenerationKey
    future: Future[Batched]


class Batcher:
    """Groups concurrent requests into batches for one `Engine`; a daemon worker thread.

    Args:
        engine: the model. window: seconds to wait for more requests after the first.
        max_batch: the most requests decoded at once.
    """

    def __init__(self, engine: Engine, window: float = 0.01, max_batch: int = 16) -> None:
        if window < 0 or max_batch < 1:
            raise ValueError("window must be at least 0 and max_batch at least 1")
        self.engine = engine
        self.window = window
        self.max_batch = max_batch
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._batches = 0
        self._worker = threading.Thread(target=self._serve, name="serve-batcher", daemon=True)
        self._worker.start()

    def submit(self, prompt: Prompt, key: GenerationKey) -> Batched:
        """Decode one prompt (with whatever arrives beside it); blocks until its reply is ready."""
        future: Future[Batched] = Future()
        self._queue.put(_Job(prompt, key, future))
        return future.result()

    def close(self) -> None:
        """Stop the worker once the queue is empty."""
        self._queue.put(None)
        self._worker.join(timeout=30)

    def _gather(self, first: _Job) -> tuple[list[_Job], bool]:
        jobs, until = [first], time.monotonic() + self.window
        while len(jobs) < self.max_batch:
            try:
                job = self._queue.get(timeout=max(0.0, until - time.monotonic()))
            except queue.Empty:
                break
            if job is None:
                return jobs, True
            jobs.append(job)
        return jobs, False

    def _serve(self) -> None:
        stop = False
        while not stop:
            first = self._queue.get()
            if first is None:
                return
            jobs, stop = self._gather(first)
            groups: dict[GenerationKey, list[_Job]] = {}
            for job in jobs:
                groups.setdefault(job.key, []).append(job)
            for key, group in groups.items():
                self._decode(key, group)

    def _decode(self, key: GenerationKey, group: list[_Job]) -> None:
        self._batches += 1
        try:
            completions = self.engine.generate([job.prompt for job in group], key)
        except Exception as error:  # the requests fail (HTTP 500); the server goes on
            for job in group:
                job.future.set_exception(error)
            return
        for job, completion in zip(group, completions, strict=True):
            job.future.set_result(Batched(completion, self._batches, len(group)))
