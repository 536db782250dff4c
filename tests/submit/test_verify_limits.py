"""A learner over each per-process limit of ``verify``: its instance fails in one sentence, the run goes on.

One hog, the toy rule learner, goes over the limit its environment names the first time a process
of its plays an action (or, for the saved state, every time it saves one). Each ``verify`` runs on
toy-smoke with small limits; the instance the hog spoiled ends in a learner error whose message is
the limit's sentence, the rest of the protocol is played and read, ``verification.json`` lists the
hits, and no process of the hog's is left.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from continual_arc.core.files import read_json
from continual_arc.core.sandbox import Limits, sentence
from continual_arc.play.rundir import read_records
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.stream.users import with_users
from continual_arc.submit.check import check_submission
from continual_arc.submit.verify import VERIFICATION, VerifyOptions, verify
from continual_arc.tracks.registry import get_config

TOY = with_users(get_config("toy-smoke"), 1)
TAG = f"carc-hog-{uuid.uuid4().hex}"

HOG = r'''
import os, subprocess, sys, time
from pathlib import Path

from continual_arc.testing import ToyRuleLearner

MiB = 1 << 20


class Hog(ToyRuleLearner):
    """The toy rule learner, which goes over one limit once a process."""

    def __init__(self):
        super().__init__()
        self.hogged = False

    def act(self, obs):
        if not self.hogged:
            self.hogged = True
            getattr(self, "_" + os.environ["HOG_LIMIT"])()
        return super().act(obs)

    def _memory(self):
        hoard = bytearray(512 * MiB)  # over a 256 MiB cap: a MemoryError, whatever is done with it
        hoard[::4096] = b"x" * len(hoard[::4096])

    def _processes(self):
        for _ in range(12):
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", os.environ["HOG_TAG"]])
        time.sleep(30)

    def _file(self):
        with open("big", "wb") as file:
            for _ in range(4):
                file.write(b"x" * MiB)

    def _folder(self):
        for n in range(6):
            Path(f"part-{n}").write_bytes(os.urandom(MiB))
        time.sleep(30)

    def _log(self):
        for _ in range(64):
            sys.stderr.write("x" * 4096 + "\n")
        sys.stderr.flush()
        time.sleep(30)

    def _state(self):
        pass

    def save_state(self, directory):
        super().save_state(directory)
        if os.environ["HOG_LIMIT"] == "state" and self.hogged:  # a process that has played saves ballast
            for n in range(3):
                Path(directory, f"ballast-{n}").write_bytes(os.urandom(MiB))
'''

MiB = 1 << 20
SMALL = Limits(memory_bytes=256 * MiB, processes=4, file_bytes=2 * MiB, folder_bytes=4 * MiB,
               log_bytes=128 << 10, state_bytes=2 * MiB)  # fmt: skip
CASES = {
    "memory": "memory_bytes",
    "processes": "processes",
    "file": "file_bytes",
    "folder": "folder_bytes",
    "log": "log_bytes",
    "state": "state_bytes",
}


def _tagged(tag: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if tag.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.slow
@pytest.mark.parametrize("limit", sorted(CASES))
def test_a_learner_over_a_limit_fails_its_instance_and_the_run_goes_on(tmp_path: Path, limit: str) -> None:
    (tmp_path / "learners").mkdir()
    (tmp_path / "learners" / "hog.py").write_text(HOG)
    tmp_path.chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "learners"), "HOG_LIMIT": limit, "HOG_TAG": TAG,
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}  # fmt: skip
    options = VerifyOptions(learner="hog:Hog", config=TOY, out=tmp_path / "v", seed=5, env=env, resamples=200,
                            pass_env=("HOG_LIMIT", "HOG_TAG"), limits=SMALL)  # fmt: skip
    try:
        document = verify(options)
    finally:
        left = _tagged(TAG)
        for pid in left:
            os.kill(pid, 9)
    assert left == []  # every process the hog started went with its sandbox
    said = sentence(CASES[limit], getattr(SMALL, CASES[limit]))
    expected = {
        "memory_bytes": "memory limit of 256 MiB",
        "processes": "process limit of 4 processes",
        "file_bytes": "file-size limit of 2 MiB",
        "folder_bytes": "working-folder limit of 4 MiB",
        "log_bytes": "log limit of 128 KiB",
        "state_bytes": "saved-state limit of 2 MiB",
    }[CASES[limit]]
    assert expected in said and said.count(".") <= 1 and "\n" not in said
    records = {play: read_records(tmp_path / "v" / folder) for play, folder in PROTOCOL_PLAYS.items()}
    assert all(records.values())  # every play was played to its end
    assert document["config"] == TOY.name
    errors = [r["error"]["message"] for rows in records.values() for r in rows if r.get("error")]
    assert errors and all(said in message for message in errors), errors[:3]
    assert all(r["end"] == "learner error" for rows in records.values() for r in rows if r.get("error"))
    checked = check_submission(tmp_path / "v", resamples=200, allow_ablation=True)
    assert [p for p in checked.problems if "records.jsonl" in p] == []  # a limit's failure replays as a fault
    hits = read_json(tmp_path / "v" / VERIFICATION)["limits"]["hits"]
    assert hits and all(said in hit["sentence"] for hit in hits)
    assert read_json(tmp_path / "v" / VERIFICATION)["limits"][CASES[limit]] == getattr(SMALL, CASES[limit])
