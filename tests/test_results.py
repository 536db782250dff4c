"""The repository's own results: every experiment's tables recomputed from runs/, and runs/ ranked.

Slow: each table's intervals are bootstrapped again (10,000 resamples) from the stored records.
Runs that are not canonical (a smoke configuration's) are stored in the folder of the experiment
they back, ``experiments/NAME/runs/``: fast tests hold each to its experiment and to ``check``.
The tables read records alone, on any Python; checking the arc3 runs needs the arc3 track (Python
3.12), so elsewhere the leaderboard refuses them, and only for that reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.config import ScheduleError
from continual_arc.core.files import read_json
from continual_arc.submit.check import check_submission
from continual_arc.submit.leaderboard import check_result, find_results, leaderboard
from continual_arc.sweep.experiments import load_experiment
from continual_arc.tracks.registry import get_track, use_pack

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = sorted(p for p in (ROOT / "experiments").iterdir() if (p / "experiment.toml").is_file())
RUNS = ROOT / "runs"
STORED = sorted(p for p in RUNS.glob("arc[123]-*-seed[0-9]") if (p / "submission.json").is_file())
"""The stored runs, as .gitignore admits them: not anything else a person wrote into runs/ (a
command's default --out is out/, never runs/)."""
EXPERIMENT_RUNS = sorted(p for p in (ROOT / "experiments").glob("*/runs/*") if p.is_dir())
"""The runs that back one experiment and are not canonical, each in its experiment's runs/."""


def _installed(track: str) -> bool:
    try:
        get_track(track)
    except ScheduleError:
        return False
    return True


def test_every_run_has_a_row_in_the_runs_readme() -> None:
    listed = (RUNS / "README.md").read_text()
    stored = [p.name for p in STORED]
    assert len(stored) >= 4 and [name for name in stored if f"| `{name}` |" not in listed] == []


def test_every_experiment_run_is_listed_in_its_readme_and_read_by_its_experiment() -> None:
    assert len(EXPERIMENT_RUNS) >= 6  # the library sweep's: two values of keep, three seeds
    for run in EXPERIMENT_RUNS:
        folder = run.parents[1]
        read = {path.resolve() for table in load_experiment(folder).tables for path in table.runs}
        assert (run / "submission.json").is_file(), f"{run} is not a stored run"
        assert run.resolve() in read, f"{run} is read by no table of {folder / 'experiment.toml'}"
        assert f"| `{run.name}` |" in (folder / "README.md").read_text(), f"{run} has no row in its README"


def test_experiment_runs_are_never_taken_for_canonical_ones() -> None:
    assert not set(EXPERIMENT_RUNS) & set(STORED)
    assert not [run for run in EXPERIMENT_RUNS if RUNS in run.parents]
    # leaderboard runs/ looks under runs/ alone, so none of these can reach it
    assert not [p for p in find_results([RUNS]) if ROOT / "experiments" in p.parents]


@pytest.mark.parametrize("run", EXPERIMENT_RUNS, ids=lambda p: f"{p.parents[1].name}/{p.name}")
def test_each_experiment_run_passes_check_records_only_as_an_ablation_or_a_rerun(
    run: Path, request: pytest.FixtureRequest
) -> None:
    if read_json(run / "stream" / "meta.json")["schedule"]["track"] == "arc2":
        request.getfixturevalue("arc2_data")  # its schedules are rebuilt from the fetched data
    marker = run / "verification.json"
    if marker.is_file() and read_json(marker)["mode"] == "verified":  # played on a rule pack of packs/
        use_pack(ROOT / "packs" / read_json(marker)["about"]["pack"])
    result = check_submission(run, allow_ablation=True, records_only=True)
    assert (result.ok, result.problems, result.records_only) == (True, [], True)
    assert result.numbers is not None and result.numbers["protocol"]["canonical"] is False
    strict = check_submission(run, records_only=True)
    assert strict.standing is not None
    if strict.standing.kind != "reported":  # a signed verify rerun plays at a seed of its own, by rule
        assert (strict.ok, strict.problems) == (True, [])
    else:  # refused for that reason alone, as leaderboard runs/ would refuse it; a verify rerun too,
        # unsigned: its verification.json is believed only through a signature (docs/VERIFY.md)
        assert strict.problems and all("not canonical" in problem for problem in strict.problems)


def test_the_library_sweeps_pooled_table_is_the_one_the_sweep_wrote() -> None:
    # sweep-table.md is the sweep's own table.md, copied as written; the slow test below proves
    # tables.md is what the stored runs give, so the runs give the sweep's table
    folder = ROOT / "experiments" / "library-sweep"
    tables = (folder / "tables.md").read_text().split("\n## ")
    assert tables[1].startswith("Both values of keep")
    table = [line for line in tables[1].splitlines(keepends=True)[2:] if "--8<--" not in line]
    assert "".join(table) == (folder / "sweep-table.md").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("folder", EXPERIMENTS, ids=lambda p: p.name)
def test_every_stored_table_is_what_its_runs_give(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["figures", str(folder)])
    assert (status, capsys.readouterr().err) == (0, "")


@pytest.mark.slow
def test_the_leaderboard_ranks_every_stored_run_records_only(arc2_data: Path) -> None:
    # arc2_data: the arc2 runs' schedules are rebuilt from its fetched data, as the checker does
    board = leaderboard([check_result(path) for path in find_results(STORED)])
    assert board.tables == () and board.refused == ()  # stored runs signed by nobody trusted: reported
    ranked = {
        Path(seed.path).name: seed
        for table in board.reported
        for row in table.rows
        for seed in (row.by_seed or (row,))
    }
    for entry in board.not_here:  # only a track that is not installed here
        assert "arc3 track needs" in entry.reason and not _installed("arc3"), entry.reason
    assert {name.split("-")[0] for name in ranked} >= {"arc1", "arc2"}
    for name, row in ranked.items():
        assert row.records_only and row.status == "reported", name
        if name.startswith("arc3-"):  # stored before the floor was played beside every result
            assert row.flags and all("floor not played" in flag for flag in row.flags), (name, row.flags)
        else:  # stored again, on the wide catalogue, with the floor played on both tests
            assert not row.flags, (name, row.flags)
    arc1 = next(table for table in board.reported if (table.track, table.users) == ("arc1", 1))
    (library,) = [row for row in arc1.rows if Path(row.path).name.startswith("arc1-library-")]
    assert library.seeds == (0, 1, 2) and [Path(s.path).name for s in library.by_seed] == [
        f"arc1-library-seed{seed}" for seed in (0, 1, 2)
    ]
    assert "arc1-demo-cache-seed0" in ranked  # the curve's floor: the same class, keeping demonstrations
    sixteen = next(table for table in board.reported if (table.track, table.users) == ("arc1", 16))
    assert [row.learner.rsplit(":", 1)[1] for row in sixteen.rows] == ["PriorLibraryLearner"]
