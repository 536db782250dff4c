"""No timing typed by hand in the documentation: load averages, CPU and wall times, test counts.

A timing depends on the machine and its load, and goes stale with every change. So the README, the
baselines' README and every page under docs/ state none in their own text: each figure reaches them
through a file a script under ``benchmarks/`` wrote with ``--record`` (``benchmarks/results/``),
included with ``--8<--``, or inside a section a script writes between ``<!-- NAME: begin (script)
-->`` and ``<!-- NAME: end -->``. The scan must find a figure planted in a page, and does not look
inside what a script wrote.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BENCHMARKS = ROOT / "benchmarks"
PAGES = [ROOT / "README.md", ROOT / "baselines" / "README.md", *sorted(DOCS.rglob("*.md"))]
_NUMBER = r"\d[\d.,]*"
_TIME = r"(ms|s|sec|secs|seconds?|min|minutes?|h|hours?)\b"
TIMINGS = re.compile(
    r"\bload( average)?( (of|about|at|was|is|near))? ~?\d"  # a load average
    rf"|{_NUMBER} ?(CPU[- ]?(s|sec|seconds?|minutes?|hours?|ms)\b|CPU-seconds)"  # CPU time
    rf"|{_NUMBER} ?{_TIME}( of)? (user |system )?(CPU|wall)"  # a run's CPU or wall time
    rf"|\bwall[- ](time|clock)( of)? {_NUMBER}"
    rf"|\btook (about |only |under |over )?{_NUMBER} ?{_TIME}"  # what a run took
    rf"|\bin (about |under |over )?{_NUMBER} ?(min|minutes?|seconds?|hours?)\b"
    rf"|\b(about|some|nearly|roughly) {_NUMBER} ?{_TIME}"  # a rough measure
    r"|\d+ min(utes?)? \d+ s(econds?)?\b|\d+:\d\d of wall"  # minutes and seconds
    r"|\d[\d,]* (passed|skipped|failed|errors?|xfailed)\b",  # a test count
    flags=re.I,
)
_GENERATED = re.compile(r"<!-- (?P<name>[\w-]+): begin \(.+?\) -->.*?<!-- (?P=name): end -->", re.S)


def timings(text: str) -> list[str]:
    """Every timing figure of ``text`` outside the sections a script writes, as written."""
    typed = _GENERATED.sub(" ", text)
    return [m.group(0) for m in TIMINGS.finditer(" ".join(typed.split()))]


def test_the_pattern_finds_what_the_pages_used_to_hold() -> None:
    old = (
        "used 153 CPU-seconds with an empty search cache (load 9.6), 2 minutes 42 seconds of wall "
        "time, load average about 7; 1,463 passed and 37 skipped; 280.3 CPU s; took 3 min 39 s on "
        "two cores; 629 s of wall time at load 4 to 7; in 8.6 minutes"
    )
    assert timings(old) == ["153 CPU-seconds", "load 9", "2 minutes 42 seconds", "load average about 7",
                            "1,463 passed", "37 skipped", "280.3 CPU s", "took 3 min", "629 s of wall",
                            "load 4", "in 8.6 minutes"]  # fmt: skip
    assert timings("the 200-instance stream, 8 attempts, max_cost = 16, 0.16 [0.07, 0.30]") == []
    assert timings("a generator call gets 30 s; poll every 50 ms; within 10 s; 1,800 applications") == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_page_types_no_timing(page: Path) -> None:
    assert timings(page.read_text()) == []


PLANTED = st.builds(
    lambda number, template: template.format(number),
    st.decimals(min_value=1, max_value=9999, places=1).map(str),
    st.sampled_from(
        [
            "The main job took {} s here.",
            "It used {} CPU-seconds.",
            "at load {} on two cores",
            "{} minutes of wall time",
            "{} passed, 46 skipped",
            "played in {} minutes",
        ]
    ),
)


@given(planted=PLANTED, at=st.floats(min_value=0, max_value=1))
def test_a_figure_planted_in_a_page_is_found(planted: str, at: float) -> None:
    text = (DOCS / "benchmarks.md").read_text()
    lines = text.splitlines()
    cut = round(at * len(lines))
    assert timings("\n".join([*lines[:cut], planted, *lines[cut:]]))


def test_a_figure_a_script_wrote_into_a_page_is_not_counted() -> None:
    written = "<!-- games: begin (scripts/arc3_docs.py) -->\nit took 3.2 s at load 4\n<!-- games: end -->"
    assert timings(f"before\n{written}\nafter") == []
    assert timings(written.replace("games: end", "other: end")) != []  # an unclosed section hides nothing


RESULTS = ROOT / "benchmarks" / "results"


@pytest.mark.parametrize("result", sorted(RESULTS.glob("*.md")), ids=lambda p: p.name)
def test_a_recorded_benchmark_is_included_and_says_where_it_ran(result: Path) -> None:
    assert f'--8<-- "benchmarks/results/{result.name}"' in (DOCS / "benchmarks.md").read_text()
    head = result.read_text().splitlines()[0]
    # A variant of a benchmark is recorded beside it as <script>-<variant>.md (search-core.md).
    script = result.stem.partition("-")[0]
    assert head.startswith(f"`python benchmarks/{script}.py")
    assert " cores, " in head and "load average " in head and " s of wall time and " in head


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


SCRIPTS = sorted(p for p in BENCHMARKS.glob("*.py") if '__name__ == "__main__"' in p.read_text())


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_benchmark_records_and_its_figures_are_on_the_page(script: Path) -> None:
    last = script.read_text().rstrip().splitlines()[-1].strip()
    assert re.fullmatch(rf'run_benchmark\("{script.stem}", main(, .+)?\)', last), last
    assert (RESULTS / f"{script.stem}.md").is_file(), f"run python benchmarks/{script.name} --record"


def _record_module(results: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("record_under_test", BENCHMARKS / "record.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.RESULTS = results
    return module


def test_record_writes_what_was_printed_under_the_machine_and_the_run_s_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _record_module(tmp_path)
    monkeypatch.setattr(sys, "argv", ["benchmarks/toy.py", "--rounds", "3", "--record"])

    def main() -> int:
        print("rounds 3\nrate 12.5 a second")
        return 4

    with pytest.raises(SystemExit) as exit_:
        record.run("toy", main)
    assert exit_.value.code == 4
    assert sys.argv == ["benchmarks/toy.py", "--rounds", "3"]  # main never sees --record
    head, *rest = (tmp_path / "toy.md").read_text().splitlines()
    assert head.startswith("`python benchmarks/toy.py --rounds 3 --record`, ")
    assert re.search(r"load average [\d.]+ \(1 min\), [\d.]+ \(5 min\) before", head)
    assert re.search(r"took [\d.]+ s of wall time and [\d.]+ CPU-seconds", head)
    assert rest == ["", "```text", "rounds 3", "rate 12.5 a second", "```"]
    assert "rounds 3" in capsys.readouterr().out  # still printed to the terminal


def test_a_variant_is_recorded_beside_its_script_under_its_own_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = _record_module(tmp_path)
    monkeypatch.setattr(sys, "argv", ["benchmarks/toy.py", "--catalogue", "wide", "--record"])
    with pytest.raises(SystemExit):
        record.run("toy", lambda: print("rate 3"), "toy-wide")
    assert not (tmp_path / "toy.md").exists()
    head = (tmp_path / "toy-wide.md").read_text().splitlines()[0]
    assert head.startswith("`python benchmarks/toy.py --catalogue wide --record`, ")


def test_the_search_benchmark_records_a_catalogue_other_than_the_default_beside_its_own() -> None:
    spec = importlib.util.spec_from_file_location("search_under_test", BENCHMARKS / "search.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.results_name([]) == "search"
    assert module.results_name(["--catalogue", "wide", "--record"]) == "search"
    assert module.results_name(["--sets", "eval", "--catalogue", "core"]) == "search-core"
    assert module.results_name(["--catalogue=core"]) == "search-core"


def test_a_benchmark_this_machine_cannot_run_says_so_in_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = _record_module(tmp_path)
    monkeypatch.setattr(sys, "argv", ["benchmarks/toy.py", "--record"])

    def main() -> None:
        raise record.Unavailable("needs a GPU")

    with pytest.raises(SystemExit) as exit_:
        record.run("toy", main)
    assert exit_.value.code == 0
    assert "not run on this machine: needs a GPU" in (tmp_path / "toy.md").read_text().splitlines()
    monkeypatch.setattr(sys, "argv", ["benchmarks/toy.py"])
    with pytest.raises(SystemExit) as exit_:
        record.run("toy", main)
    assert exit_.value.code == "not run on this machine: needs a GPU"


def test_the_readme_s_commands_are_timed_as_the_readme_writes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from readme_commands import readme_commands

    block = (ROOT / "README.md").read_text().split("```bash\n", 1)[1].split("```", 1)[0]
    assert list(readme_commands().values()) == block.strip().splitlines()
