"""The search gives the same programs for the same demonstrations in any process."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from continual_arc.core.grids import Grid
from continual_arc.tracks.registry import get_source
from continual_arc.tracks.sources import FixedSource
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.fitting import NEAR_CELLS

TASKS = 50

_CHILD = """
import json, sys
from continual_arc.tracks.registry import get_source
from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.ops import CATALOGUES
TASKS = int(sys.argv[1])
catalogue = CATALOGUES[sys.argv[2]]
source = get_source(sys.argv[3])
out = []
for task in source.task_ids()[:TASKS]:
    train, tests = source.pairs(task)
    result = search(train, tests[0][0], max_candidates=4, catalogue=catalogue)
    out.append([task, result.applications, result.first_fit,
                [[c.program.text, c.prediction, c.cost, c.found_at] for c in result.candidates]])
print(json.dumps(out))
"""


def _missed(made: Grid | None, want: Grid) -> int:
    """The cells where ``made`` differs from ``want``; more than any grid holds when its shape does."""
    if made is None or len(made) != len(want) or len(made[0]) != len(want[0]):
        return 901
    return sum(
        a != b for row, wanted in zip(made, want, strict=True) for a, b in zip(row, wanted, strict=True)
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("catalogue", "set_name"),
    # next's steps were found on the training tasks, so those are where its fitters fire most.
    [("core", "arc1/evaluation"), ("wide", "arc1/evaluation"), ("next", "arc1/training")],
)
def test_fifty_tasks_search_alike_under_two_hash_seeds(catalogue: str, set_name: str) -> None:
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(TASKS), catalogue, set_name],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        for seed in ("1", "4242")
    ]
    outputs = [child.communicate(timeout=900)[0] for child in children]
    assert all(child.returncode == 0 for child in children)
    assert outputs[0] == outputs[1]
    results = json.loads(outputs[0])
    assert len(results) == TASKS and sum(bool(r[3]) for r in results) >= 5
    source = get_source(set_name)
    assert isinstance(source, FixedSource)
    for task, _, _, candidates in results:
        train, tests = source.pairs(task)
        for text, prediction, _, _ in candidates:
            # Each program, parsed again from its text alone, reproduces the demonstrations and its
            # answer; under next's nearfit, but for a cell or two of one demonstration.
            program = parse(text)
            wrong = [(execute(program, i), o) for i, o in train if execute(program, i) != o]
            near = catalogue == "next" and len(wrong) == 1 and _missed(*wrong[0]) <= NEAR_CELLS
            assert not wrong or near
            assert execute(program, tests[0][0]) == tuple(tuple(r) for r in prediction)
