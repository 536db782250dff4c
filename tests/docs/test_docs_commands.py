"""The guides' commands run as written: the stream page's schedules, the getting-started's small protocol."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
from test_docs_examples import DOCS, ROOT, blocks, commands

from continual_arc.cli import main
from continual_arc.schedule import Schedule


def _run(argv: list[str]) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(argv)


def test_the_stream_pages_schedule_commands_run_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shown = [argv for _, prog, argv in commands(DOCS / "concepts" / "stream.md") if prog == "continual-arc"]
    assert len(shown) >= 6
    for argv in shown:
        assert _run(argv) == 0, argv
    team = Schedule.load("schedules/team-first-20.json")  # "--users 16 --seed 2 --rounds 20"
    assert team.rounds == 20 and {slot.user for slot in team.slots} == set(range(16))
    assert all(slot.reset_before for slot in Schedule.load("schedules/stream-reset.json").slots)
    assert Schedule.load("schedules/stream.json").meta["seed"] == 0


@pytest.mark.slow
def test_the_small_protocol_of_getting_started_runs_and_reruns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    page = DOCS / "getting-started.md"
    (argv,) = [argv for _, prog, argv in commands(page) if prog == "continual-arc" and "arc1-smoke" in argv]
    assert _run(argv) == 0
    out = Path(argv[argv.index("--out") + 1])
    first = (out / "protocol.json").read_bytes()
    assert _run(argv) == 0  # the page: the same command, rerun, resumes (here: finds every play done)
    assert (out / "protocol.json").read_bytes() == first
    (check,) = [argv for _, prog, argv in commands(page) if prog == "continual-arc" and argv[0] == "check"]
    assert check[1:] == [str(argv[argv.index("--out") + 1]), "--draft"]  # what the protocol wrote
    assert _run(check) == 0  # in one command, unfilled and not canonical as the protocol left it


def test_the_stream_pages_flag_table_names_every_configuration() -> None:
    from continual_arc.tracks import registry

    row = next(
        line
        for line in (DOCS / "concepts" / "stream.md").read_text().splitlines()
        if line.startswith("| `--config`")
    )
    named = set(re.findall(r"`([a-z0-9-]+)`", row))
    declared = set(
        registry.CONFIGS
    )  # the tracks that run here, and those declared that cannot (arc3 on 3.11)
    declared |= {name for why in registry._REGISTRY.unavailable().values() for name in why.configs}
    assert {"arc3", "arc3-smoke"} <= declared and declared - named == set()


@pytest.mark.slow
def test_the_learner_guides_stateful_learner_is_played_and_ranked_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    page = DOCS / "guides" / "learner.md"
    (module,) = [
        b.code for b in blocks(page) if b.language == "python" and b.code.startswith("# my_learner.py")
    ]
    Path("my_learner.py").write_text(module)
    monkeypatch.syspath_prepend(str(tmp_path))  # the page's `export PYTHONPATH=.`
    shown = [
        argv for _, prog, argv in commands(page) if prog == "continual-arc" and "runs-mine" in " ".join(argv)
    ]
    protocol, leaderboard = shown
    assert (
        protocol[:3] == ["protocol", "--learner", "my_learner:RuleMemory"] and leaderboard[0] == "leaderboard"
    )
    # The page plays the canonical arc1; here its smoke configuration, ranked as an ablation.
    assert _run([*protocol, "--config", "arc1-smoke", "--resamples", "200", "--no-plots"]) == 0
    out = Path(protocol[protocol.index("--out") + 1])
    submission = json.loads((out / "submission.json").read_text())
    assert (submission["student"], submission["contact"]) == ("none", "you@example.org")
    stored = [str(ROOT / arg) if arg.startswith("runs/") else arg for arg in leaderboard]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        status = main([*stored, "--ablation", "--no-regenerate", "--resamples", "200"])
    assert status == 0 and "my_learner:RuleMemory" in printed.getvalue()


def test_the_learner_tables_dry_run_lists_every_row_without_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = DOCS / "guides" / "learner-table.md"
    (argv,) = [argv for _, prog, argv in commands(page) if prog == "continual-arc" and "--dry-run" in argv]
    monkeypatch.chdir(ROOT)  # the page's commands run from a clone's root, where sweeps/ is
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        assert main(argv) == 0
    text = printed.getvalue()
    rows = ["Q", "QE", "QT", "QTE", "QETE", "QD", "stateless floor", "demo-cache floor", "program library"]
    for row in rows:
        for seed in (0, 1, 2):
            assert (
                f": {row} (continual_arc_baselines." in text
                and f"{row.replace(' ', '-')}/arc1-users1-seed{seed}:" in text
            )
    # six plays a protocol, each listed, and nothing written: the sweep's directory is not made
    assert text.count("\n  stream\n") == 9 * 3 and text.count("(after stream)") == 2 * 9 * 3
    assert not (ROOT / "out" / "sweep-table3").exists() and not list(tmp_path.iterdir())
    experiments = {line for line in text.splitlines() if "teacher_plays" in line}
    assert {line.split(":")[0] for line in experiments} == {
        f"protocols/{row}/arc1-users1-seed{s}" for row in ("QT", "QTE", "QETE") for s in (0, 1, 2)
    }
