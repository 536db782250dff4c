"""A learner process under ``verify`` looks for its play everywhere it can, and finds nothing.

The probe (the toy rule learner, curious) searches what a hostile learner can read of itself and
its world when it is built: every string the collector reaches (in every container, module and
frame, the stack it was started from included), its raw memory (every readable private mapping,
byte by byte: what an earlier request left in the memory it was forked with), its command line,
its environment (as started and as now), its mappings and mounts, and the file system (``/``,
its folder, the folders above it, the data directory). It reports every place a play's name (as
a path component, ``/seen-reset/``) or the verification's output folder turns up. On a ``verify``
whose fork server keeps the launch configuration on the learner's stack, or names log folders by
play, or binds the data directory at its own path, the probe finds them.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from continual_arc.core.files import read_json
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.stream.users import with_users
from continual_arc.submit.verify import VERIFICATION, VerifyOptions, verify
from continual_arc.tracks.registry import get_config

TOY = with_users(get_config("toy-smoke"), 1)

PROBE = r'''
import ctypes, gc, json, os, re, sys
from pathlib import Path

from continual_arc.testing import ToyRuleLearner

SYSTEM = {"proc", "sys", "usr", "lib", "lib32", "lib64", "bin", "sbin", "etc", "opt", "dev"}
CODE = {"site-packages", "__pycache__", ".venv", "venv", "lib", "lib64", "include", "share", "bin", "test",
        "tests", ".git", "node_modules"}


class Found:
    """Where the secrets turned up, a few places a kind."""

    def __init__(self):
        # Given reversed, so that neither the environment nor its copies hold what is looked for.
        plays = "|".join(re.escape(p[::-1]) for p in json.loads(os.environ["PROBE_PLAYS"]))
        # A play's name as a component of a path (a module of continual_arc's, ``stream``, aside;
        # and a bare "/stream", a suffix some code joins, names no place).
        self.play = re.compile(rf"(?<!continual_arc)(?<=[\w.-])/({plays})(?:/|$|\")")
        self.bplay = re.compile(self.play.pattern.encode())
        self.out = os.environ["PROBE_OUT"][::-1]
        self.plays = [p[::-1].encode() for p in json.loads(os.environ["PROBE_PLAYS"])]
        self.places = {}

    def text(self, where, text, out=True):
        if isinstance(text, bytes):
            hit = self.bplay.search(text) or (out and self.out.encode() in text)
        else:
            hit = self.play.search(text) or (out and self.out in text)
        if hit:
            where = where() if callable(where) else where  # said only where something was found
            shown = text[:300] if isinstance(text, str) else repr(text[:300])
            self.places.setdefault(where, []).append(shown)


def _strings(value, depth=0):
    if isinstance(value, (str, bytes)):
        yield value
    elif depth < 2 and isinstance(value, dict):
        for key, item in list(value.items()):
            yield from _strings(key, depth + 1)
            yield from _strings(item, depth + 1)
    elif depth < 2 and isinstance(value, (list, tuple, set, frozenset)):
        for item in list(value):
            yield from _strings(item, depth + 1)


def _objects(found):
    for obj in gc.get_objects():
        if obj is found.places or obj is found.__dict__:
            continue
        for text in _strings(obj):
            if text is not found.out:
                found.text(lambda: f"objects {type(obj).__name__} {repr(obj)[:200]}", text)


def _frames(found):
    frame = sys._getframe()
    while frame is not None:
        for name, value in list(frame.f_locals.items()):
            if name in ("found", "secrets", "self", "text"):
                continue
            for text in _strings(value):
                found.text(f"frame {frame.f_code.co_name}", text)
        frame = frame.f_back


def _memory(found):
    """Every readable private mapping, read in place: freed memory keeps what it held."""
    for line in Path("/proc/self/maps").read_text().splitlines():
        fields = line.split()
        start, end = (int(x, 16) for x in fields[0].split("-"))
        name = fields[5] if len(fields) > 5 else ""
        readable = fields[1].startswith("r") and fields[1][3] == "p"
        if not readable or name.startswith("[v") or end - start > 1 << 30:
            continue
        if name and not name.startswith("["):
            continue  # a file's mapping: its bytes are the file's
        try:
            data = ctypes.string_at(start, end - start)
        except Exception:
            continue
        for play in found.plays:  # bytes.find first: a regular expression over it all is slow
            at = data.find(b"/" + play)
            while at >= 0:
                if found.bplay.search(data[max(0, at - 14):at + len(play) + 2]):
                    found.places.setdefault("memory", []).append(repr(data[max(0, at - 80):at + 80]))
                    break
                at = data.find(b"/" + play, at + 1)


def _files(found):
    seen = 0
    for top, dirs, files in os.walk("/"):
        if top == "/":
            dirs[:] = [d for d in dirs if d not in SYSTEM]
        # an installation's folders and packages are code, not places: not walked
        dirs[:] = [d for d in dirs if d not in CODE and not os.path.isfile(f"{top}/{d}/__init__.py")]
        for name in dirs + files:
            seen += 1
            found.text("files", os.path.join(top, name))
        if seen > 5000 or top.count("/") > 8:
            dirs[:] = []
    here = Path.cwd()
    for folder in [here, *here.parents, Path(os.environ["CONTINUAL_ARC_DATA"])]:
        try:
            for entry in os.listdir(folder):
                found.text(f"listing {folder}", str(folder / entry))
        except OSError:
            pass


class Seeker(ToyRuleLearner):
    """The toy rule learner, which first looks for which play it serves."""

    def __init__(self):
        super().__init__()
        found = Found()
        _objects(found)
        _frames(found)
        _memory(found)
        for name in ("cmdline", "environ", "maps", "mountinfo"):
            try:
                found.text(name, Path(f"/proc/self/{name}").read_bytes(), out=name != "mountinfo")
            except OSError:
                pass
        for key, value in os.environ.items():
            if not key.startswith("PROBE_"):
                found.text("os.environ", f"{key}={value}")
        _files(found)
        self.said = {
            "places": found.places,
            "data": os.environ.get("CONTINUAL_ARC_DATA"),
            "data_entries": sorted(os.listdir(os.environ["CONTINUAL_ARC_DATA"])),
        }
        self.told = False

    def instance_log(self, user):
        """What this process found, on its first instance only."""
        said, self.told = ({} if self.told else self.said), True
        return said
'''


def _skip_unless(isolation: dict[str, Any], *layers: str) -> None:
    missing = [layer for layer in layers if not isolation.get(layer)]
    if missing:
        pytest.skip(f"this kernel did not put {', '.join(missing)} in force")


@pytest.mark.slow
def test_a_learner_process_finds_nothing_that_names_its_role(tmp_path: Path) -> None:
    (tmp_path / "learners").mkdir()
    (tmp_path / "learners" / "seeker.py").write_text(PROBE)
    out = tmp_path / "verification-output"
    env = {
        **os.environ,
        "PYTHONPATH": str(tmp_path / "learners"),
        "PROBE_OUT": str(out)[::-1],
        "PROBE_PLAYS": json.dumps(sorted({p[::-1] for p in (*PROTOCOL_PLAYS, *PROTOCOL_PLAYS.values())})),
    }
    options = VerifyOptions(learner="seeker:Seeker", config=TOY, out=out, seed=5, env=env, resamples=200,
                            pass_env=("PROBE_OUT", "PROBE_PLAYS"))  # fmt: skip
    verify(options)
    isolation = read_json(out / VERIFICATION)["isolation"]
    for kind in isolation.values():
        _skip_unless(kind, "private_root", "pid_namespace")
    said: dict[str, list[dict[str, Any]]] = {}
    for play, folder in PROTOCOL_PLAYS.items():
        logs = [read_json(p).get("learner_log") or {} for p in sorted((out / folder / "i").glob("*.json"))]
        said[play] = [log for log in logs if log]
    assert set(said) == set(PROTOCOL_PLAYS) and all(said.values())  # every play's processes spoke
    for play, logs in said.items():
        for log in logs:
            assert log["places"] == {}, (play, log["places"])
            assert log["data"] == "/data" and log["data_entries"] == [], play
    assert all(re.fullmatch("[0-9a-f]{16}", p.name) for p in (out / "work" / "logs").iterdir() if p.is_dir())
