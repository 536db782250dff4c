"""The Tasks and Figures pages' documents, their API (404s in JSON), the export and the command's options."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from view_support import records

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.data.pinned import SourceError
from continual_arc.tracks.registry import UNAVAILABLE
from continual_arc.tracks.toy import apply_rule, toy_rule
from continual_arc.view.catalog import build_catalog
from continual_arc.view.export import export_site
from continual_arc.view.site import NotFound, Site
from continual_arc.view.tasks import SHOWN_SEED, TaskBrowser


def _site(results: Path, *, live: bool = True, sweeps: tuple[Path, ...] = ()) -> Site:
    catalog = build_catalog([results])
    floor = next(e.id for e in catalog.runs.values() if e.label == "results/random")
    return Site(catalog, live=live, tasks=TaskBrowser(only={"toy"}), floors=frozenset({floor}), sweeps=sweeps)


def _u_by_exposure(rows: list[dict[str, Any]]) -> dict[int, float]:
    """U per exposure index worked out here, from the records alone."""
    by: dict[int, list[float]] = {}
    for r in rows:
        if r["phase"] == "stream":
            by.setdefault(r["exposure_index"], []).append(100 * r["charge"] / r["max_cost"])
    return {k: sum(v) / len(v) for k, v in sorted(by.items())}


def test_the_tasks_index_lists_each_role_and_how_to_install_what_is_missing() -> None:
    index = TaskBrowser().index()
    names = [t["name"] for t in index["tracks"]]
    assert names[0] == "arc1" and "toy" in names
    toy = next(t for t in index["tracks"] if t["name"] == "toy")
    assert toy["available"] and toy["roles"]["stream"][0] == "toy-d0-c1" and toy["tasks"] == 63 + 24
    for name, why in UNAVAILABLE.items():  # arc3 on Python 3.11: one sentence, no tasks
        listed = next(t for t in index["tracks"] if t["name"] == name)
        assert (listed["available"], listed["install"], listed["tasks"]) == (False, why, 0)


def test_a_grid_tasks_instance_follows_its_rule() -> None:
    doc = TaskBrowser(only={"toy"}).task("toy", "stream", "toy-d3-c2")
    assert (doc["kind"], doc["seed"], len(doc["demos"])) == ("grid", SHOWN_SEED, 3)
    rule = toy_rule("toy-d3-c2")
    for given, shown in [*doc["demos"], doc["test"]]:
        assert shown == [list(r) for r in apply_rule(tuple(tuple(r) for r in given), rule)]


def test_a_tasks_instance_is_the_same_in_another_process() -> None:
    here = TaskBrowser(only={"toy"}).task("toy", "stream", "toy-d5-c7")
    code = (
        "import json; from continual_arc.view.tasks import TaskBrowser; "
        "print(json.dumps(TaskBrowser(only={'toy'}).task('toy', 'stream', 'toy-d5-c7')))"
    )
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(there.stdout) == json.loads(json.dumps(here))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("task/nope/stream/x", "no track 'nope' is installed here"),
        ("task/toy/stream/not-a-task", "track toy has no stream task 'not-a-task'"),
        ("task/toy/sideways/toy-d0-c1", "track toy has no sideways task 'toy-d0-c1'"),
        ("task/arc1/stream/007bbfb7", "no track 'arc1' is installed here"),  # not among those listed
    ],
)
def test_an_unknown_track_or_task_is_not_found(results: Path, name: str, message: str) -> None:
    with pytest.raises(NotFound) as caught:
        _site(results).document(name)
    assert str(caught.value) == message


def test_the_api_answers_404_in_json(results: Path) -> None:
    pytest.importorskip("starlette", reason="the view extra (starlette, uvicorn) is not installed")
    from starlette.testclient import TestClient

    from continual_arc.view.app import create_app

    client = TestClient(create_app(_site(results)), base_url="http://127.0.0.1")
    reply = client.get("/api/task/nope/stream/x")
    assert reply.status_code == 404 and reply.json() == {"error": "no track 'nope' is installed here"}
    assert client.get("/api/task/toy/held-out/toyfix-03").json()["test"]  # a fixed task
    off = TestClient(create_app(Site(build_catalog([results]), live=True)), base_url="http://127.0.0.1")
    off_note = "the Tasks page is off (continual-arc view --tasks none)"
    assert off.get("/api/tasks").json() == {"error": off_note}


def test_the_figures_are_the_records_numbers(results: Path) -> None:
    doc = _site(results).document("figures")
    assert isinstance(doc, dict)
    (curve,) = doc["curves"]
    assert curve["label"] == "results/toy-rule"
    expected = _u_by_exposure(records(results / "toy-rule" / "stream"))
    assert {p["exposure"]: p["budget_used"] for p in curve["learner"]} == pytest.approx(expected)
    reset = _u_by_exposure(records(results / "toy-rule" / "stream-reset"))
    assert {p["exposure"]: p["budget_used"] for p in curve["reset"]} == pytest.approx(reset)
    (floor,) = doc["floors"]
    returns = [100 * r["charge"] / 16 for r in records(results / "random") if r["exposure_index"] >= 1]
    assert floor["label"] == "results/random"
    assert floor["budget_used"] == pytest.approx(sum(returns) / len(returns))
    (place,) = doc["plane"]
    written = read_json(results / "toy-rule" / "protocol.json")["plane"]
    assert place["place"] == written and place["floor"] is False


def _sweep(results: Path, tmp_path: Path) -> Path:
    """A sweep's directory naming the toy protocol at one and at two users (the same records twice)."""
    folder = tmp_path / "sweep"
    folder.mkdir()
    (folder / "toy").symlink_to(results / "toy-rule")
    row = {"label": "rules", "config": "toy-smoke", "seed": 0}
    listed = [{**row, "users": 1, "directory": "toy"}, {**row, "users": 2, "directory": "toy"}]
    listed += [{**row, "users": 4, "directory": "missing"}, {"label": "no setting"}]
    atomic_write_json(folder / "sweep.json", {"protocols": listed})
    return folder


