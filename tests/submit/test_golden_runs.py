"""The golden run directories (written before the records became types) read, report and check as then.

Each case of ``tests/fixtures/golden`` is extracted, and what ``report`` and ``check`` print on it
must be what they printed on the code that wrote it (``outputs/<case>/``, made by
``make_golden.py``); every meta, record, summary and trajectory file read and written again must
be the same bytes. The arc3 case runs on Python 3.12 (tests/tracks/arc3/test_golden_arc3.py).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

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
