"""What a benchmark prints, written as it prints it into a file the Benchmarks page includes.

A script run with ``--record`` passes its ``main`` to :func:`record`: everything it prints still goes
to the terminal, and also to ``benchmarks/results/<name>.md``, headed by the command, the date, the
machine (processor, cores, Python) and the load average before and after, as the script measured
them. docs/benchmarks.md includes that file, so the figures on the page are the script's own, never
typed (tests/docs/test_docs_figures.py keeps timings off the other pages).
"""

from __future__ import annotations

import contextlib
import datetime
import io
import os
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

RESULTS = Path(__file__).resolve().parent / "results"


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


def record(name: str, main: Callable[[], None]) -> None:
    """Run ``main``, printing as usual, and write what it printed to ``benchmarks/results/<name>.md``."""
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_before = _load()
    printed = io.StringIO()
    with contextlib.redirect_stdout(_Tee(sys.stdout, printed)):
        main()
    command = " ".join(["python", f"benchmarks/{name}.py", *sys.argv[1:]])
    RESULTS.mkdir(exist_ok=True)
    text = "\n".join(
        [
            f"`{command}`, {started}, on {machine()}; load average {load_before} before, {_load()} after:",
            "",
            "```text",
            printed.getvalue().rstrip("\n"),
            "```",
            "",
        ]
    )
    (RESULTS / f"{name}.md").write_text(text)
    print(f"written to {RESULTS / f'{name}.md'}", file=sys.stderr)
