"""A whole protocol interrupted and resumed records what an unbroken one records, timings aside.

The default grid learner (the model-free program library) counts its searches and primitive
applications cumulatively in every record's ``resources``: a resume that started them again from
zero would leave the scores equal and the records different, which ``runs rebuild`` refuses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from continual_arc.play import rundir
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, default_learner, play_protocol
from continual_arc.protocol.plays import PROTOCOL_PLAYS


def _options(out: Path) -> tuple[ProtocolSpec, ProtocolOptions]:
    learner = default_learner("toy-smoke")
    return ProtocolSpec.named(learner, "toy-smoke"), ProtocolOptions(
        out=out, jobs=1, resamples=50, plots=False
    )


def _records(out: Path) -> dict[str, list[dict[str, Any]]]:
    """Every play's records, their timings and task aliases left out (each protocol draws its own salt)."""
    plays = {}
    for play in PROTOCOL_PLAYS.values():
        lines = (out / play / "records.jsonl").read_text().splitlines()
        plays[play] = [
            {k: v for k, v in json.loads(line).items() if k not in (*TIMING_FIELDS, "alias")}
            for line in lines
        ]
    return plays


@pytest.mark.slow
def test_an_interrupted_protocol_resumes_to_the_records_of_an_unbroken_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_append = rundir.append_jsonl
    appended = {"rounds": 0}

    def interrupted_append(path: Path, values: Any) -> None:
        real_append(path, values)
        appended["rounds"] += 1
        if appended["rounds"] == 4:  # mid-stream: four rounds committed, then Ctrl-C
            raise KeyboardInterrupt

    monkeypatch.setattr(rundir, "append_jsonl", interrupted_append)
    cut = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        play_protocol(*_options(cut))
    monkeypatch.setattr(rundir, "append_jsonl", real_append)
    stream = cut / PROTOCOL_PLAYS["stream"]
    first_start = json.loads((stream / "meta.json").read_text())["started"]
    assert not (stream / "summary.json").exists()
    counted = [json.loads(line)["resources"] for line in (stream / "records.jsonl").read_text().splitlines()]
    assert counted and counted[-1]["searches"] > 0  # it had counted something before the cut

    play_protocol(*_options(cut))
    play_protocol(*_options(tmp_path / "straight"))
    resumed, straight = _records(cut), _records(tmp_path / "straight")
    assert resumed == straight  # resources included: the counters continued across the resume
    meta = json.loads((stream / "meta.json").read_text())
    assert meta["started"] == first_start and [r["at_round"] for r in meta["resumes"]] == [4]
