from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.core.jsonable import as_json
from continual_arc.core.learner_ref import LearnerRef
from continual_arc.env import Action, GiveUp, LearnerObservation
from continual_arc.learner import BaseLearner
from continual_arc.play.learner import LearnerSpecError
from continual_arc.play.rundir import read_records
from continual_arc.protocol.play import ProtocolError, ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.protocol.plays import PROTOCOL_PLAYS

pytestmark = pytest.mark.heavy  # whole protocols: left out of the fast loop (CONTRIBUTING)


TOY_RULE = "continual_arc.testing:ToyRuleLearner"


def numbers(document: dict[str, Any]) -> dict[str, Any]:
    plane = as_json(document["plane"])  # the point as protocol.json holds it (read back, or as played)
    return {
        "seen": plane["seen"]["share_saved"],
        "held": plane["held_out"]["share_saved"],
        "learned": plane["learned"]["share_learned"],
        "T": plane["seen"]["saving"],
    }


def test_protocol_in_processes_lays_out_a_submission(tmp_path: Path) -> None:
    spec, options = (
        ProtocolSpec.named(TOY_RULE, "toy-smoke"),
        ProtocolOptions(out=tmp_path / "p", jobs=2, resamples=500),
    )
    document = play_protocol(spec, options)
    assert set(PROTOCOL_PLAYS.values()) <= {p.name for p in (tmp_path / "p").iterdir()}
    assert document["plane"].seen.share_saved.value == 1.0  # every stream rule was kept
    assert document["plane"].learned.share_learned.value == 1.0
    seen = read_records(tmp_path / "p" / "seen")
    stream = read_records(tmp_path / "p" / "stream")
    names = {r["task_id"]: r["alias"] for r in stream}
    assert all(names[r["task_id"]] == r["alias"] for r in seen)  # the stream's names in the test
    resets = read_records(tmp_path / "p" / "seen-reset")
    assert all(r["reset_before"] for r in resets)
    submission = read_json(tmp_path / "p" / "submission.json")
    # the track's floor, copied in beside the plays (toy is a grid track: the baselines declare one)
    assert submission["tests"]["seen"] == {
        "run": "seen",
        "reset": "seen-reset",
        "bare": None,
        "floor": "seen-floor",
    }
    assert (tmp_path / "p" / "plots" / "plane.png").exists()
    for play in PROTOCOL_PLAYS.values():
        meta = read_json(tmp_path / "p" / play / "meta.json")
        assert meta["learner"] == {"class": TOY_RULE, "kwargs": {}}


def test_numbers_reproduce_exactly_in_process_and_in_processes(tmp_path: Path) -> None:
    one = play_protocol(
        ProtocolSpec.named(TOY_RULE, "toy-smoke"), ProtocolOptions(out=tmp_path / "a", jobs=1)
    )
    two = play_protocol(
        ProtocolSpec.named(TOY_RULE, "toy-smoke"), ProtocolOptions(out=tmp_path / "b", jobs=2)
    )
    assert numbers(one) == numbers(two)
    # In processes the stream's plots are drawn while the tests play; in process, at the end.
    names = [Path(p).name for p in one["plots"]]
    assert names == [Path(p).name for p in two["plots"]]
    assert names[:2] == ["plane.png", "plane.svg"] and "charges.png" in names
    for name in (n for n in names if n.endswith(".png")):
        drawn = [(tmp_path / side / "plots" / name).read_bytes() for side in ("a", "b")]
        assert drawn[0] == drawn[1], name


