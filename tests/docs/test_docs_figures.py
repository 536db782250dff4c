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


RESULTS = ROOT / "benchmarks" / "results"


@pytest.mark.parametrize("result", sorted(RESULTS.glob("*.md")), ids=lambda p: p.name)
def test_a_recorded_benchmark_is_included_and_says_where_it_ran(result: Path) -> None:
    assert f'--8<-- "benchmarks/results/{result.name}"' in (DOCS / "benchmarks.md").read_text()
    head = result.read_text().splitlines()[0]
    assert head.startswith(f"`python benchmarks/{result.stem}.py")
    assert " cores, " in head and "load average " in head


def test_the_recorded_schedules_have_the_slots_the_schedules_have() -> None:
    from continual_arc.core.config import CANONICAL_USERS
    from continual_arc.stream.schedule import build_schedule, test_schedule
    from continual_arc.stream.users import with_users
    from continual_arc.tracks.registry import get_config

    rows = re.findall(
        r"^\s*(\d+) users, (.+?)\s+(\d+)\s+[\d.]+$", (RESULTS / "schedules.md").read_text(), re.M
    )
    assert len(rows) == 5 * len(CANONICAL_USERS)
    make = {
        "stream": lambda c: build_schedule(c, 0, epilogue=False),
        "stream + epilogue": lambda c: build_schedule(c, 0),
        "reset stream": lambda c: build_schedule(c, 0, epilogue=False, reset_each=True),
        "held-out test": lambda c: test_schedule(c, 0, "held-out"),
        "seen test": lambda c: test_schedule(c, 0, "seen"),
    }
    for users, label, slots in rows:
        config = with_users(get_config("arc1"), int(users))
        assert len(make[label](config).slots) == int(slots), (users, label)
