"""The viewer's reading of runs: what it finds, how it pairs runs, and what it says of damaged ones."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from view_support import records, snapshot

import continual_arc
from continual_arc.play import rundir
from continual_arc.view.catalog import build_catalog
from continual_arc.view.documents import run_document
from continual_arc.view.loading import read_run
from continual_arc.view.replay import ReplayRefused, replay_document, trajectory_path
from continual_arc.view.site import NotFound, Site


def by_label(catalog, label):  # type: ignore[no-untyped-def]
    return next(e for e in catalog.runs.values() if e.label == label)


def test_a_results_directory_holds_a_protocol_and_a_run(results: Path) -> None:
    catalog = build_catalog([results])
    assert len(catalog.protocols) == 1
    assert sorted(e.label for e in catalog.runs.values()) == sorted(
        ["results/random"] + [f"results/toy-rule / {p}" for p in
                              ("stream", "stream-reset", "held-out", "held-out-reset", "seen", "seen-reset")]
    )  # fmt: skip
    stream, reset = (
        by_label(catalog, "results/toy-rule / stream"),
        by_label(catalog, "results/toy-rule / stream-reset"),
    )
    random = by_label(catalog, "results/random")
    assert stream.reset == reset.id
    assert random.reset is None  # its instances line up with the reset's, but it is another learner
    assert {p["id"] for p in stream.partners} == {reset.id, random.id}
    assert all(p["same"] for p in stream.partners)
    assert catalog.problems == []


def test_the_strip_matches_the_records(results: Path) -> None:
    catalog = build_catalog([results / "toy-rule"])
    entry = by_label(catalog, "toy-rule / stream")
    strip = run_document(entry)["strip"]
    rows = records(results / "toy-rule" / "stream")
    columns = strip["columns"]
    assert columns["step"] == [r["step"] for r in rows]
    assert [strip["tasks"][t] for t in columns["task"]] == [r["task_id"] for r in rows]
    assert columns["charge"] == [r["charge"] for r in rows]
    assert columns["seed"] == [r["seed"] for r in rows]
    assert columns["exposure"] == [r["exposure_index"] for r in rows]


def test_a_replay_steps_through_the_trajectory(results: Path) -> None:
    catalog = build_catalog([results / "random"])
    entry = next(iter(catalog.runs.values()))
    record = records(results / "random")[0]
    doc = replay_document(entry, str(record["step"]))
    trajectory = json.loads((results / "random" / "i" / f"{record['step']}.json").read_text())
    assert doc["input"] == trajectory["input"]
    assert [s["kind"] for s in doc["steps"]] == ["start"] + [
        e["action"]["action"] for e in trajectory["events"]
    ]
    answers = [s for s in doc["steps"] if s["kind"] == "submit"]
    assert [s["correct"] for s in answers] == [
        a["correct"] for a in record["actions"] if a["action"] == "submit"
    ]
    assert [s["meter"]["wrong"] for s in answers] == list(range(1, len(answers) + 1))
    assert doc["steps"][-1]["meter"]["charge"] == record["charge"] == 16
    assert doc["steps"][0]["meter"]["charge"] is None


def test_a_half_written_run_shows_what_it_can(copy_run: Callable[[str], Path]) -> None:
    path = copy_run("random")
    lines = (path / "records.jsonl").read_text().splitlines(keepends=True)
    (path / "records.jsonl").write_text("".join(lines[:-2]) + lines[-2][: len(lines[-2]) // 2])
    (path / "summary.json").unlink()
    (path / "i" / "0.json").unlink()
    before = snapshot(path)
    data = read_run(path)
    assert len(data.records) == len(lines) - 2
    text = " | ".join(data.problems)
    assert f"the last line of records.jsonl (line {len(lines) - 1}) is cut short" in text
    assert "summary.json is missing: the run has not finished" in text
    catalog = build_catalog([path])
    entry = next(iter(catalog.runs.values()))
    replay = replay_document(entry, "0")
    assert "i/0.json is missing" in replay["problems"][0]
    assert [s["kind"] for s in replay["steps"]][1:] == [a["action"] for a in data.records[0]["actions"]]
    assert replay["steps"][-1]["meter"]["charge"] == 16
    assert snapshot(path) == before  # read, never repaired


def test_missing_meta_and_an_older_format(copy_run: Callable[[str], Path]) -> None:
    path = copy_run("random")
    (path / "meta.json").unlink()
    rows = [json.loads(line) for line in (path / "records.jsonl").read_text().splitlines()]
    for row in rows:
        del row["exposure_index"], row["seed"]
    rows.append({"step": 99})  # not drawable
    (path / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows) + "{not json\n")
    data = read_run(path)
    text = " | ".join(data.problems)
    assert "meta.json is missing" in text
    assert "the records lack exposure_index, seed (an older format?)" in text
    assert "1 record(s) lack step, task_id, charge: left out" in text
    assert f"records.jsonl, line {len(rows) + 1}, is not valid JSON" in text
    assert len(data.records) == len(rows) - 1
    doc = run_document(next(iter(build_catalog([path]).runs.values())))
    assert doc["config"] is None and len(doc["strip"]["columns"]["step"]) == len(rows) - 1


def test_a_protocol_without_its_file_or_a_play(results: Path, tmp_path: Path) -> None:
    target = tmp_path / "p"
    shutil.copytree(results / "toy-rule", target)
    (target / "protocol.json").unlink()
    site = Site(build_catalog([target]), live=False)
    doc = site.document("protocol/p0")
    assert doc["plane"]["seen"]["share_saved"]["value"] == 1.0
    assert "computed by the viewer" in doc["plane_note"]
    shutil.rmtree(target / "held-out-reset")
    doc = Site(build_catalog([target]), live=False).document("protocol/p0")
    assert doc["plane"] is None and "held-out-reset" in doc["plane_note"]
    assert any("the held-out-reset play (held-out-reset/) is missing" in p for p in doc["problems"])


@pytest.mark.parametrize(
    "name", ["../meta", "..", "0/../../x", "/etc/passwd", "addon-0", "-1", "1e3", "0x1", "01", "3 ", "step"]
)
def test_trajectory_names_outside_the_pattern_are_refused(results: Path, name: str) -> None:
    with pytest.raises(ReplayRefused):
        trajectory_path(results / "random", name)


def test_a_trajectory_linking_outside_the_run_is_refused(
    copy_run: Callable[[str], Path], tmp_path: Path
) -> None:
    path = copy_run("random")
    secret = tmp_path / "secret.json"
    secret.write_text('{"input": [[1]]}')
    (path / "i" / "0.json").unlink()
    (path / "i" / "0.json").symlink_to(secret)
    site = Site(build_catalog([path]), live=True)
    with pytest.raises(NotFound, match="outside the run directory"):
        site.document("run/r0/i/0")


@pytest.mark.parametrize(
    "name", ["run/r9", "run/r0/../../etc", "run/r0/i/../../meta", "protocol/p0", "run/r0/state", "runs", ""]
)
def test_document_names_naming_nothing_given(results: Path, name: str) -> None:
    site = Site(build_catalog([results / "random"]), live=True)
    with pytest.raises(NotFound):
        site.document(name)


def test_paths_that_hold_no_run(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    catalog = build_catalog([tmp_path / "empty", tmp_path / "nowhere"])
    assert catalog.runs == {}
    assert catalog.problems == [
        f"{tmp_path / 'empty'}: no run or protocol directory found in it",
        f"{tmp_path / 'nowhere'}: not a directory",
    ]


def test_auxiliary_episodes_are_listed_and_replayed_apart(practice: Path) -> None:
    site = Site(build_catalog([practice]), live=True)
    doc = site.document("run/r0")
    addons = [r for r in rundir.read_run(practice).records if r["episode_type"] == "addon"]
    assert [a["name"] for a in doc["addons"]] == [f"addon-{r['addon_index']}" for r in addons]
    assert len(doc["strip"]["columns"]["step"]) == 9  # the strip holds the schedule's instances only
    assert f"run/r0/i/{doc['addons'][0]['name']}" in set(site.names())
    replay = site.document(f"run/r0/i/{doc['addons'][0]['name']}")
    assert replay["record"]["plugin"] == "continual_arc.addons:PracticeAfterFailure"
    assert replay["steps"][-1]["meter"]["charge"] == addons[0]["charge"]


def test_the_page_draws_frames_in_the_arc3_palette() -> None:
    # The games are read as source: they install only where their engine does (Python 3.12).
    render = Path(__file__).resolve().parents[2] / "games" / "src" / "continual_arc_games" / "render.py"
    python = re.findall(r"\(0x([0-9A-F]{2}), 0x([0-9A-F]{2}), 0x([0-9A-F]{2})\)", render.read_text())
    grids = Path(continual_arc.__file__).parent / "view" / "static" / "js" / "grids.js"
    block = grids.read_text().split("CAV.FRAME_PALETTE = [", 1)[1].split("]", 1)[0]
    assert re.findall(r'"#([0-9A-F]{6})"', block) == ["".join(c) for c in python]
    assert len(python) == 16
