"""No timing typed by hand where a newcomer reads: load averages and CPU or wall times live in Benchmarks.

A timing depends on the machine and its load, and goes stale with every change; the pages a user
follows (the README, getting started, the concepts, the guides, the baselines' overview) state none,
and link to the Benchmarks page, where each figure is given with the script that printed it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
READ_FIRST = [
    ROOT / "README.md",
    DOCS / "index.md",
    DOCS / "getting-started.md",
    DOCS / "layout.md",
    DOCS / "baselines" / "index.md",
    *sorted((DOCS / "concepts").glob("*.md")),
    *sorted((DOCS / "guides").glob("*.md")),
]
TIMINGS = re.compile(
    r"\bload( average)?( about)? \d"  # a load average
    r"|\d[\d.,]* (CPU-seconds|CPU seconds|CPU[- ]s\b)"  # CPU time
    r"|\d[\d.,]* (seconds|minutes|s) of (user CPU|wall) time"  # a run's time
    r"|\d[\d,]* passed",  # a test count
    flags=re.I,
)


def timings(text: str) -> list[str]:
    """Every timing figure of ``text``, as written."""
    return [m.group(0) for m in TIMINGS.finditer(" ".join(text.split()))]


def test_the_pattern_finds_what_the_pages_used_to_hold() -> None:
    old = (
        "used 153 CPU-seconds with an empty search cache (load 9.6), 2 minutes 42 seconds of wall "
        "time, load average about 7; 1,463 passed and 37 skipped; 280.3 CPU s"
    )
    assert timings(old) == ["153 CPU-seconds", "load 9", "42 seconds of wall time", "load average about 7",
                            "1,463 passed", "280.3 CPU s"]  # fmt: skip
    assert timings("the 200-instance stream, 8 attempts, max_cost = 16, 0.16 [0.07, 0.30]") == []


@pytest.mark.parametrize("page", READ_FIRST, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_page_a_user_follows_types_no_timing(page: Path) -> None:
    assert timings(page.read_text()) == []
