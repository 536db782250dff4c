"""The per-process limits: sizes as written, the sentences, and the watch that ends a program."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc.core.sandbox import Limits, Watch, parse_size, processes_under, sentence, size_text

UNITS = {"": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}


@given(st.integers(min_value=0, max_value=1 << 20), st.sampled_from(sorted(UNITS)))
def test_a_size_reads_as_its_number_times_its_unit(number: int, unit: str) -> None:
    assert parse_size(f"{number}{unit}") == number * UNITS[unit]
    assert parse_size(f" {number} {unit.lower()} ") == number * UNITS[unit]


@given(st.integers(min_value=0, max_value=1 << 40))
def test_a_whole_size_written_is_read_back(value: int) -> None:
    text = size_text(value)
    if "." not in text:  # a rounded figure is for reading, not for reading back
        assert parse_size(text.replace(" bytes", "")) == value


@pytest.mark.parametrize("text", ["", "GiB", "-1", "4 GB?", "1e3", "4 PiB"])
def test_what_is_not_a_size_is_refused_in_one_sentence(text: str) -> None:
    with pytest.raises(ValueError, match="is not a size") as refused:
        parse_size(text)
    assert "\n" not in str(refused.value)


def test_each_limit_has_its_sentence_naming_its_value_and_option() -> None:
    assert sentence("memory_bytes", 4 << 30) == (
        "the learner's process went over its memory limit of 4 GiB and was ended "
        "(continual-arc verify --memory-limit)"
    )
    assert "process limit of 64 processes" in sentence("processes", 64)
    assert "--process-limit" in sentence("processes", 64)
    for kind in vars(Limits()):
        assert sentence(kind, 1 << 20).startswith("the learner's process went over its ")


def test_processes_under_counts_every_descendant(tmp_path: Path) -> None:
    script = "import subprocess, sys, time\n" + "\n".join(
        [f"p{n} = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'])" for n in range(3)]
    ) + "\nprint('ready', flush=True)\ntime.sleep(30)\n"  # fmt: skip
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, start_new_session=True)
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == b"ready"
        assert processes_under(parent.pid) == 3
        assert processes_under(os.getpid()) >= 4  # them and their parent, under this process
    finally:
        os.killpg(parent.pid, 9)
        parent.wait()
    assert processes_under(parent.pid) == 0  # gone: nothing under it


@pytest.mark.parametrize(
    ("limits", "act", "kind"),
    [
        (Limits(processes=2), "spawn", "processes"),
        (Limits(folder_bytes=1 << 20), "fill", "folder_bytes"),
        (Limits(log_bytes=64 << 10), "talk", "log_bytes"),
        (Limits(file_bytes=1 << 20), "big", "file_bytes"),
    ],
)
def test_the_watch_ends_a_program_over_a_limit_with_its_sentence(
    tmp_path: Path, limits: Limits, act: str, kind: str
) -> None:
    acts = {
        "spawn": "[subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)']) for n in 'abcd']",
        "fill": "[open(f'f{n}', 'wb').write(os.urandom(300_000)) for n in range(6)]",
        "talk": "sys.stderr.write('x' * 100_000); sys.stderr.flush()",
        "big": "open('big', 'wb').write(b'x' * (1 << 20))",
    }
    script = f"import os, subprocess, sys, time\n{acts[act]}\ntime.sleep(30)\n"
    log = tmp_path / "stderr.txt"
    with open(log, "wb") as err:
        program = subprocess.Popen(
            [sys.executable, "-c", script], cwd=tmp_path, stderr=err, start_new_session=True
        )
    watch = Watch(program.pid, limits, tmp_path, log, every=0.05)
    started = time.monotonic()
    try:
        program.wait(timeout=20)
    finally:
        watch.stop()
        if program.poll() is None:
            os.killpg(program.pid, 9)
    assert time.monotonic() - started < 20
    assert watch.hit == sentence(kind, getattr(limits, kind))


def test_the_watch_leaves_a_program_within_its_limits_alone(tmp_path: Path) -> None:
    log = tmp_path / "stderr.txt"
    log.touch()
    program = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.6)"], cwd=tmp_path)
    watch = Watch(program.pid, Limits(), tmp_path, log, every=0.05)
    assert program.wait(timeout=20) == 0
    watch.stop()
    assert watch.hit is None