def test_share_saved_against_users_from_a_sweep(results: Path, tmp_path: Path) -> None:
    sweep = _sweep(results, tmp_path)
    doc = _site(results, live=False, sweeps=(sweep,)).document("figures")
    assert isinstance(doc, dict)
    (series,) = doc["users"]
    assert series["label"] == "rules (toy-smoke)" and [p["users"] for p in series["points"]] == [1, 2]
    plane = read_json(results / "toy-rule" / "protocol.json")["plane"]
    for point in series["points"]:
        assert point["seen"].value == pytest.approx(plane["seen"]["share_saved"]["value"])
        assert point["held_out"].value == pytest.approx(plane["held_out"]["share_saved"]["value"])
    left_out = "sweep: rules (toy-smoke), 4 user(s), seed 0 is not finished, so it is left out"
    malformed = "sweep: sweep.json, protocols[3]: field directory is missing (and 3 more)"
    malformed += "; that entry is left out"
    assert doc["problems"] == [left_out, malformed]


def test_a_protocol_stopped_at_the_spend_cap_is_left_out_of_the_users_figure(
    results: Path, tmp_path: Path
) -> None:
    # Each play has its summary, but the stream stopped at the cap: pooling leaves it out, so must the page.
    folder = tmp_path / "capped"
    folder.mkdir()
    shutil.copytree(results / "toy-rule", folder / "toy", symlinks=True)
    stopped = {
        "by": "spend_cap",
        "round": 2,
        "slots_done": 2,
        "slots_total": 9,
        "message": "the cap refused a call",
    }
    atomic_write_json(folder / "toy" / "stream" / "stopped.json", stopped)
    row = {"label": "rules", "config": "toy-smoke", "seed": 0, "directory": "toy"}
    atomic_write_json(folder / "sweep.json", {"protocols": [{**row, "users": 1}]})
    doc = _site(results, live=False, sweeps=(folder,)).document("figures")
    assert isinstance(doc, dict)
    assert doc["users"] == []
    assert doc["problems"] == [
        "capped: rules (toy-smoke), 1 user(s), seed 0 is stopped at the spend cap, so it is left out"
    ]


