"""A hostile learner under ``verify``: each way out of the sandbox it tries, and what it finds.

One probe, the toy rule learner with a few tricks, is verified once on toy-smoke; each test reads
what its processes saw (their instance logs, in the trajectories) or what they left on the host.
A second probe links its saved state to the pack's folder. Every test here fails on a ``verify``
whose learner processes share a folder, see the host's ``/tmp``, ``/dev/shm``, processes and
sockets, get the verifier's environment, run as root, or have their state copied with links
followed.
"""

from __future__ import annotations

import json
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from continual_arc.cli import main
from continual_arc.core.errors import ContinualArcError
from continual_arc.core.files import read_json
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.stream.users import with_users
from continual_arc.submit.verify import KEPT_ENV, VERIFICATION, VerifyOptions, verify
from continual_arc.tracks.registry import get_config

TOY = with_users(get_config("toy-smoke"), 1)
TAG = f"carc-daemon-{uuid.uuid4().hex}"

PROBE = '''
import json, os, re, socket, subprocess, sys
from pathlib import Path

from continual_arc.testing import ToyRuleLearner

PLACES = ("marker", "/tmp/marker", "/dev/shm/marker")


def _try(act):
    try:
        return f"allowed: {act()}"
    except OSError as err:
        return f"refused: {err.strerror}"


def _left():
    """What an earlier process left where this one looks; then this one leaves its own marks."""
    found = [place for place in PLACES if os.path.exists(place)]
    for place in PLACES:
        try:
            Path(place).write_text("left by an earlier instance")
        except OSError:
            pass
    return found


def _connect(address):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        sock.connect(address)
    return "connected"


def _mounts():
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    return sorted(re.sub(r"[0-9a-f]{16}", "<process>", " ".join(line.split()[3:5])) for line in lines)


def _capabilities():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("CapEff:"):
            return int(line.split()[1], 16)
    return None


class Probe(ToyRuleLearner):
    """The toy rule learner, which first looks for a way out and leaves a daemon behind."""

    def __init__(self):
        super().__init__()
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", os.environ["PROBE_TAG"]],
                         start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
        self.said = {
            "left": _left(),
            "socket": _try(lambda: _connect(os.environ["PROBE_SOCKET"])),
            "abstract": _try(lambda: _connect("\\0" + os.environ["PROBE_TAG"])),
            "parent_environ": _try(lambda: Path(f"/proc/{os.getppid()}/environ").read_bytes().decode()),
            "uid": os.getuid(),
            "capabilities": _capabilities(),
            "view": {
                "cwd": os.getcwd(),
                "env": dict(os.environ),
                "mounts": _mounts(),
                "processes": sorted(p for p in os.listdir("/proc") if p.isdigit() and p != str(os.getpid())),
            },
        }
        self.told = False

    def instance_log(self, user):
        """What this process saw, on its first instance only (the stream plays many in one)."""
        said, self.told = ({} if self.told else self.said), True
        return said
'''

LINKER = '''
import os
from pathlib import Path

from continual_arc.testing import ToyRuleLearner


class Linker(ToyRuleLearner):
    """Saves its rules, and beside them a link to the pack's folder, hoping to be copied through it."""

    def save_state(self, directory):
        super().save_state(directory)
        os.symlink(os.environ["PROBE_PACK"], Path(directory, "rules"))
'''


