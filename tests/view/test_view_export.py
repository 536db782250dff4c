"""The static export, and the command line with and without the view extra."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from view_support import records, snapshot

from continual_arc.cli import main
from continual_arc.view.catalog import build_catalog
from continual_arc.view.export import MARKER, ExportError, export_site, wrap_document


def _document(path: Path) -> tuple[str, object]:
    text = path.read_text()
    assert text.startswith("CAV.deliver(") and text.endswith(");\n")
    name, _, body = text[len("CAV.deliver(") : -3].partition(",")
    return json.loads(name), json.loads(body)


def test_export_writes_every_document_beside_the_page(results: Path, tmp_path: Path) -> None:
    before = snapshot(results)
    out = tmp_path / "site"
    counts = export_site(build_catalog([results]), out)
    assert snapshot(results) == before
    assert (out / "index.html").is_file() and (out / "static" / "js" / "main.js").is_file()
    assert (out / "mode.js").read_text().strip() == 'window.CAV_MODE = {"kind": "export", "runs": true};'
    index_name, index = _document(out / "data" / "index.js")
    assert index_name == "index" and index["live"] is False  # type: ignore[index]
    random = next(r for r in index["runs"] if r["label"] == "results/random")  # type: ignore[index]
    assert random["path"] == "results/random"  # no local path is published
    assert str(results) not in (out / "data" / "index.js").read_text()
    rows = records(results / "random")
    replays = sorted((out / "data" / "run" / random["id"] / "i").glob("*.js"))
    assert len(replays) == len(rows)
    name, replay = _document(out / "data" / "run" / random["id"] / "i" / f"{rows[1]['step']}.js")
    assert name == f"run/{random['id']}/i/{rows[1]['step']}"
    assert replay["record"] == rows[1]  # type: ignore[index]
    assert counts["runs"] == 7 and counts["protocols"] == 1
    assert json.loads((out / MARKER).read_text())["documents"] == counts["documents"]
    export_site(build_catalog([results]), out)  # an earlier export may be overwritten


def test_export_refuses_to_write_over_other_things(results: Path, tmp_path: Path) -> None:
    catalog = build_catalog([results])
    with pytest.raises(ExportError, match="the viewer never writes there"):
        export_site(catalog, results / "site")
    with pytest.raises(ExportError, match="the viewer never writes there"):
        export_site(catalog, results.parent)
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(ExportError, match="holds no earlier export"):
        export_site(catalog, tmp_path / "busy")


def test_wrapped_documents_are_plain_json_in_a_call() -> None:
    assert wrap_document("run/r0/i/3", {"a": "</script>"}) == 'CAV.deliver("run/r0/i/3",{"a":"</script>"});\n'


_WITHOUT_STARLETTE = """
import sys
sys.modules["starlette"] = None  # as if the view extra were not installed
sys.modules["uvicorn"] = None
from continual_arc.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_the_command_line_without_the_view_extra(results: Path, tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", _WITHOUT_STARLETTE, *args], capture_output=True, text=True
        )

    served = run("view", str(results / "random"))
    assert served.returncode == 2
    assert (
        "pip install -e '.[view]' in the repository's clone" in served.stderr
        and len(served.stderr.splitlines()) == 1
    )
    exported = run("view", str(results / "random"), "--export", str(tmp_path / "out"))
    assert exported.returncode == 0, exported.stderr
    assert "open " in exported.stdout and (tmp_path / "out" / "data" / "index.js").is_file()


def test_the_command_line_refuses_nothing_to_view(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["view", str(tmp_path)]) == 2
    assert "nothing to view" in capsys.readouterr().err


def _delivered(path: Path) -> Any:
    """The document a ``data/<name>.js`` file delivers."""
    return json.loads(path.read_text().split(",", 1)[1].rsplit(")", 1)[0])


def test_the_tasks_alone_export_without_a_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = Path(__file__).parents[2] / "packs" / "demo"
    rules = json.loads((pack / "manifest.json").read_text())["rules"]
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(empty)  # the default directory holds no run: passed over, not named
    out = tmp_path / "site"
    assert main(["view", "--pack", str(pack), "--export", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "no run to show" in printed and "no run or protocol directory" not in printed
    assert (out / "mode.js").read_text().strip() == 'window.CAV_MODE = {"kind": "export", "runs": false};'
    index = _delivered(out / "data" / "index.js")
    assert (index["runs"], index["protocols"], index["problems"], index["tasks"]) == ([], [], [], True)
    (track,) = _delivered(out / "data" / "tasks.js")["tracks"]
    assert track["name"] == "pack-demo"
    assert sorted(track["roles"]["stream"] + track["roles"]["held-out"]) == sorted(rules)
    written = sorted(p.stem for p in (out / "data" / "task" / "pack-demo").rglob("*.js"))
    assert written == sorted(rules)
    figures = _delivered(out / "data" / "figures.js")
    assert (figures["curves"], figures["plane"], figures["users"]) == ([], [], [])
    assert not (out / "data" / "run").exists()
    # Asking for nothing still meets the old sentence, as does --tasks none, even beside a pack.
    none = ["view", "--tasks", "none", "--export", str(tmp_path / "x")]
    for argv in (["view"], none, [*none, "--pack", str(pack)]):
        assert main(argv) == 2
        assert "nothing to view: give a run, protocol or results directory" in capsys.readouterr().err


def test_a_directory_named_without_a_run_is_said_beside_the_tasks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "site"
    assert main(["view", str(tmp_path / "nothing"), "--tasks", "toy", "--export", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"{tmp_path / 'nothing'}: not a directory" in printed and "no run to show" in printed
    assert len(list((out / "data" / "task" / "toy").rglob("*.js"))) == 63 + 24


def test_a_track_name_that_is_none_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["view", "--tasks", "toy,bogus", "--export", str(tmp_path / "site")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--tasks: no track is named bogus (the tracks: " in err[0]
    assert "toy" in err[0].split("the tracks: ")[1] and not (tmp_path / "site").exists()
