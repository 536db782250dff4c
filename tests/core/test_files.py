from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

from continual_arc.core.files import atomic_write_text


def test_a_write_into_a_missing_folder_creates_it_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "file.json"
    atomic_write_text(target, "one\n", fsync=False)
    atomic_write_text(target, "two\n")
    assert target.read_text() == "two\n"
    assert os.listdir(target.parent) == ["file.json"]


def test_a_written_file_is_readable_by_all_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        atomic_write_text(tmp_path / "f.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "f.txt").stat().st_mode) == 0o644


def test_a_temporary_file_left_by_a_killed_writer_is_overwritten(tmp_path: Path) -> None:
    stale = tmp_path / f".f.txt.{os.getpid()}-{threading.get_ident()}.tmp"
    stale.write_text("half of an old writ")
    atomic_write_text(tmp_path / "f.txt", "whole")
    assert (tmp_path / "f.txt").read_text() == "whole"
    assert sorted(os.listdir(tmp_path)) == ["f.txt"]


def test_threads_writing_beside_each_other_each_write_whole(tmp_path: Path) -> None:
    def write(n: int) -> None:
        for k in range(50):
            atomic_write_text(tmp_path / f"{n}.txt", f"{n} {k}\n" * 100, fsync=False)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(os.listdir(tmp_path)) == [f"{n}.txt" for n in range(4)]
    assert all((tmp_path / f"{n}.txt").read_text() == f"{n} 49\n" * 100 for n in range(4))
