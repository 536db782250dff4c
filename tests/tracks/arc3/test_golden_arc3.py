"""The golden arc3-smoke protocol (played again at game data version 6) reports and checks as stored."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("arcengine", reason="the arc3 track needs Python 3.12 and continual-arc[arc3]")

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "submit"))

from test_golden_runs import assert_same_outputs, extracted


def test_the_golden_arc3_protocol_reports_and_checks_as_it_did(tmp_path: Path) -> None:
    extracted("arc3-smoke", tmp_path)
    assert_same_outputs("arc3-smoke", tmp_path)