def test_the_export_holds_both_pages(results: Path, tmp_path: Path) -> None:
    site = _site(results, live=False)
    export_site(site.catalog, tmp_path / "out", site=site)
    data = tmp_path / "out" / "data"
    assert (data / "figures.js").is_file() and (data / "tasks.js").is_file()
    assert len(list((data / "task" / "toy").rglob("*.js"))) == 63 + 24
    index = json.loads((data / "index.js").read_text().split(",", 1)[1].rsplit(")", 1)[0])
    assert index["tasks"] is True


def test_the_command_takes_floors_sweeps_and_tracks(results: Path, tmp_path: Path, capsys: Any) -> None:
    sweep = _sweep(results, tmp_path)
    out = tmp_path / "site"
    argv = ["view", str(results / "toy-rule"), "--floor", str(results / "random"), "--sweep", str(sweep)]
    assert main([*argv, "--tasks", "none", "--export", str(out)]) == 0
    figures = (out / "data" / "figures.js").read_text()
    assert '"floors":[{"run":' in figures and '"label":"rules (toy-smoke)"' in figures
    assert not (out / "data" / "tasks.js").exists()
    assert main(["view", str(results), "--sweep", str(results), "--export", str(tmp_path / "x")]) == 2
    assert "holds no sweep.json" in capsys.readouterr().err


def test_a_pack_given_is_listed_after_the_tracks_named(results: Path, tmp_path: Path) -> None:
    pack = Path(__file__).parents[2] / "packs" / "demo"
    out = tmp_path / "site"
    run = str(results / "random")
    assert main(["view", run, "--tasks", "toy", "--pack", str(pack), "--export", str(out)]) == 0
    index = json.loads((out / "data" / "tasks.js").read_text().split(",", 1)[1].rsplit(")", 1)[0])
    assert [(t["name"], t["available"]) for t in index["tracks"]] == [("pack-demo", True), ("toy", True)]
    assert main(["view", run, "--pack", str(tmp_path), "--export", str(tmp_path / "x")]) == 2


def test_an_export_has_no_tasks_page_unless_asked(results: Path, tmp_path: Path) -> None:
    # Drawing an instance of every task of every track takes minutes: an export lists none by default.
    assert main(["view", str(results / "random"), "--export", str(tmp_path / "plain")]) == 0
    assert not (tmp_path / "plain" / "data" / "tasks.js").exists()
    assert main(["view", str(results / "random"), "--tasks", "toy", "--export", str(tmp_path / "asked")]) == 0
    assert len(list((tmp_path / "asked" / "data" / "task" / "toy").rglob("*.js"))) == 63 + 24


def test_a_task_whose_data_is_missing_is_one_sentence_and_left_out_of_an_export(
    results: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # A track listed from its index whose generators' data went missing (arc2 before data fetch).
    real = TaskBrowser.task

    def broken(self: TaskBrowser, track: str, role: str, task_id: str) -> Any:
        if task_id == "toy-d3-c2":
            raise SourceError("the toy track's data is not fetched")
        return real(self, track, role, task_id)

    monkeypatch.setattr(TaskBrowser, "task", broken)
    site = _site(results)
    with pytest.raises(NotFound, match=r"^toy/stream/toy-d3-c2 cannot be drawn here: the toy track's data"):
        site.document("task/toy/stream/toy-d3-c2")
    argv = ["view", str(results / "random"), "--tasks", "toy", "--export", str(tmp_path / "out")]
    assert main(argv) == 0
    assert "left out 1 tasks that cannot be drawn here" in capsys.readouterr().out
    tasks = sorted(p.name for p in (tmp_path / "out" / "data" / "task" / "toy").rglob("*.js"))
    assert len(tasks) == 63 + 24 - 1 and "toy-d3-c2.js" not in tasks
