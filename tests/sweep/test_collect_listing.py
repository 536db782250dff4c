"""A sweep's ``sweep.json`` is validated where pooling reads it: a broken one is one sentence, exit 2."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.documents import DocumentError
from continual_arc.core.files import atomic_write_json
from continual_arc.sweep.collect import collect

ENTRY = {"directory": "protocols/x", "label": "x", "config": "toy-smoke", "users": 1, "seed": 0}


@pytest.mark.parametrize(
    ("listing", "sentence"),
    [
        ({}, "sweep.json: field protocols is missing"),
        ({"protocols": [{"label": "x"}]}, "sweep.json: field protocols[0].directory is missing (and 3 more)"),
        ({"protocols": [{**ENTRY, "seed": "0"}]}, "field protocols[0].seed should be a valid integer"),
        ({"protocols": [{**ENTRY, "colour": 1}]}, "field protocols[0].colour is not one this document holds"),
        ([1], "sweep.json: the document should be an object, not [1]"),
    ],
)
def test_a_broken_listing_is_refused_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], listing: object, sentence: str
) -> None:
    atomic_write_json(tmp_path / "sweep.json", listing)
    with pytest.raises(DocumentError, match=re.escape(sentence)):
        collect([tmp_path])
    assert main(["pool", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert sentence in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_listed_protocol_not_played_is_missing_from_its_row(tmp_path: Path) -> None:
    atomic_write_json(tmp_path / "sweep.json", {"protocols": [ENTRY], "name": "kept as it is"})
    (group,) = collect([tmp_path])
    assert group.label == "x" and group.missing == {0} and not group.plays
