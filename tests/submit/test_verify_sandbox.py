"""A verified learner's processes in the kernel sandbox: what it may not reach, and what it still does."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path
from typing import Any

import pytest

from continual_arc.core.files import read_json
from continual_arc.core.jsonable import as_json
from continual_arc.data.directory import data_dir
from continual_arc.play.aliases import SALT_FILE
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.remote import log_index
from continual_arc.play.rundir import read_records
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.stream.users import with_users
from continual_arc.submit.confine import SandboxConflict
from continual_arc.submit.verify import VERIFICATION, VerifyOptions, verify
from continual_arc.tracks.registry import get_config

TOY = with_users(get_config("toy-smoke"), 1)

PROBE = """
import json, os, socket, sys
from pathlib import Path

from continual_arc.testing import ToyRuleLearner


def _try(act):
    try:
        act()
        return "allowed"
    except OSError as err:
        return f"refused: {err.strerror}"


class Probe(ToyRuleLearner):
    '''The toy rule learner, which first tries to reach what it must not, and writes down how it went.'''

    def __init__(self):
        super().__init__()
        said = {
            "data": _try(lambda: Path(os.environ["PROBE_DATA"]).read_text()),
            "pack": _try(lambda: os.listdir(os.environ["PROBE_PACK"])),
            "tcp": _try(lambda: socket.create_connection(("127.0.0.1", int(os.environ["PROBE_PORT"])), 5)),
        }
        print(json.dumps(said), file=sys.stderr)
"""


def _timeless(run_dir: Path) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in read_records(run_dir)]


def _skip_unless(isolation: dict[str, Any], *layers: str) -> None:
    missing = [layer for layer in layers if not isolation.get(layer)]
    if missing:
        pytest.skip(f"this kernel did not put {', '.join(missing)} in force")


@pytest.mark.slow
def test_a_learner_reaches_neither_the_data_the_pack_nor_another_port(tmp_path: Path) -> None:
    (tmp_path / "learners").mkdir()
    (tmp_path / "learners" / "probe.py").write_text(PROBE)
    secret = data_dir() / "answers.json"
    secret.write_text("{}")
    pack = tmp_path / "pack"  # a stand-in for a pack's folder: withheld as verify withholds one
    pack.mkdir()
    (pack / "rules.json").write_text("{}")
    with socket.create_server(("127.0.0.1", 0)) as listener:
        env = {
            **os.environ,
            "PYTHONPATH": str(tmp_path / "learners"),
            "PROBE_DATA": str(secret),
            "PROBE_PACK": str(pack),
            "PROBE_PORT": str(listener.getsockname()[1]),
        }
        passed = ("PROBE_DATA", "PROBE_PACK", "PROBE_PORT")
        options = VerifyOptions(learner="probe:Probe", config=TOY, out=tmp_path / "v", seed=5, env=env,
                                resamples=200, withheld=[pack], pass_env=passed)  # fmt: skip
        verify(options)
    isolation = read_json(tmp_path / "v" / VERIFICATION)["isolation"]
    assert set(isolation) == {"stream", "test", "reset"}
    assert all(kind["processes"] >= 1 and kind["proxy_port"] is None for kind in isolation.values())
    plays = [("stream", "stream"), ("seen", "test"), ("seen-reset", "reset")]
    work = tmp_path / "v" / "work"
    first = {e["play"]: e["log"] for e in reversed(log_index(work / "logs")) if e["process"] == 0}
    logs = {play: work / "logs" / str(first[play]) / "stderr.txt" for play, _ in plays}
    said = {play: json.loads(log.read_text()) for play, log in logs.items()}
    for play, kind in plays:
        _skip_unless(isolation[kind], "landlock_fs")
        assert said[play]["data"].startswith("refused") and said[play]["pack"].startswith("refused"), play
        if not (isolation[kind]["network_namespace"] or isolation[kind]["landlock_tcp"]):
            pytest.skip("this kernel put neither a network namespace nor Landlock's TCP rules in force")
        assert said[play]["tcp"].startswith("refused"), play


@pytest.mark.slow
def test_an_honest_learner_verifies_with_the_same_records_in_the_sandbox(tmp_path: Path) -> None:
    common: dict[str, Any] = {"learner": "continual_arc.testing:ToyRuleLearner", "config": TOY, "seed": 9,
                              "resamples": 200}  # fmt: skip
    bare = verify(VerifyOptions(**common, out=tmp_path / "bare", sandbox=False))
    for play in PROTOCOL_PLAYS.values():  # the same aliases, so that the records can be compared
        (tmp_path / "boxed" / play).mkdir(parents=True)
        shutil.copy(tmp_path / "bare" / play / SALT_FILE, tmp_path / "boxed" / play / SALT_FILE)
    boxed = verify(VerifyOptions(**common, out=tmp_path / "boxed"))
    for play in PROTOCOL_PLAYS.values():
        assert _timeless(tmp_path / "boxed" / play) == _timeless(tmp_path / "bare" / play), play
    same = json.dumps(bare, sort_keys=True, default=as_json)
    same = same.replace(str(tmp_path / "bare"), str(tmp_path / "boxed"))
    assert json.dumps(boxed, sort_keys=True, default=as_json) == same
    isolation = {name: read_json(tmp_path / name / VERIFICATION)["isolation"] for name in ("bare", "boxed")}
    assert isolation["boxed"]["test"]["sandbox"] and not isolation["bare"]["test"]["sandbox"]
    assert not list((tmp_path / "boxed" / "work").glob("*.sandbox/launch.json"))  # nor is its environment


def test_a_folder_the_learner_reads_that_holds_the_pack_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pack").mkdir()
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    options = VerifyOptions(learner="continual_arc.testing:ToyRuleLearner", config=TOY, out=tmp_path / "v",
                            seed=3, env=env, withheld=[tmp_path / "pack"])  # fmt: skip
    with pytest.raises(SandboxConflict, match="must not reach"):
        verify(options)