def _host_processes_tagged(tag: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if tag.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The probe verified on toy-smoke, a listening socket and an abstract one on the host beside it."""
    root = tmp_path_factory.mktemp("probe")
    (root / "learners").mkdir()
    (root / "learners" / "probe.py").write_text(PROBE)
    sockets = root / "sockets"
    sockets.mkdir(mode=0o777)
    host = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    host.bind(str(sockets / "host.sock"))
    os.chmod(sockets / "host.sock", 0o777)  # nothing but the sandbox stands in the way
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind("\0" + TAG)
    for listener in (host, abstract):
        listener.listen(8)
    os.environ["CARC_VERIFIER_ONLY"] = "a variable of the verifying process"
    env = {**os.environ, "PYTHONPATH": str(root / "learners"), "PROBE_SOCKET": str(sockets / "host.sock"),
           "PROBE_TAG": TAG}  # fmt: skip
    options = VerifyOptions(learner="probe:Probe", config=TOY, out=root / "v", seed=5, env=env, resamples=200,
                            pass_env=("PROBE_SOCKET", "PROBE_TAG"))  # fmt: skip
    try:
        verify(options)
    finally:
        del os.environ["CARC_VERIFIER_ONLY"]
        host.close()
        abstract.close()
    said: dict[str, list[dict[str, Any]]] = {}
    for play, folder in PROTOCOL_PLAYS.items():
        logs = [
            read_json(p).get("learner_log") or {} for p in sorted((root / "v" / folder / "i").glob("*.json"))
        ]
        said[play] = [log for log in logs if log]
    yield {"root": root, "said": said, "isolation": read_json(root / "v" / VERIFICATION)["isolation"]}
    for pid in _host_processes_tagged(TAG):  # a daemon that got out, killed so that it cannot linger
        os.kill(pid, 9)


def _processes(probed: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(play, said) for play, logs in probed["said"].items() for said in logs]


def test_every_process_ran_isolated_and_said_so(probed: dict[str, Any]) -> None:
    plays = {play for play, _ in _processes(probed)}
    assert plays == set(PROTOCOL_PLAYS)  # every play's processes spoke
    assert sum(len(logs) for logs in probed["said"].values()) >= 10
    for kind, held in probed["isolation"].items():
        assert held["pid_namespace"] and held["private_root"] and held["unprivileged"], kind


def test_nothing_one_instance_leaves_reaches_the_next(probed: dict[str, Any]) -> None:
    for play, said in _processes(probed):
        assert said["left"] == [], play  # its folder, /tmp and /dev/shm as new


def test_no_daemon_outlives_its_instance(probed: dict[str, Any]) -> None:
    assert _host_processes_tagged(TAG) == []


def test_no_socket_of_the_host_is_reachable(probed: dict[str, Any]) -> None:
    for play, said in _processes(probed):
        assert said["socket"] == "refused: No such file or directory", play  # not even there to be seen
        assert said["abstract"].startswith("refused"), play


def test_the_verifier_and_the_role_are_out_of_sight(probed: dict[str, Any]) -> None:
    allowed = {*KEPT_ENV, "PROBE_SOCKET", "PROBE_TAG", "CONTINUAL_ARC_DATA", "TMPDIR", "HOME"}
    views = {}
    for play, said in _processes(probed):
        assert said["parent_environ"].startswith("refused"), play
        assert set(said["view"]["env"]) <= allowed, play
        assert "CARC_VERIFIER_ONLY" not in said["view"]["env"]
        text = json.dumps(said["view"])
        assert not any(word in text for word in ("seen", "held-out", "reset", "stream")), play
        views[json.dumps(said["view"], sort_keys=True)] = play
    assert len(views) == 1  # a test instance, a reset and the stream see one and the same world


def test_the_learner_runs_without_root(probed: dict[str, Any]) -> None:
    for play, said in _processes(probed):
        assert said["uid"] != 0 and said["capabilities"] == 0, play


def test_a_state_linked_outside_is_refused_and_nothing_of_the_pack_is_copied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "learners").mkdir()
    (tmp_path / "learners" / "linker.py").write_text(LINKER)
    pack = tmp_path / "pack"  # a stand-in for a pack's folder: withheld as verify withholds one
    pack.mkdir()
    secret = f"the private rule {uuid.uuid4().hex}"
    (pack / "rules.json").write_text(secret)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "learners"), "PROBE_PACK": str(pack)}
    options = VerifyOptions(learner="linker:Linker", config=TOY, out=tmp_path / "v", seed=5, env=env,
                            resamples=200, withheld=[pack], pass_env=("PROBE_PACK",))  # fmt: skip
    with pytest.raises(ContinualArcError, match="symbolic link") as refused:
        verify(options)
    assert "\n" not in str(refused.value)
    for path in (tmp_path / "v").rglob("*"):
        assert not path.is_symlink(), path
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path


def test_the_command_says_why_a_state_is_refused_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "learners").mkdir()
    (tmp_path / "learners" / "linker.py").write_text(LINKER)
    (tmp_path / "pack").mkdir()
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "learners"))
    monkeypatch.setenv("PROBE_PACK", str(tmp_path / "pack"))
    argv = [
        "verify",
        "--learner",
        "linker:Linker",
        "--config",
        "toy-smoke",
        "--seed",
        "5",
        "--resamples",
        "200",
    ]
    assert main([*argv, "--out", str(tmp_path / "v"), "--pass-env", "PROBE_PACK"]) == 2
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("continual-arc: error")]
    assert len(said) == 1 and "symbolic link" in said[0] and "plain files and folders" in said[0]
