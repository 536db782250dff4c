"""The fork server: a program forked from it runs in the sandbox, alone, and ends as it says."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from continual_arc.core.sandbox import launch_config
from continual_arc.core.sandbox.zygote import Zygote

PROBE = r"""
import json, os, sys


def main():
    carried = getattr(json, "carried", None)  # left on a module the zygote imported, by an earlier fork
    json.carried = "by an earlier program"
    said = {"pid": os.getpid(), "uid": os.getuid(), "carried": carried, "argv": sys.argv[1:]}
    print(json.dumps(said), flush=True)
    for line in sys.stdin:
        if line.strip() == "sleep":
            import time
            time.sleep(120)
        sys.exit(int(line))


if __name__ == "__main__":
    main()
"""


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder every user may read, holding the probe package, outside pytest's (only root's)."""
    root = Path(tempfile.mkdtemp(prefix="carc-zygote-"))
    root.chmod(0o755)
    (root / "zprobe").mkdir()
    (root / "zprobe" / "__init__.py").write_text("")
    (root / "zprobe" / "main.py").write_text(PROBE)  # in a package, as the learner side is
    yield root
    for path in sorted(root.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    root.rmdir()


def _config(folder: Path, name: str) -> dict[str, object]:
    work = folder / name
    work.mkdir()
    argv = [sys.executable, "-m", "zprobe.main", "an argument"]
    return launch_config(argv, env={"PYTHONPATH": str(folder)}, cwd=work,
                         read_dirs=[sys.prefix, sys.base_prefix, str(folder)], write_dirs=[work],
                         port=None, bridge=None, log_dir=folder / f"{name}.log", isolate=True)  # fmt: skip


def test_each_program_starts_from_the_zygote_not_from_the_last_program(folder: Path) -> None:
    with Zygote(
        {"PYTHONPATH": str(folder)}, folder / "zygote.txt", preload=("json", "zprobe.main")
    ) as zygote:
        said = []
        for number, code in enumerate((3, 0)):
            process = zygote.spawn(_config(folder, f"p{number}"), folder / f"p{number}.err")
            assert process.stdout is not None and process.stdin is not None
            said.append(json.loads(process.stdout.readline()))
            process.stdin.write(f"{code}\n".encode())
            process.stdin.flush()
            assert process.wait(timeout=30) == code, (folder / f"p{number}.err").read_text()
        report = json.loads((folder / "p0.log" / "isolation.json").read_text())
    assert [s["carried"] for s in said] == [None, None]  # nothing one program did reached the next
    assert (folder / "p0.err").read_text() == ""  # a preloaded module run as __main__ says nothing of it
    assert all(s["argv"] == ["an argument"] for s in said)
    if report.get("pid_namespace"):
        assert [s["pid"] for s in said] == [1, 1]
    if os.geteuid() == 0 and report.get("private_root"):
        assert [s["uid"] for s in said] == [65534, 65534] and report["capabilities"] == 0


def test_a_killed_program_is_reported_ended_and_the_zygote_goes_on(folder: Path) -> None:
    with Zygote({"PYTHONPATH": str(folder)}, folder / "zygote.txt", preload=()) as zygote:
        process = zygote.spawn(_config(folder, "sleeper"), folder / "sleeper.err")
        assert process.stdout is not None and process.stdin is not None
        process.stdout.readline()
        process.stdin.write(b"sleep\n")
        process.stdin.flush()
        assert process.poll() is None
        process.kill()
        assert process.wait(timeout=30) != 0
        after = zygote.spawn(_config(folder, "after"), folder / "after.err")
        assert after.stdin is not None
        after.stdin.write(b"0\n")
        after.stdin.flush()
        assert after.wait(timeout=30) == 0


SEARCHER = r"""
import gc, json, sys


def strings(value, depth=0):
    if isinstance(value, str):
        yield value
    elif depth < 3 and isinstance(value, dict):
        for key, item in list(value.items()):
            yield from strings(key, depth + 1)
            yield from strings(item, depth + 1)
    elif depth < 3 and isinstance(value, (list, tuple)):
        for item in list(value):
            yield from strings(item, depth + 1)


def main():
    secret = sys.argv[1][::-1]  # the log folder's name, given reversed: the copy here is not a find
    found = [s for obj in gc.get_objects() for s in strings(obj) if secret in s and s is not secret]
    frame = sys._getframe()
    while frame is not None:
        found += [f"{frame.f_code.co_name}: {name}" for name, value in list(frame.f_locals.items())
                  if name != "secret" and any(secret in s for s in strings(value))]
        frame = frame.f_back
    print(json.dumps(found), flush=True)


if __name__ == "__main__":
    main()
"""


def test_a_forked_program_holds_nothing_of_its_launch_configuration(folder: Path) -> None:
    (folder / "zprobe" / "search.py").write_text(SEARCHER)
    name = "launch-f0e1d2c3b4a5"  # its log folder, which the configuration names (its report's path)
    work = folder / "searcher"
    work.mkdir()
    argv = [sys.executable, "-m", "zprobe.search", name[::-1]]
    config = launch_config(argv, env={"PYTHONPATH": str(folder)}, cwd=work,
                           read_dirs=[sys.prefix, sys.base_prefix, str(folder)], write_dirs=[work],
                           port=None, bridge=None, log_dir=folder / name, isolate=True)  # fmt: skip
    with Zygote({"PYTHONPATH": str(folder)}, folder / "zygote.txt", preload=("json",)) as zygote:
        process = zygote.spawn(config, folder / "searcher.err")
        assert process.stdout is not None
        found = json.loads(process.stdout.readline() or "null")
        assert process.wait(timeout=30) == 0, (folder / "searcher.err").read_text()
    assert found == []  # no string the collector reaches, no frame under the program's, names it
