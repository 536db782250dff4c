"""The README's two commands as a newcomer runs them: their wall and CPU time on this machine.

Usage: python benchmarks/readme_commands.py [--command first|tests ...] [--keep DIR] [--dry-run]

It reads the two commands from the README's first ``bash`` block (so it times what the README
says, not a copy), clones the repository's last commit into a temporary folder (``--keep DIR`` to
keep it), and runs each there with ``bash -c``, as on a fresh machine: the first (a new virtual
environment, the install, the main job) with an empty data directory, then the test command in
the environment the first made. It prints each command's wall time, its CPU time (the command and
every process it started) and its exit code, then the last line pytest printed (its counts).
``--command tests`` alone needs the first's environment: give a ``--keep`` folder a first run left.
``--dry-run`` prints the commands it would time, and runs nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

from cpu_clock import children_cpu

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("first", "tests")


def readme_commands(readme: Path = ROOT / "README.md") -> dict[str, str]:
    """The first and the test command, the two lines of the README's first ``bash`` block."""
    block = re.search(r"^```bash\n(.*?)^```", readme.read_text(), re.M | re.S)
    lines = [line for line in block.group(1).splitlines() if line.strip()] if block else []
    if len(lines) != len(NAMES):
        raise SystemExit(f"{readme} has no first bash block of two commands: the script cannot time them")
    return dict(zip(NAMES, lines, strict=True))


def timed(command: str, cwd: Path, data: Path) -> tuple[float, float, int, str]:
    """Run ``command`` in ``cwd``: its wall seconds, CPU seconds, exit code and last line printed."""
    # This machine's environment (the package index settings among it) less any virtual environment
    # or data directory of the caller's, so that the clone's commands find only their own, and less
    # PYTHONDONTWRITEBYTECODE, which a newcomer's shell does not set (it would time the compiler).
    dropped = ("VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in dropped and not k.startswith("CONTINUAL_ARC")}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if not p.endswith("/.venv/bin")
    )
    env["CONTINUAL_ARC_DATA"] = str(data)
    before, start = children_cpu(), time.perf_counter()
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, children_cpu() - before
    # The last line of its output (pytest's counts, the protocol's table), else of its errors.
    lines = [line for line in (done.stdout or done.stderr).splitlines() if line.strip()]
    return wall, cpu, done.returncode, lines[-1] if lines else ""


def main() -> None:
    """Clone, run the commands asked for, print their times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--command", choices=NAMES, action="append", help="default: both, in order")
    parser.add_argument("--keep", type=Path, help="clone into this folder (or reuse it) and keep it")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    args = parser.parse_args()
    commands = readme_commands()
    if args.dry_run:
        for name in args.command or NAMES:
            print(f"{name}: {commands[name]}\nnot run (--dry-run)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        clone = args.keep or Path(tmp, "clone")
        if not clone.exists():
            subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(clone)], check=True)
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True, text=True
        )
        print(
            f"a clone of commit {commit.stdout.strip()}, an empty data directory; each command with bash -c"
        )
        for name in args.command or NAMES:
            wall, cpu, code, last = timed(commands[name], clone, Path(tmp, "data"))
            print(f"\n$ {commands[name]}")
            print(
                f"{name}: {wall:.0f} s of wall time ({wall / 60:.1f} min), {cpu:.0f} CPU-seconds, exit {code}"
            )
            print(f"its last line: {last}")


if __name__ == "__main__":
    from record import run as run_benchmark

    run_benchmark("readme_commands", main)
