"""The golden run directories (written before the records became types) read, report and check as then.

Each case of ``tests/fixtures/golden`` is extracted, and what ``report`` and ``check`` print on it
must be what they printed on the code that wrote it (``outputs/<case>/``, made by
``make_golden.py``); every meta, record, summary and trajectory file read and written again must
be the same bytes. The arc3 case runs on Python 3.12 (tests/tracks/arc3/test_golden_arc3.py).
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sys
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.play.instance_record import TIMING_FIELDS

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "golden"))

from golden import HERE, outputs, rewritten_differences

FAST = ("toy-run", "sweep", "verify-pack")


def extracted(case: str, root: Path) -> Path:
    """Case ``case``'s directory, extracted under ``root``."""
    shutil.unpack_archive(HERE / f"{case}.tar.gz", root, filter="data")
    return root / case


def stored(case: str) -> dict[str, str]:
    """The outputs stored for ``case``, by file name."""
    return {p.name: p.read_text() for p in sorted((HERE / "outputs" / case).iterdir())}


def assert_same_outputs(case: str, root: Path) -> None:
    """What is printed on the extracted case is, file by file, what was stored."""
    want = stored(case)
    got = outputs(case, root)
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name] == want[name], f"{case}: {name} differs"


@pytest.mark.parametrize("case", FAST)
def test_a_golden_case_reports_and_checks_as_it_did(case: str, tmp_path: Path) -> None:
    extracted(case, tmp_path)
    assert_same_outputs(case, tmp_path)


@pytest.mark.parametrize("case", ["arc1-smoke", "arc2-smoke"])
def test_a_golden_protocol_reports_and_checks_as_it_did(
    case: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if case == "arc2-smoke":
        request.getfixturevalue("arc2_data")  # its replays draw arc2's instances again
    extracted(case, tmp_path)
    assert_same_outputs(case, tmp_path)


@pytest.mark.parametrize("case", [*FAST, "arc1-smoke", "arc2-smoke", "arc3-smoke"])
def test_every_file_of_a_golden_case_is_written_again_byte_for_byte(case: str, tmp_path: Path) -> None:
    assert rewritten_differences(extracted(case, tmp_path)) == []


def _played_again(tmp_path: Path, golden: Path) -> Path:
    """The golden toy run played again by this code, from the same schedule, learner and names."""
    out = tmp_path / "again"
    out.mkdir()
    shutil.copy(golden / "alias-salt", out / "alias-salt")  # the salt of the task names is drawn
    schedule = tmp_path / "toy-run.json"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["schedule", "make", "--config", "toy-smoke", "--out", str(schedule)]) == 0
        learner = "continual_arc.testing:ToyRuleLearner"
        assert main(["run", "--learner", learner, "--schedule", str(schedule), "--out", str(out)]) == 0
    return out


def test_a_run_written_now_is_the_golden_run_but_for_times_and_the_machine(tmp_path: Path) -> None:
    golden = extracted("toy-run", tmp_path)
    again = _played_again(tmp_path, golden)
    for name in sorted(p.name for p in (golden / "i").iterdir()):
        assert (again / "i" / name).read_bytes() == (golden / "i" / name).read_bytes(), name

    def timeless(run: Path) -> list[dict[str, object]]:
        lines = (run / "records.jsonl").read_text().splitlines()
        return [{k: v for k, v in json.loads(line).items() if k not in TIMING_FIELDS} for line in lines]

    assert timeless(again) == timeless(golden)
    # What differs by machine, moment and the learner package's own sources (this change edits them).
    local = ("started", "python", "platform", "learner_fingerprint")
    want = {k: v for k, v in json.loads((golden / "meta.json").read_text()).items() if k not in local}
    got = {k: v for k, v in json.loads((again / "meta.json").read_text()).items() if k not in local}
    assert got == want
