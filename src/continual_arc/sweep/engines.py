"""Where a sweep's units run: Ray (a local instance or a cluster), or a local pool of processes.

Both engines take a unit, run [`run_unit`][continual_arc.sweep.units.run_unit] on a worker and give
back its [`UnitResult`][continual_arc.sweep.units.UnitResult]. The scheduling is theirs: Ray places each
unit as a task asking for the learner's CPUs (and GPUs), and retries a task whose worker died
(``max_retries``); the local engine is a `ProcessPoolExecutor`, rebuilt
when a worker dies. Either way the lost unit runs again and resumes from its last committed round.

Ray is an optional extra (``pip install -e '.[ray]'`` in a clone): it is imported only when the Ray
engine is built, so the core never needs it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from types import ModuleType
from typing import Protocol

from ..core.errors import ContinualArcError
from .units import Unit, UnitResult, run_unit

__all__ = ["RAY_EXTRA", "Engine", "EngineError", "LocalEngine", "RayEngine", "WorkerLost", "make_engine"]

RAY_EXTRA = "continual-arc[ray]"
"""The extra that installs the pinned Ray."""


class EngineError(ContinualArcError, RuntimeError):
    """An engine that cannot be started (Ray not installed, a cluster that cannot be reached)."""


class WorkerLost(Exception):
    """The worker running a unit died (and, on Ray, its retries were spent)."""


class Engine(Protocol):
    """What the driver needs of an engine."""

    name: str
    slots: int
    """Units it runs at once, by default."""

    retries_itself: bool
    """Whether it reruns a unit whose worker died by itself (Ray), or the driver must (local)."""

    def submit(self, unit: Unit) -> object:
        """Start the unit; a handle to wait on (the engine's own token: the driver only hands it back)."""
        ...

    def wait(self, handles: Sequence[object], timeout: float) -> list[object]:
        """The handles among ``handles`` that finished, waiting at most ``timeout`` seconds."""
        ...

    def result(self, handle: object) -> UnitResult:
        """A finished unit's result.

        Raises:
            WorkerLost: its worker died.
        """
        ...

    def close(self) -> None:
        """Stop the engine (what it started, only)."""
        ...


class LocalEngine:
    """Units in a local pool of processes.

    Args:
        slots: processes (default: the machine's CPUs).
    """

    name = "local"
    retries_itself = False

    def __init__(self, slots: int | None = None) -> None:
        self.slots = max(1, slots or os.cpu_count() or 1)
        self._pool = ProcessPoolExecutor(max_workers=self.slots)

    def submit(self, unit: Unit) -> Future[UnitResult]:
        """Start the unit in the pool (rebuilt first if a worker's death broke it)."""
        try:
            return self._pool.submit(run_unit, unit)
        except BrokenProcessPool:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = ProcessPoolExecutor(max_workers=self.slots)
            return self._pool.submit(run_unit, unit)

    def wait(self, handles: Sequence[object], timeout: float) -> list[object]:
        """The finished futures."""
        done, _ = wait(_futures(handles), timeout=timeout, return_when=FIRST_COMPLETED)
        return [h for h in handles if h in done]

    def result(self, handle: object) -> UnitResult:
        """The unit's result; `WorkerLost` when a worker's death broke the pool."""
        (future,) = _futures([handle])
        try:
            result: UnitResult = future.result()
        except BrokenProcessPool as err:
            raise WorkerLost(f"a worker process died ({err})") from None
        return result

    def close(self) -> None:
        """Shut the pool down."""
        self._pool.shutdown(wait=True, cancel_futures=True)


def _futures(handles: Sequence[object]) -> list[Future[UnitResult]]:
    """The local engine's handles, which are the futures its `LocalEngine.submit` returned."""
    futures = [h for h in handles if isinstance(h, Future)]
    if len(futures) != len(handles):
        raise TypeError("a handle the local engine did not give")
    return futures


class RayEngine:
    """Units as Ray tasks, on a local Ray instance (started here) or a cluster (``address``).

    Args:
        address: a cluster's address (``auto``, ``ray://host:port``); ``None`` starts a local
            instance, unless this process is already connected to one.
        retries: how many times Ray reruns a unit whose worker died.
        cpus: CPUs of a local instance started here (default: the machine's).
    """

    name = "ray"
    retries_itself = True

    def __init__(self, address: str | None = None, retries: int = 3, cpus: int | None = None) -> None:
        try:
            import ray  # optional heavy dependency: only the Ray engine needs it
        except ImportError:
            raise EngineError(
                f"--engine ray needs Ray, the optional extra {RAY_EXTRA}: pip install -e '.[ray]' in "
                f"the repository's clone"
            ) from None
        self._ray: ModuleType = ray  # Ray's own types are not followed (pyproject's mypy overrides)
        self._started = False
        if not ray.is_initialized():
            # Workers import learners by path: they get this process's search path.
            path = os.pathsep.join(p for p in sys.path if p and Path(p).is_dir())
            env = {"env_vars": {"PYTHONPATH": path}} if address is None else None
            try:
                ray.init(
                    address=address,
                    num_cpus=cpus if address is None else None,
                    runtime_env=env,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
            except (ConnectionError, RuntimeError, ValueError) as err:
                raise EngineError(
                    f"cannot start or reach Ray at {address or 'a local instance'}: {err}"
                ) from None
            self._started = True
        self.slots = max(1, int(self._ray.cluster_resources().get("CPU", 1)))
        self._task = self._ray.remote(run_unit)
        self._retries = retries

    def submit(self, unit: Unit) -> object:
        """Submit the unit as a task asking for its CPUs and GPUs."""
        options = {
            "num_cpus": unit.cpus,
            "num_gpus": unit.gpus,
            "max_retries": self._retries,
            "retry_exceptions": False,
            "name": unit.id,
        }
        return self._task.options(**options).remote(unit)

    def wait(self, handles: Sequence[object], timeout: float) -> list[object]:
        """The finished tasks."""
        ready, rest = self._ray.wait(list(handles), num_returns=1, timeout=timeout)
        if ready and rest:
            more, _ = self._ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        return list(ready)

    def result(self, handle: object) -> UnitResult:
        """The task's result; `WorkerLost` when its worker died past its retries."""
        try:
            result: UnitResult = self._ray.get(handle)
        except self._ray.exceptions.RayError as err:
            raise WorkerLost(f"{type(err).__name__}: {str(err).splitlines()[0]}") from None
        return result

    def close(self) -> None:
        """Shut down the local instance if this engine started it."""
        if self._started:
            self._ray.shutdown()


def make_engine(
    name: str, *, address: str | None = None, slots: int | None = None, retries: int = 3
) -> Engine:
    """The engine called ``name`` (``ray`` or ``local``).

    Raises:
        EngineError: an unknown engine, ``--address`` without Ray, or Ray missing or unreachable.
    """
    if name == "local":
        if address is not None:
            raise EngineError("--address names a Ray cluster: use it with --engine ray")
        return LocalEngine(slots)
    if name == "ray":
        return RayEngine(address, retries)
    raise EngineError(f"unknown engine {name!r}; known: ray, local")
