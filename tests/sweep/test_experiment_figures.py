"""An experiment's figures (curve, users, cost): their numbers checked as tables, their drawings made.

Every protocol here is written by hand, a few records each, so that each number the figures must
show is worked out beside the records that give it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from continual_arc.cli import main
from continual_arc.core.records import Record, RunMeta
from continual_arc.measure.summary import summarize, summary_json
from continual_arc.sweep.experiments import ExperimentError, load_experiment
from continual_arc.sweep.experiments.charts import figure_clash, figure_file

SCHEDULES = {
    "stream": {},
    "stream-reset": {"reset_each": True},
    "seen": {"test": "seen"},
    "seen-reset": {"test": "seen", "width": 1},
    "held-out": {"test": "held-out"},
    "held-out-reset": {"test": "held-out", "width": 1},
}
"""Each play's schedule meta, as the runner writes it (what tells a play's role apart)."""


def rec(
    task: str, charge: int, phase: str = "stream", exposure: int = 0, seed: int = 0, step: int = 0
) -> Record:
    """A primary record with a budget of 16 (u = charge * 100 / 16), whole as the runner writes one."""
    return cast(Record, {
        "task_id": task, "seed": seed, "charge": charge, "max_cost": 16, "solved": charge < 16,
        "phase": phase, "exposure_index": exposure, "gap": None, "step": step, "round": step,
        "user": 0, "actions": [], "end": "solved" if charge < 16 else "gave up",
        "episode_type": "primary", "alias": f"task-{task}", "reset_before": False,
        "user_exposure_index": exposure, "user_gap": None, "demos_bought": 0, "demos_refused": 0,
        "wrong_attempts": 0, "budget_share": charge / 16, "wall_time": 0.0, "learner_time": 0.0,
        "resources": {}, "instance_resources": None, "error": None,
    })  # fmt: skip


def write_run(
    run: Path, play: str, records: list[Record], *, users: int, seed: int, kwargs: dict[str, str]
) -> None:
    """A finished run directory: the meta the figures read, the records, and the summary they give."""
    run.mkdir(parents=True)
    block = {"canonical": False, "deviations": ["written by hand"], "track": "toy"}
    schedule = {"config": "toy", "configuration": {}, "track": "toy", "seed": seed, "users": users,
                "order": None, "test": None, "width": None, "reset_each": False, "epilogue": False,
                "rounds_cut": None, "sources": {}, "protocol": block, **SCHEDULES[play]}  # fmt: skip
    learner = {"class": "pkg.mod:Toy", "kwargs": kwargs}
    meta = cast(RunMeta, {"format": 1, "schedule": schedule, "learner": learner, "protocol": block,
                          "slots": len(records)})  # fmt: skip
    (run / "meta.json").write_text(json.dumps(meta))
    (run / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    (run / "summary.json").write_text(json.dumps(summary_json(summarize(records, meta))))


def write_protocol(
    path: Path,
    plays: dict[str, list[Record]],
    *,
    users: int = 1,
    seed: int = 0,
    kwargs: dict[str, str] | None = None,
) -> Path:
    (path / "schedules").mkdir(parents=True)
    for play, records in plays.items():
        write_run(path / play, play, records, users=users, seed=seed, kwargs=kwargs or {})
    return path


# The learner's stream: A met at u 50, B at u 100; A returns at u 25, B at u 0; A again at u 12.5.
STREAM = [rec("A", 8), rec("B", 16, step=1), rec("A", 4, exposure=1, step=2), rec("B", 0, exposure=1, step=3),
          rec("A", 2, exposure=2, step=4), rec("A", 16, phase="seen", step=5)]  # fmt: skip
# Its reset: u 100, 100, then 50, 50, then 100.
RESET = [rec("A", 16), rec("B", 16, step=1), rec("A", 8, exposure=1, step=2), rec("B", 8, exposure=1, step=3),
         rec("A", 16, exposure=2, step=4)]  # fmt: skip
# A floor run: its returns cost u 25 and u 75, so it sits at 50.
FLOOR = [rec("A", 8), rec("A", 4, exposure=1, step=1), rec("B", 12, exposure=1, step=2)]


def _tests(
    seen: tuple[list[int], list[int]], held: tuple[list[int], list[int]], seed: int
) -> dict[str, list[Record]]:
    """A protocol's stream and its four test plays: one task per charge, the same tasks at every seed."""
    plays: dict[str, list[Record]] = {"stream": [rec("S", 8, seed=seed)]}
    for test, (learner, reset) in (("seen", seen), ("held-out", held)):
        for play, charges in ((test, learner), (f"{test}-reset", reset)):
            plays[play] = [rec(f"T{i}", c, phase=test, seed=seed) for i, c in enumerate(charges)]
    return plays


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    runs = tmp_path / "runs"
    write_protocol(runs / "library", {"stream": STREAM, "stream-reset": RESET})
    write_run(runs / "floor", "stream", FLOOR, users=1, seed=0, kwargs={"keep": "demos"})
    write_run(runs / "no-return", "stream", [rec("A", 8)], users=1, seed=0, kwargs={})
    # Two tasks a test, each charged alike, so that every bootstrap resample gives the same share.
    # One user: the seen test saves 16 of 16 on each task (1.00), the held-out 8 of 16 (0.50).
    write_protocol(runs / "u1", _tests(([0, 0], [16, 16]), ([8, 8], [16, 16]), 0))
    # Two users, two seeds: each task costs 4 + 12 of the reset's 16 + 16 pooled, saving 0.50 (each
    # seed alone: 0.75 and 0.25); held-out: 16 + 16 against 8 + 8 spends twice the reset's (-1.00).
    write_protocol(runs / "u2s0", _tests(([4, 4], [16, 16]), ([16, 16], [8, 8]), 0), users=2)
    write_protocol(runs / "u2s1", _tests(([12, 12], [16, 16]), ([16, 16], [8, 8]), 1), users=2, seed=1)
    (tmp_path / "experiments" / "x").mkdir(parents=True)
    return tmp_path


