"""The committed JSON Schemas and the viewer's types are what the declarations export, and they bite."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from continual_arc.core.documents import DocumentError, parse_records

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import export_schemas  # noqa: E402  (a script of scripts/)


def test_every_committed_schema_is_what_the_code_exports() -> None:
    wanted = export_schemas.schema_texts()
    assert sorted(p.name for p in export_schemas.SCHEMAS.glob("*.json")) == sorted(wanted)
    for name, text in wanted.items():
        assert (export_schemas.SCHEMAS / name).read_text(encoding="utf-8") == text, name


def test_the_viewers_types_are_generated_from_the_schemas() -> None:
    assert export_schemas.VIEWER_TYPES.read_text(encoding="utf-8") == export_schemas.viewer_types()
    run = json.loads((export_schemas.SCHEMAS / "view-run.json").read_text())
    typedefs = export_schemas.VIEWER_TYPES.read_text()
    for field in run["properties"]:  # every field of the run document, typed, in the page's types
        assert f" {field}\n" in typedefs or f" [{field}]\n" in typedefs


def test_the_record_schema_says_what_the_reader_refuses() -> None:
    schema = json.loads((export_schemas.SCHEMAS / "record.json").read_text())
    assert schema["properties"]["charge"]["type"] == "integer"
    assert schema["$defs"]["Phase"]["enum"] == ["stream", "epilogue", "held-out", "seen"]
    assert schema["additionalProperties"] is True  # a game's or a plug-in's fields are kept
    assert schema["$defs"]["ActionEntry"]["additionalProperties"] is False
    line = (ROOT / "runs" / "arc1-library-seed0" / "stream" / "records.jsonl").read_text().splitlines()[0]
    wrong = json.loads(line) | {"charge": "3"}
    with pytest.raises(DocumentError, match="field charge should be a valid integer"):
        parse_records(json.dumps(wrong) + "\n")


def test_the_check_says_which_file_is_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stale = tmp_path / "schemas"
    stale.mkdir()
    (stale / "record.json").write_text("{}\n")
    (stale / "gone.json").write_text("{}\n")
    monkeypatch.setattr(export_schemas, "SCHEMAS", stale)
    monkeypatch.setattr(export_schemas, "ROOT", tmp_path)
    monkeypatch.setattr(export_schemas, "VIEWER_TYPES", tmp_path / "documents.js")
    monkeypatch.setattr(sys, "argv", ["export_schemas.py", "--check"])
    assert export_schemas.main() == 1
