"""What a benchmark prints, written as it prints it into a file the documentation includes.

Every script under ``benchmarks/`` ends with ``run`` (imported as ``run_benchmark``, clear of
the runner's ``run``). Run plainly, it runs the script's ``main``; with ``--record``, everything
the script prints still goes to the terminal, and also to ``benchmarks/results/<name>.md``, headed
by the command, the date, the machine (processor, cores, Python), the load average before and
after, and the wall and CPU time the whole run took (this process and every process it started),
all measured here. The pages include that file where they discuss its figures (``--8<--``), so no
figure on them is typed; tests/docs/test_docs_figures.py keeps timings off the pages everywhere
else. A benchmark that cannot run here (no Python 3.12, no browser) raises ``Unavailable``,
and its file then says that it was not run, and why.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import os
import platform
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

RESULTS = Path(__file__).resolve().parent / "results"
FLAG = "--record"


class Unavailable(Exception):
    """What this machine lacks for the benchmark to run, in one sentence (its results file says it)."""


class _Tee(io.TextIOBase):
    def __init__(self, *streams: TextIO) -> None:
        self.streams = streams

    def write(self, text: str) -> int:
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self) -> None:
        for stream in self.streams:
            stream.flush()


def machine() -> str:
    """The processor, the cores and the Python of this machine, in one line."""
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    python = platform.python_version()
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {python}"


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min), {five:.1f} (5 min)"


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process and of every finished process it started."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _exit_code(returned: object) -> int:
    return returned if isinstance(returned, int) else 0


def record(name: str, main: Callable[[], object], command: str | None = None) -> int:
    """Run ``main``, printing as usual, and write what it printed to ``benchmarks/results/<name>.md``.

    Returns the exit code ``main`` returned (0 when it returned none). ``command`` is the command
    line shown in the file's head (default: this process's arguments).
    """
    command = command or " ".join(["python", f"benchmarks/{name}.py", *sys.argv[1:]])
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_before = _load()
    wall, cpu = time.perf_counter(), cpu_seconds()
    printed = io.StringIO()
    code = 0
    with contextlib.redirect_stdout(_Tee(sys.stdout, printed)):
        try:
            code = _exit_code(main())
        except Unavailable as lack:
            print(f"not run on this machine: {lack}")
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    head = (
        f"`{command}`, {started}, on {machine()}; load average {load_before} before, {_load()} after;"
        f" the run took {wall:.1f} s of wall time and {cpu:.1f} CPU-seconds (user and system, with"
        " the processes it started):"
    )
    RESULTS.mkdir(exist_ok=True)
    text = "\n".join([head, "", "```text", printed.getvalue().rstrip("\n"), "```", ""])
    (RESULTS / f"{name}.md").write_text(text)
    print(f"written to {RESULTS / f'{name}.md'}", file=sys.stderr)
    return code


def run(name: str, main: Callable[[], object], results: str | None = None) -> None:
    """A benchmark's entry point: ``main``, recorded into its results file when ``--record`` is given.

    ``--record`` is taken out of ``sys.argv`` before ``main`` parses its own options; the process
    exits with the code ``main`` returned. ``results`` names the results file when it is not the
    script's own name (a variant of the benchmark recorded beside it).
    """
    if FLAG not in sys.argv[1:]:
        try:
            sys.exit(_exit_code(main()))
        except Unavailable as lack:
            sys.exit(f"not run on this machine: {lack}")
    command = " ".join(["python", f"benchmarks/{name}.py", *sys.argv[1:]])
    sys.argv = [arg for arg in sys.argv if arg != FLAG]
    sys.exit(record(results or name, main, command))