class Notebook(BaseLearner):
    """Keeps state (what it saw) but cannot save it: the tests get deep copies of it."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def act(self, obs: LearnerObservation) -> Action:
        return GiveUp()

    def end_round(self) -> None:
        self.seen.add("round")


def test_a_learner_that_cannot_save_is_copied_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    spec, options = (
        ProtocolSpec.named("test_protocol:Notebook", "toy-smoke"),
        ProtocolOptions(out=tmp_path / "p", jobs=2),
    )
    document = play_protocol(spec, options)
    held = document["plane"].held_out
    assert held.learner["budget_used"] == 100.0 and held.share_saved.value == 0.0


def test_a_learner_that_cannot_save_cannot_resume_a_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its stream's end lived in the process that played it: a test cut short after the stream
    # finished would start from nothing, so the resume is refused rather than played.
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    spec, options = (
        ProtocolSpec.named("test_protocol:Notebook", "toy-smoke"),
        ProtocolOptions(out=tmp_path / "p"),
    )
    play_protocol(spec, options)
    (tmp_path / "p" / "seen" / "summary.json").unlink()
    with pytest.raises(ProtocolError, match="cannot save its state, so an unfinished protocol cannot resume"):
        play_protocol(spec, options)


def test_a_folder_that_holds_no_protocol_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("mine\n")
    with pytest.raises(ProtocolError, match="is not empty and holds no protocol"):
        play_protocol(ProtocolSpec.named(TOY_RULE, "toy-smoke"), ProtocolOptions(out=tmp_path / "notes"))
    assert [p.name for p in (tmp_path / "notes").iterdir()] == ["todo.txt"]


def test_another_protocol_in_the_same_directory_is_refused(tmp_path: Path) -> None:
    play_protocol(ProtocolSpec.named(TOY_RULE, "toy-smoke"), ProtocolOptions(out=tmp_path / "p", jobs=1))
    before = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "p").rglob("*"))
    with pytest.raises(ProtocolError, match="holds another protocol"):
        play_protocol(ProtocolSpec.named(TOY_RULE, "toy-smoke", seed=1), ProtocolOptions(out=tmp_path / "p"))
    with pytest.raises(LearnerSpecError, match="cannot import learner module 'no_such_module'"):
        play_protocol(
            ProtocolSpec.named("no_such_module:L", "toy-smoke"), ProtocolOptions(out=tmp_path / "p")
        )
    assert sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "p").rglob("*")) == before  # all kept


def test_a_protocol_that_fails_before_any_play_leaves_nothing(tmp_path: Path) -> None:
    spec, broken = (
        ProtocolSpec.named("no_such_module:L", "toy-smoke"),
        ProtocolOptions(out=tmp_path / "new" / "p"),
    )
    with pytest.raises(LearnerSpecError, match="cannot import learner module 'no_such_module'"):
        play_protocol(spec, broken)
    assert not (tmp_path / "new" / "p").exists()  # made by the call, so removed with its schedules
    (tmp_path / "empty").mkdir()
    spec, refused = (
        ProtocolSpec.named(TOY_RULE, "toy-smoke", kwargs={"nope": 1}),
        ProtocolOptions(out=tmp_path / "empty"),
    )
    with pytest.raises(LearnerSpecError, match="nope"):
        play_protocol(spec, refused)
    assert list((tmp_path / "empty").iterdir()) == []  # the user's folder stays, empty as it was


def test_a_protocol_that_fails_once_a_play_started_keeps_it_to_resume(tmp_path: Path) -> None:
    spec, options = ProtocolSpec.named(TOY_RULE, "toy-smoke"), ProtocolOptions(out=tmp_path / "p", jobs=1)
    play_protocol(spec, options)
    (tmp_path / "p" / "seen" / "summary.json").unlink()  # as if stopped while the seen test played
    shutil.rmtree(tmp_path / "p" / "stream-reset")
    with pytest.raises(LearnerSpecError):
        play_protocol(dataclasses.replace(spec, learner=LearnerRef(TOY_RULE, {"nope": 1})), options)
    assert (tmp_path / "p" / "stream" / "summary.json").exists() and (tmp_path / "p" / "schedules").is_dir()
    play_protocol(spec, options)  # and it resumes
    assert (tmp_path / "p" / "stream-reset" / "summary.json").exists()


def test_cli_prints_the_plane(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "p"
    args = ["protocol", "--learner", TOY_RULE, "--config", "toy-smoke", "--out", str(out), "--jobs", "1"]
    assert main([*args, "--resamples", "200"]) == 0
    text = capsys.readouterr().out
    assert "memorization (seen)         share saved 1.00 [1.00, 1.00]" in text
    assert "share learned over the stream  1.00" in text
    # toy-smoke's stream returns to its tasks little: its learnable budget is tiny, and said so
    budget = read_json(out / "protocol.json")["plane"]["learned"]["learnable_budget"]
    assert 0 < budget < 10 and text.splitlines()[-3] == (
        f"  the learnable budget is tiny ({budget:.1f} points, under 10.0): each point of U the learner "
        f"saves or loses against its reset moves the share learned by {1 / budget:.2f}, so read the two "
        "U beside it"
    )
    assert (
        main(["protocol", "--learner", "nowhere:Nope", "--config", "toy-smoke", "--out", str(tmp_path / "q")])
        == 2
    )
    assert "cannot import learner module 'nowhere'" in capsys.readouterr().err


SLOW = """
import time
from continual_arc.testing import ToyRuleLearner

class SlowRule(ToyRuleLearner):
    def act(self, obs):
        time.sleep(0.01)
        return super().act(obs)
"""


def test_the_protocol_resumes_after_a_kill(tmp_path: Path) -> None:
    (tmp_path / "slowmod.py").write_text(SLOW)
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    cmd = [sys.executable, "-m", "continual_arc.cli", "protocol", "--learner", "slowmod:SlowRule"]
    # -v: each play's own progress lines, which the loop below reads to time the kill
    cmd += ["--config", "toy-smoke", "--users", "3", "--jobs", "2", "--resamples", "300", "-v"]
    out = tmp_path / "killed"
    # its own session, so that the kill takes the worker processes with it, as a crash would
    proc = subprocess.Popen(
        [*cmd, "--out", str(out)], env=env, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("[stream] round") and int(line.split()[2].split("/")[0]) >= 3:
            break
    time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    assert not (out / "protocol.json").exists()
    for target in (out, tmp_path / "straight"):
        done = subprocess.run([*cmd, "--out", str(target)], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]
    assert numbers(json.loads((out / "protocol.json").read_text())) == numbers(
        json.loads((tmp_path / "straight" / "protocol.json").read_text())
    )


def test_no_plots_draws_nothing_and_measures_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["protocol", "--learner", TOY_RULE, "--config", "toy-smoke", "--jobs", "1", "--resamples", "300"]
    assert main([*base, "--out", str(tmp_path / "drawn")]) == 0
    assert "(protocol.json, submission.json, plots/)" in capsys.readouterr().out
    assert main([*base, "--out", str(tmp_path / "bare"), "--no-plots"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("(protocol.json, submission.json)")
    assert (tmp_path / "drawn" / "plots" / "plane.png").exists()
    assert not (tmp_path / "bare" / "plots").exists()
    drawn, bare = (read_json(tmp_path / side / "protocol.json") for side in ("drawn", "bare"))
    assert bare["plane"] == drawn["plane"]
