"""Reading ``records.jsonl`` with validation: pydantic v2 against msgspec, and against no validation.

Usage: python benchmarks/record_reader.py [--run runs/arc1-library-seed0/stream] [--repeat 20]

Issue 41 asks that every document on disk be validated where it is read, with pydantic or msgspec,
measured on the record reader. Each way reads the same file's lines ``--repeat`` times (the median
is printed, per file and per record):

* ``json + key check``: what the reader did before, ``json.loads`` a line and check nine keys;
* ``pydantic``: a cached ``TypeAdapter`` of the ``Record`` TypedDict, ``validate_json`` on each
  line in strict mode (a ``"3"`` where an integer belongs is refused);
* ``msgspec``: a ``msgspec.json.Decoder`` of the same TypedDict, strict. msgspec 0.22 cannot hold
  the recursive ``JSONValue`` alias the records use (it raises ``TypeError``), so it decodes a copy
  of the declarations with ``JSONValue`` replaced by ``Any``: it checks less than pydantic does.

The start-up each costs is measured too, in a fresh process: importing the library and building
the validator (the command line's start-up budgets are 100 to 150 ms). msgspec is optional here:
without it, its rows say it was not installed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typing_extensions

from continual_arc.core.records import JSONValue, Record

ROOT = Path(__file__).resolve().parent.parent

_PYDANTIC = (
    "import pydantic; from continual_arc.core.records import Record; "
    "pydantic.TypeAdapter(Record).validate_json(open({path!r}).readline(), strict=True)"
)
_MSGSPEC = (
    "import msgspec.json, sys; sys.path.insert(0, 'benchmarks'); import record_reader; "
    "msgspec.json.Decoder(record_reader.msgspec_view(record_reader.Record), strict=True)"
    ".decode(open({path!r}).readline())"
)
_BARE = "from continual_arc.core.records import Record"


def msgspec_view(kind: Any, seen: dict[Any, Any] | None = None) -> Any:
    """``kind`` with every ``JSONValue`` replaced by ``Any``, TypedDicts rebuilt (msgspec needs it)."""
    seen = {} if seen is None else seen
    if kind is JSONValue:
        return Any
    if typing_extensions.is_typeddict(kind):
        if kind not in seen:
            hints = typing.get_type_hints(kind, include_extras=True)
            fields = {name: msgspec_view(hint, seen) for name, hint in hints.items()}
            # Read from the hints: under postponed annotations __required_keys__ misses NotRequired.
            required = {
                name
                for name, hint in hints.items()
                if kind.__total__ and typing.get_origin(hint) is not typing_extensions.NotRequired
            }
            seen[kind] = typing_extensions.TypedDict(  # type: ignore[operator]
                kind.__name__,
                {n: t if n in required else typing_extensions.NotRequired[t] for n, t in fields.items()},
            )
        return seen[kind]
    args = typing.get_args(kind)
    if not args:
        return kind
    origin = typing.get_origin(kind)
    mapped = tuple(msgspec_view(a, seen) for a in args)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[mapped]  # noqa: UP007 (built from a tuple)
    if origin is typing_extensions.NotRequired:
        return mapped[0]
    return origin[mapped]


_NEEDS = ("step", "round", "user", "phase", "task_id", "actions", "solved", "end", "charge")
"""The nine keys the reader before pydantic checked for (a record's ~28), then cast."""


def key_checked(lines: list[str]) -> list[dict[str, Any]]:
    """The reader before pydantic: ``json.loads`` each line, check nine keys are present."""
    out = []
    for number, line in enumerate(lines, 1):
        value = json.loads(line)
        if not isinstance(value, dict) or any(name not in value for name in _NEEDS):
            raise ValueError(f"line {number} is not a record")
        out.append(value)
    return out


def _median_ms(read: Callable[[list[str]], object], lines: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        read(lines)
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times)


def _startup_ms(code: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(done.stderr.strip().splitlines()[-1])
        times.append(1000 * (time.perf_counter() - start))
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--run", default="runs/arc1-library-seed0/stream")
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    path = ROOT / args.run / "records.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    print(f"{args.run}/records.jsonl: {len(lines)} records, {path.stat().st_size} bytes")

    import pydantic

    adapter = pydantic.TypeAdapter(Record)
    ways: dict[str, Callable[[list[str]], object] | None] = {
        "json + key check": key_checked,
        "pydantic": lambda ls: [adapter.validate_json(line, strict=True) for line in ls],
    }
    try:
        import msgspec.json

        decoder = msgspec.json.Decoder(msgspec_view(Record), strict=True)
        ways["msgspec"] = lambda ls: [decoder.decode(line) for line in ls]
    except ImportError:
        ways["msgspec"] = None
    print(f"{'way':18} {'file ms':>8} {'us/record':>10} {'start-up ms':>12}")
    bare = _startup_ms(_BARE, 5)
    startup = {"json + key check": bare}
    startup["pydantic"] = _startup_ms(_PYDANTIC.format(path=str(path)), 5)
    if ways["msgspec"] is not None:
        startup["msgspec"] = _startup_ms(_MSGSPEC.format(path=str(path)), 5)
    for name, read in ways.items():
        if read is None:
            print(f"{name:18} not installed")
            continue
        ms = _median_ms(read, lines, args.repeat)
        print(f"{name:18} {ms:8.1f} {1000 * ms / len(lines):10.1f} {startup[name]:12.0f}")
    print(
        f"(start-up: a fresh process importing the records' types, then the library and its validator;"
        f" median of 5; the bare import is {bare:.0f} ms)"
    )


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("record_reader", main)