def experiment(repo: Path, entries: str) -> Path:
    folder = repo / "experiments" / "x"
    (folder / "experiment.toml").write_text('title = "x"\n' + entries)
    return folder


CURVE = """
[[tables]]
title = "The curve: seed 0"
kind = "curve"
runs = ["../../runs/library"]
floors = ["../../runs/floor", "../../runs/no-return"]
"""

USERS = """
[[tables]]
title = "Users"
kind = "users"
runs = ["../../runs/u1", "../../runs/u2s0", "../../runs/u2s1"]
"""


def written(repo: Path, entries: str, title: str) -> tuple[Path, list[str]]:
    """``figures --write`` over an experiment of ``entries``: its folder, and the lines under ``title``."""
    folder = experiment(repo, entries)
    assert main(["figures", str(folder), "--write"]) == 0
    section = (folder / "tables.md").read_text().split(f"## {title}\n\n", 1)[1]
    lines = section.split("\n## ", 1)[0].splitlines()
    # the first and last lines mark the section for a page's include (see test_experiments)
    assert lines[0].startswith("<!-- --8<-- [start:") and lines[-1].startswith("<!-- --8<-- [end:")
    return folder, lines[1:-1]


def test_a_curve_is_its_numbers_by_exposure_and_its_floors(repo: Path) -> None:
    folder, section = written(repo, CURVE, "The curve: seed 0")
    assert section == [
        "![The curve: seed 0](figures/the-curve-seed-0.svg)",
        "",
        "| k, times met before | learner: instances | learner: U | reset: instances | reset: U |",
        "|---|---|---|---|---|",
        "| 0 | 2 | 75.0 | 2 | 100.0 |",  # (50 + 100) / 2; the reset's (100 + 100) / 2
        "| 1 | 2 | 12.5 | 2 | 50.0 |",  # (25 + 0) / 2; (50 + 50) / 2
        "| 2 | 1 | 12.5 | 1 | 100.0 |",  # the seen test's instance is on no curve
        "",
        "| floor | learner | U over returns |",
        "|---|---|---|",
        "| floor | Toy keep=demos | 50.0 |",  # (25 + 75) / 2
        "| no-return | Toy | - (no task returned) |",
        "",
        "U in points of the budget (lower is better) of the stream's instances whose task had been met "
        "k times before (k = 0: its first meeting); a floor's line is its U over all the returns (k >= 1).",
    ]
    svg = (folder / "figures" / "the-curve-seed-0.svg").read_text()
    assert svg.startswith("<?xml") and "<dc:date>" not in svg


def test_users_pools_each_settings_seeds_per_learner(repo: Path) -> None:
    folder, section = written(repo, USERS, "Users")
    assert section[:6] == [
        "![Users](figures/users.svg)",
        "",
        "| learner | users | seeds | seen: share saved | held-out: share saved |",
        "|---|---|---|---|---|",
        "| Toy (toy) | 1 | 0 | 1.00 [1.00, 1.00] | 0.50 [0.50, 0.50] |",
        "| Toy (toy) | 2 | 0, 1 | 0.50 [0.50, 0.50] | -1.00 [-1.00, -1.00] |",
    ]
    assert (folder / "figures" / "users.svg").is_file()


