"""A protocol's one progress display, what a resume says, Ctrl-C's hint, and the submission's flags."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.play import rundir
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.protocol.progress import ProtocolProgress, ProtocolWatch, played_instances, resume_note

TOY_RULE = "continual_arc.testing:ToyRuleLearner"
SIZES = {"stream": 9, "held-out": 4, "seen": 6, "stream-reset": 9, "held-out-reset": 4, "seen-reset": 6}


def _play(out: Path, name: str, records: int, *, finished: bool = False) -> None:
    folder = out / PROTOCOL_PLAYS[name]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "meta.json").write_text("{}")
    (folder / "records.jsonl").write_text("".join(json.dumps({"step": i}) + "\n" for i in range(records)))
    if finished:
        (folder / "summary.json").write_text("{}")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.tampered  # its plays are stand-ins: no summary to recompute
def test_the_watch_counts_plays_and_instances_and_the_time_left_at_this_calls_rate(tmp_path: Path) -> None:
    _play(tmp_path, "stream", 3)  # before this call: not part of its rate
    clock, shown = Clock(), []
    watch = ProtocolWatch(tmp_path, SIZES, shown.append, every=2.0, clock=clock)
    assert watch.count() == ProtocolProgress(0, 6, 3, 38, None)  # nothing played yet by this call
    _play(tmp_path, "stream", 9, finished=True)
    _play(tmp_path, "stream-reset", 4)
    clock.now += 20.0  # 10 instances in 20 s: 25 left take 50 s
    watch()
    assert shown == [ProtocolProgress(1, 6, 13, 38, 50.0)]
    clock.now += 1.0
    watch()  # less than `every` since the last: nothing shown
    assert len(shown) == 1
    assert shown[0].line() == "plays 1/6  instances 13/38  about 50 s left"


@pytest.mark.tampered  # its plays are stand-ins: no summary to recompute
def test_every_play_done_is_always_shown(tmp_path: Path) -> None:
    clock, shown = Clock(), []
    watch = ProtocolWatch(tmp_path, SIZES, shown.append, every=60.0, clock=clock)
    watch()
    for name, size in SIZES.items():
        _play(tmp_path, name, size, finished=True)
    watch()
    watch()  # asked again once every play is done: shown once
    assert [p.plays_done for p in shown] == [0, 6] and shown[-1].instances_done == 38


def test_a_torn_last_line_is_not_counted(tmp_path: Path) -> None:
    _play(tmp_path, "stream", 2)
    with (tmp_path / "stream" / "records.jsonl").open("a") as handle:
        handle.write('{"step": 2')
    assert played_instances(tmp_path / "stream") == 2 and played_instances(tmp_path / "seen") == 0


@pytest.mark.tampered  # its plays are stand-ins: no summary to recompute
def test_the_resume_note_names_each_play_with_how_far_it_got(tmp_path: Path) -> None:
    assert resume_note(tmp_path, SIZES) is None  # nothing played: nothing to resume
    _play(tmp_path, "stream", 9, finished=True)
    _play(tmp_path, "stream-reset", 4)
    assert resume_note(tmp_path, SIZES) == (
        f"resuming {tmp_path}: stream done, held-out not started, seen not started, "
        "stream-reset at 4 of 9 instances, held-out-reset not started, seen-reset not started"
    )


@pytest.mark.heavy
def test_ctrl_c_says_how_to_resume_and_the_rerun_says_what_it_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["protocol", "--learner", TOY_RULE, "--config", "toy-smoke", "--out", str(tmp_path / "p")]
    args += ["--resamples", "100", "--no-plots", "--jobs", "1"]
    real_append, appended = rundir.append_jsonl, []

    def interrupted(path: Path, values: object) -> None:
        real_append(path, values)  # type: ignore[arg-type]
        appended.append(path)
        if len(appended) == 2:  # two rounds of the stream committed, then Ctrl-C
            raise KeyboardInterrupt

    monkeypatch.setattr(rundir, "append_jsonl", interrupted)
    assert main(args) == 130
    hint = "continual-arc: interrupted; rerun the same command to resume"
    assert capsys.readouterr().err.strip().endswith(hint)
    monkeypatch.setattr(rundir, "append_jsonl", real_append)
    assert main([*args, "--student", "none", "--contact", "me@example.org"]) == 0
    err = capsys.readouterr().err
    # interrupted after two commits (of the stream, or of the floor played into its cache first)
    assert re.match(rf"resuming {re.escape(str(tmp_path / 'p'))}: stream at [1-9] of 9 instances, ", err)
    assert "seen not started" in err.splitlines()[0]
    assert "p: plays 6/6  instances 38/38\n" in err and "[stream]" not in err  # per-play lines: -v only
    submission = read_json(tmp_path / "p" / "submission.json")
    filled = (submission["student"], submission["code"], submission["contact"])
    assert filled == ("none", None, "me@example.org")
    assert main([*args, "-v", "--student", "gpt-x", "--code", "https://example.org/r@abc"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"resuming {tmp_path / 'p'}: stream done, ")
    submission = read_json(tmp_path / "p" / "submission.json")
    assert submission["student"] == "none"  # filled before: kept
    assert submission["code"] == "https://example.org/r@abc"
    fresh = [*args[:-1], "1", "-v"]
    fresh[fresh.index("--out") + 1] = str(tmp_path / "q")
    assert main(fresh) == 0
    assert "[stream] round 9/9" in capsys.readouterr().err  # -v: each play's own lines too


def test_the_student_error_says_what_a_model_free_learner_writes(tmp_path: Path) -> None:
    from continual_arc.submit.check import _REQUIRED

    assert "none for a model-free learner" in _REQUIRED["student"]
