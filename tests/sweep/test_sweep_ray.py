"""Sweeps on a local Ray instance the test starts (2 CPUs); skipped where Ray is not installed."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sweep_checks import HERE, TOY_PAIR, interrupted_sweep, plays, slow, write_spec

from continual_arc.sweep.collect import collect, rows
from continual_arc.sweep.driver import SweepOptions, run_sweep
from continual_arc.sweep.spec import load_spec
from continual_arc.sweep.table import markdown, table_csv

ray: Any = pytest.importorskip("ray", reason="Ray is an optional extra: pip install -e '.[ray]'")


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    """A local Ray instance of 2 CPUs whose workers can import this directory's learners."""
    saved = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(HERE), *(p for p in sys.path if p)])
    try:
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


@pytest.mark.slow
def test_ray_and_the_local_pool_give_byte_identical_tables(tmp_path: Path, ray_address: str) -> None:
    spec = load_spec(write_spec(tmp_path / "toy.toml", TOY_PAIR, config="arc1-smoke"))
    local = run_sweep(SweepOptions(spec, tmp_path / "local", engine="local", max_parallel=2))
    on_ray = run_sweep(SweepOptions(spec, tmp_path / "ray", engine="ray"))
    assert local.complete and on_ray.complete and set(on_ray.status.values()) == {"done"}
    tables = [rows(collect([tmp_path / name]), resamples=500) for name in ("local", "ray")]
    assert markdown(tables[0]) == markdown(tables[1])
    assert table_csv(tables[0]) == table_csv(tables[1])
    assert plays(tmp_path / "local") == plays(tmp_path / "ray")
    again = run_sweep(SweepOptions(spec, tmp_path / "ray", engine="ray"))
    assert set(again.status.values()) == {"skipped"}


@pytest.mark.slow
def test_a_killed_ray_worker_and_driver_lose_and_double_nothing(tmp_path: Path, ray_address: str) -> None:
    reference = tmp_path / "reference"
    run_sweep(
        SweepOptions(load_spec(write_spec(tmp_path / "ref.toml", slow(0.0))), reference, engine="local")
    )
    out = tmp_path / "sweep"
    seen = interrupted_sweep(write_spec(tmp_path / "slow.toml", slow(0.4)), out, ["--address", ray_address])
    assert seen["retried_by"] != seen["killed_worker"] and seen["stream_resumes"]
    assert plays(out) == plays(reference)
    assert (out / "table.md").read_text() == markdown(rows(collect([reference]), resamples=500))
