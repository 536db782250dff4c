"""QD's arc1-smoke protocol on CPU, a fake teacher behind a proxy: resumable after a kill, checked."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from qd_rig import TEACHER, FakeTeacher, teacher_rig

from continual_arc.core.files import read_json
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.rundir import read_trajectory
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.proxy import ProxyHandle
from continual_arc_baselines.serve import resolve_model

pytestmark = pytest.mark.slow


@pytest.fixture
def teacher_proxy() -> Iterator[tuple[FakeTeacher, FakeModelServer, ProxyHandle]]:
    with teacher_rig() as rig:
        yield rig


def records(play: Path) -> list[dict[str, Any]]:
    lines = (play / "records.jsonl").read_text().splitlines()
    varying = (*TIMING_FIELDS, "alias")
    return [{k: v for k, v in json.loads(line).items() if k not in varying} for line in lines]


def command(tiny_model: Path, proxy: ProxyHandle, out: Path) -> list[str]:
    kwargs = {
        "model": resolve_model(str(tiny_model)).name,
        "weights": str(tiny_model),
        "max_tokens": 16,
        "max_calls": 2,
        "teacher": TEACHER,
        "teacher_base_url": proxy.url,
        "teacher_options": {"max_retries": 0},
    }
    return [
        sys.executable, "-m", "continual_arc.cli", "protocol", "--config", "arc1-smoke", "--jobs", "1",
        "--resamples", "300", "--no-plots", "-v", "--out", str(out),
        "--learner", "continual_arc_baselines.trained:QDLearner", "--learner-kwargs", json.dumps(kwargs),
    ]  # fmt: skip


def report(run: Path, *flags: str) -> str:
    argv = [sys.executable, "-m", "continual_arc.cli", "report", str(run), *flags]
    shown = subprocess.run(argv, capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr[-3000:]
    return shown.stdout


def test_the_qd_protocol_resumes_after_a_kill_to_the_same_records_adapters_and_pairs(
    tiny_model: Path, tmp_path: Path, teacher_proxy: tuple[FakeTeacher, FakeModelServer, ProxyHandle]
) -> None:
    _, fake, proxy = teacher_proxy
    killed, straight = tmp_path / "killed", tmp_path / "straight"
    proc = subprocess.Popen(
        command(tiny_model, proxy, killed), stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("[stream] round") and int(line.split()[2].split("/")[0]) >= 3:
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    assert not (killed / "protocol.json").exists() and (killed / "stream" / "state").is_dir()
    for out in (killed, straight):
        billed_before = len(fake.bill)
        done = subprocess.run(command(tiny_model, proxy, out), capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]
    straight_bill = fake.bill[billed_before:]  # the teacher's calls in the uninterrupted protocol
    assert fake.chat_requests and all(r.body["model"] == TEACHER for r in fake.chat_requests)
    plays = sorted(p.name for p in straight.iterdir() if (p / "records.jsonl").exists())
    assert {"stream", "seen", "held-out"} <= set(plays)
    for play in plays:
        assert records(killed / play) == records(straight / play), play
    finals = [sorted((out / "stream" / "state").glob("round-*"))[-1] for out in (killed, straight)]
    for name in ("adapter.safetensors", "optimizer.pt", "qd.json"):
        assert (finals[0] / name).read_bytes() == (finals[1] / name).read_bytes(), name
    # The pairs too, but for the instances' keys, which name the tasks by aliases salted afresh in
    # every protocol directory.
    kept = [
        [{k: v for k, v in json.loads(line).items() if k != "instance"} for line in lines]
        for lines in ((final / "pairs.jsonl").read_text().splitlines() for final in finals)
    ]
    assert kept[0] == kept[1] and kept[0]
    # The stream's teacher: its moves in the trajectories are the pairs kept, and what it cost is
    # counted once, in teacher_resources, equal after the kill to the uninterrupted run's.
    stream = [json.loads(line) for line in (straight / "stream" / "records.jsonl").read_text().splitlines()]
    cut = [json.loads(line) for line in (killed / "stream" / "records.jsonl").read_text().splitlines()]
    assert [r["teacher_resources"] for r in cut] == [r["teacher_resources"] for r in stream]
    assert all(not any(k.startswith("teacher") for k in r["training_resources"]) for r in stream)
    pairs = (finals[1] / "pairs.jsonl").read_text().splitlines()
    moves = [
        move
        for r in stream
        for move in read_trajectory(straight / "stream", r)["learner_log"]["teacher"]["moves"]
    ]
    assert moves == [json.loads(p)["move"] for p in pairs] and moves
    last = stream[-1]["training_resources"]
    assert json.loads((finals[1] / "qd.json").read_text())["labels"] == len(moves)
    assert stream[-1]["teacher_resources"]["calls"] >= len(moves)
    # report names the teacher once, on its own line, with counts that are the server's for that
    # model: each play's teacher counts its own calls, and together they are every call it was sent.
    reported = []
    taught = [p for p in plays if "QDLearner" in str(read_json(straight / p / "meta.json")["learner"])]
    assert {"stream", "seen", "held-out"} <= set(taught)
    for play in taught:
        lines = report(straight / play).splitlines()
        assert [line.split(":")[0] for line in lines if TEACHER in line and "learner:" not in line] == [
            f"teacher {TEACHER}"
        ], play
        assert not any("teacher" in line for line in lines if line.startswith("training compute")), play
        reported.append(json.loads(report(straight / play, "--json"))["teacher"]["compute"])
    assert sum(r["calls"] for r in reported) == len(straight_bill) > 0
    for ours, theirs in (("prompt_tokens", "tokens_prompt"), ("completion_tokens", "tokens_completion")):
        assert sum(r[ours] for r in reported) == sum(e[theirs] for e in straight_bill), ours
    # Its adapters trained on the teacher's labels: every round on every pair so far (DAgger's
    # aggregate), less those longer than max_train_tokens (the tiny model's tokens are bytes).
    per_round = [0] * (1 + max(r["round"] for r in stream))
    for r in stream:
        trajectory = read_trajectory(straight / "stream", r)
        assert trajectory is not None
        per_round[r["round"]] += len(trajectory["learner_log"]["teacher"]["moves"])
    aggregate = sum(sum(per_round[: n + 1]) for n in range(len(per_round)))
    assert 0 < last["examples_trained"] <= aggregate and last["rounds_trained"] > 0
    submission = json.loads((straight / "submission.json").read_text())
    submission.update(
        student=resolve_model(str(tiny_model)).name,
        teacher=TEACHER,
        code="https://example.org/x@0",
        contact="x@y.z",
    )
    (straight / "submission.json").write_text(json.dumps(submission))
    check = [
        sys.executable,
        "-m",
        "continual_arc.cli",
        "check",
        str(straight),
        "--ablation",
        "--resamples",
        "300",
    ]
    checked = subprocess.run(check, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout[-3000:] + checked.stderr[-3000:]
    # a learner with a teacher, named beside the score, and no experiment: its teacher only labels
    assert f"teacher: {TEACHER}" in checked.stdout and "experiment" not in checked.stdout
