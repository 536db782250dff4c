"""The search benchmark's generated sets: ``arcgen`` draws the arc2 pool as ``rearc`` draws arc1's."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from continual_arc.data import arcgen
from continual_arc.data.screen import screened_pool
from continual_arc.tracks.registry import get_source
from continual_arc_baselines.dsl import Prior

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _search_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("search_sets_under_test", BENCHMARKS / "search.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_arcgen_set_is_the_arc2_pool_and_all_of_it_is_train2(arc2_data: Path) -> None:
    module = _search_module()
    ids = module._ids("arcgen")
    assert ids == list(screened_pool("arc2"))
    assert set(ids) <= set(get_source("arc2/training").task_ids())
    assert "arcgen" in module.SETS and "arcgen" in module.GENERATED


def test_an_arcgen_record_is_the_same_each_time_its_seed_draws_it(arc2_data: Path) -> None:
    module = _search_module()
    task = module._ids("arcgen")[0]
    job = (0, task, 3, 50, Prior.empty().to_json(), "core")
    first, again = module.arcgen_task(job), module.arcgen_task(job)
    assert first["task"] == task
    assert first["applications"] <= 50
    first.pop("seconds"), again.pop("seconds")
    assert first == again
    # The instance it searched is the one the arc2 track's seed 10,000 names: three of its
    # demonstrations, each with an input of its own, none the test input.
    test = arcgen.instance(task, module.REARC_SEED)
    demos = arcgen.demonstrations(task, module.REARC_SEED, 3, test[0])
    assert len({d[0] for d in demos} | {test[0]}) == 4
