"""The launcher's isolate layers, run by root and by another user: what a program inside sees."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from continual_arc.core.sandbox import WORK_INSIDE, start_sandboxed

PROBE = r"""
import json, os
from pathlib import Path

def status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1], 16)

Path("mine.txt").write_text("written in its folder")
print(json.dumps({
    "uid": os.getuid(), "pid": os.getpid(), "ppid": os.getppid(), "cwd": os.getcwd(),
    "home": os.environ.get("HOME"), "tmpdir": os.environ.get("TMPDIR"),
    "tmp": sorted(os.listdir("/tmp")), "dev": sorted(os.listdir("/dev")),
    "processes": sorted(p for p in os.listdir("/proc") if p.isdigit()),
    "effective": status("CapEff"), "bounding": status("CapBnd"),
}))
"""

RUNNER = r"""
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])  # the launcher is standard library only: no installation needed
from continual_arc.core.sandbox import start_sandboxed
root = Path(sys.argv[1])
process = start_sandboxed([sys.executable, str(root / "probe.py")], env={}, cwd=root / "work",
                          read_dirs=[sys.base_prefix, str(root)], write_dirs=[root / "work"], port=None,
                          bridge=None, log_dir=root / "log", isolate=True)
sys.exit(process.stop(60))
"""


@pytest.fixture
def root() -> Iterator[Path]:
    """A folder every user may read, outside pytest's own (which only root may enter)."""
    folder = Path(tempfile.mkdtemp(prefix="carc-isolate-"))
    folder.chmod(0o755)
    (folder / "probe.py").write_text(PROBE)
    (folder / "work").mkdir()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _seen(root: Path) -> dict[str, Any]:
    said: dict[str, Any] = json.loads((root / "log" / "stdout.txt").read_text())
    return said


def _check(said: dict[str, Any], report: dict[str, Any]) -> None:
    if not (report.get("pid_namespace") and report.get("private_root")):
        pytest.skip(f"this kernel refused the namespaces: {report}")
    assert said["pid"] == 1 and said["ppid"] == 0 and said["processes"] == ["1"]  # nothing outside in sight
    assert said["cwd"] == said["home"] == said["tmpdir"] == WORK_INSIDE
    assert said["dev"] == [
        "fd",
        "full",
        "null",
        "random",
        "shm",
        "stderr",
        "stdin",
        "stdout",
        "urandom",
        "zero",
    ]
    assert said["uid"] != 0 and said["effective"] == 0 and said["bounding"] == 0
    assert report["uid"] == said["uid"] and report["capabilities"] == 0


def test_run_by_root_the_program_is_nobody_in_a_world_of_its_own(root: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("run by root only")
    python = getattr(sys, "_base_executable", sys.executable)
    process = start_sandboxed([python, str(root / "probe.py")], env={}, cwd=root / "work",
                              read_dirs=[sys.base_prefix, str(root)], write_dirs=[root / "work"], port=None,
                              bridge=None, log_dir=root / "log", isolate=True)  # fmt: skip
    assert process.stop(60) == 0, (root / "log" / "stderr.txt").read_text()
    said = _seen(root)
    _check(said, process.isolation())
    assert said["uid"] == 65534 and said["tmp"] == [root.name]  # /tmp holds only what it may read
    assert (root / "work" / "mine.txt").stat().st_uid == 65534


def test_run_by_another_user_the_program_keeps_that_user_without_capabilities(root: Path) -> None:
    system = Path("/usr/bin/python3")  # an interpreter another user may run (root's pyenv is closed)
    if os.geteuid() != 0 or shutil.which("setpriv") is None or not system.exists():
        pytest.skip("needs root, setpriv and /usr/bin/python3, to play another user")
    for folder in (root / "work", root / "log"):
        folder.mkdir(exist_ok=True)
        os.chown(folder, 65534, 65534)
    (root / "runner.py").write_text(RUNNER)
    package = Path(__file__).resolve().parents[2] / "src" / "continual_arc"  # a copy another user can reach
    shutil.copytree(package, root / "src" / "continual_arc", ignore=shutil.ignore_patterns("__pycache__"))
    src = str(root / "src")
    command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", str(system), "-I"]
    done = subprocess.run(
        [*command, str(root / "runner.py"), str(root), src], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    report = json.loads((root / "log" / "isolation.json").read_text())
    if not report.get("user_namespace"):
        pytest.skip("this kernel refuses user namespaces to a user other than root")
    _check(_seen(root), report)