def test_a_missing_or_stray_drawing_is_a_difference(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = experiment(repo, CURVE)
    assert main(["figures", str(folder), "--write"]) == 0
    capsys.readouterr()
    assert main(["figures", str(folder)]) == 0
    assert (
        capsys.readouterr().out.strip()
        == f"{folder / 'tables.md'}: every table and figure is what its runs give"
    )
    drawing = folder / "figures" / "the-curve-seed-0.svg"
    drawing.rename(folder / "figures" / "old.svg")
    assert main(["figures", str(folder)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{drawing} is missing: draw it with --write",
        f"{folder / 'figures' / 'old.svg'} is drawn by no figure of its experiment.toml: --write removes it",
    ]
    assert main(["figures", str(folder), "--write"]) == 0
    assert sorted(p.name for p in (folder / "figures").iterdir()) == ["the-curve-seed-0.svg"]


def test_a_changed_number_of_a_figure_is_one_sentence(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = experiment(repo, CURVE)
    assert main(["figures", str(folder), "--write"]) == 0
    path = folder / "tables.md"
    lines = path.read_text().splitlines()
    n = lines.index("| 1 | 2 | 12.5 | 2 | 50.0 |")
    path.write_text("\n".join([*lines[:n], "| 1 | 2 | 12.0 | 2 | 50.0 |", *lines[n + 1 :]]) + "\n")
    capsys.readouterr()
    assert main(["figures", str(folder)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{path}, line {n + 1}: stored '| 1 | 2 | 12.0 | 2 | 50.0 |', "
        "but the runs give '| 1 | 2 | 12.5 | 2 | 50.0 |'"
    ]


def test_a_drawing_is_the_same_bytes_in_two_processes(repo: Path) -> None:
    folder = experiment(repo, CURVE + USERS)
    drawn = []
    for hashseed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        args = ["figures", str(folder), "--write"]
        code = f"from continual_arc.cli import main; raise SystemExit(main({args!r}))"
        subprocess.run([sys.executable, "-c", code], check=True, env=env, capture_output=True)
        drawn.append({p.name: p.read_bytes() for p in sorted((folder / "figures").iterdir())})
    assert sorted(drawn[0]) == ["the-curve-seed-0.svg", "users.svg"] and drawn[0] == drawn[1]


@pytest.mark.parametrize(
    ("entries", "problem"),
    [
        (CURVE.replace('["../../runs/library"]', '["../../runs/library", "../../runs/u1"]'),
         "a curve reads exactly one protocol directory"),
        (CURVE.replace('["../../runs/floor", "../../runs/no-return"]', '"../../runs/floor"'),
         "a curve's floors must be a list of folders"),
        (CURVE.replace('"../../runs/no-return"', '"../../runs/nowhere"'),
         "the floor ../../runs/nowhere does not exist"),
        (CURVE.replace('"../../runs/no-return"', '"../../runs"'),
         "the floor ../../runs is neither a protocol nor a run directory"),
        (CURVE.replace('["../../runs/library"]', '["../../runs/floor"]'),
         "a curve figure reads protocol directories, and ../../runs/floor is not one"),
        (USERS.replace('"../../runs/u1"', '"../../runs/floor"'),
         "a users figure reads protocol directories, and ../../runs/floor is not one"),
        (USERS + 'floors = ["../../runs/floor"]\n', "only a curve draws floors, not a users entry"),
        (USERS + USERS.replace('"Users"', '"users!"'),
         "the figures 'Users' and 'users!' would both be drawn to figures/users.svg: retitle one"),
    ],
)  # fmt: skip
def test_a_bad_figure_entry_is_one_sentence(
    repo: Path, entries: str, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = experiment(repo, entries)
    with pytest.raises(ExperimentError, match=re.escape(problem)):
        load_experiment(folder)
    assert main(["figures", str(folder)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"continual-arc: error: {folder / 'experiment.toml'}: ") and "\n" not in err


@given(st.text(max_size=40))
def test_a_figures_file_is_a_plain_name_under_figures(title: str) -> None:
    assert re.fullmatch(r"figures/[a-z0-9]+(-[a-z0-9]+)*\.svg", figure_file(title))


@given(st.lists(st.text(alphabet="ab -!", max_size=6), max_size=6))
def test_titles_clash_exactly_when_their_files_do(titles: list[str]) -> None:
    files = [figure_file(t) for t in titles]
    assert (figure_clash(titles) is None) == (len(set(files)) == len(files))


COST = """
[[tables]]
title = "Cost"
kind = "cost"
runs = ["../../runs/paid", "../../runs/u1"]
"""


def test_cost_draws_the_share_saved_against_what_an_instance_cost(repo: Path) -> None:
    # A learner paying for model calls: its stream's instance 1.00 dollar, each test instance 0.25,
    # so 2.00 over 5 instances, 0.40 a instance; the reset's calls are not the learner's spend.
    plays = _tests(([0, 0], [16, 16]), ([8, 8], [16, 16]), 0)
    for play, records in plays.items():
        for r in records:
            paid = play in ("stream", "seen", "held-out")
            r["instance_resources"] = {"cost": (1.0 if play == "stream" else 0.25) if paid else 9.0}
    write_protocol(repo / "runs" / "paid", plays, kwargs={"model": "m"})
    folder, section = written(repo, COST, "Cost")
    assert section[:6] == [
        "![Cost](figures/cost.svg)",
        "",
        "| learner | users | seeds | cost per instance | seen: share saved | held-out: share saved |",
        "|---|---|---|---|---|---|",
        "| Toy (toy) | 1 | 0 | $0.0000 | 1.00 [1.00, 1.00] | 0.50 [0.50, 0.50] |",  # counts no cost
        "| Toy model=m (toy) | 1 | 0 | $0.4000 | 1.00 [1.00, 1.00] | 0.50 [0.50, 0.50] |",
    ]
    assert section[-1].endswith("model cost per instance, US dollars.")
    assert (folder / "figures" / "cost.svg").is_file()
