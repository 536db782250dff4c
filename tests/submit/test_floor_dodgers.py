"""The resets that dodge the give-up and first-sight flags carry the floor flag; the libraries do not.

On arc1's canonical tests (seed 0, one user), each learner's reset plays each test one instance at
a time, as the protocol's reset does, and is read against the track's floor played on the same
schedule (tests/learners/dodging_learners.py for the dodgers):

* ``GiveUpDodger`` never solves at first sight and its reset gives up on every instance;
* ``HandicapDodger``'s reset fails about half its instances on purpose;
* the program library and the prior library, whose resets search as the floor does.

The flag's condition is computed again here, apart from the code: each task's summed excess of the
reset over the floor, resampled with a generator of the test's own, its 2.5th percentile.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from continual_arc.core.learner_ref import LearnerRef
from continual_arc.measure.reset_flags import FloorPlay, below_floor
from continual_arc.play.rundir import read_records
from continual_arc.protocol.floor import floor_learner, floor_schedule, track_floor
from continual_arc.protocol.jobs import PlayJob, play_job
from continual_arc.tracks.registry import get_config

LEARNERS = Path(__file__).resolve().parents[1] / "learners"
DODGERS = ("dodging_learners:GiveUpDodger", "dodging_learners:HandicapDodger")
LIBRARIES = (
    "continual_arc_baselines.library:ProgramLibraryLearner",
    "continual_arc_baselines.library:PriorLibraryLearner",
)
TESTS = ("held-out", "seen")


def _lower_end(reset: list[dict[str, object]], floor: list[dict[str, object]]) -> tuple[float, float]:
    """The mean excess of the reset over the floor (points) and its 2.5th percentile, computed here.

    Instances are paired by (task, seed); tasks are resampled with replacement, 20,000 times, by a
    generator seeded apart from the code's.
    """
    floors = {(r["task_id"], r["seed"]): r for r in floor}
    per_task: dict[str, list[float]] = {}
    for r in reset:
        f = floors[(r["task_id"], r["seed"])]
        excess = 100 * (float(r["charge"]) - float(f["charge"])) / float(r["max_cost"])  # type: ignore[arg-type]
        per_task.setdefault(str(r["task_id"]), []).append(excess)
    sums = np.array([sum(v) for v in per_task.values()])
    counts = np.array([len(v) for v in per_task.values()])
    picks = np.random.default_rng(20261206).integers(0, len(sums), size=(20_000, len(sums)))
    means = sums[picks].sum(axis=1) / counts[picks].sum(axis=1)
    return float(sums.sum() / counts.sum()), float(np.percentile(means, 2.5))


@pytest.mark.slow
def test_the_dodging_resets_carry_the_floor_flag_and_the_libraries_do_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(LEARNERS))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(LEARNERS), os.environ.get("PYTHONPATH", "")]))
    config = get_config("arc1")
    learner = floor_learner(config)
    assert learner is not None
    flagged: dict[tuple[str, str], bool] = {}
    for test in TESTS:
        schedule = floor_schedule(config, 0, test)
        floor = track_floor(schedule, learner)  # played once, then a cache hit for every reset's searches
        assert floor is not None
        floor_records = floor.records()
        schedule.save(tmp_path / f"{test}.json")
        for name in (*DODGERS, *LIBRARIES):
            out = tmp_path / name.rsplit(":", 1)[1] / f"{test}-reset"
            job = PlayJob(name=f"{test}-reset", out=out, schedule=tmp_path / f"{test}.json",
                          learner=LearnerRef(name), state=None, salt=None)  # fmt: skip
            play_job(job)
            reset = read_records(out)
            flag = below_floor(test, reset, FloorPlay(learner, floor_records))
            mean, low = _lower_end(reset, floor_records)
            assert flag.excess.value == pytest.approx(mean)
            # the code's interval and this one agree on which side of zero the lower end lies
            if low > 1.0:
                assert flag.flagged, (name, test, flag)
            elif low <= 0.0:
                assert not flag.flagged, (name, test, flag)
            flagged[(name, test)] = flag.flagged
            if name == DODGERS[0]:  # its reset gives up on every instance, as the issue says
                assert all(r["charge"] == r["max_cost"] for r in reset)
            if name in LIBRARIES:  # a reset that searches as the floor does spends what it spends
                assert flag.excess.value == pytest.approx(0.0, abs=1.0), (name, test, flag)
    assert all(flagged[(name, test)] for name in DODGERS for test in TESTS)  # each dodger, on both tests
    assert not any(flagged[(name, test)] for name in LIBRARIES for test in TESTS)
