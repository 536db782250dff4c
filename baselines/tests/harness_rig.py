"""Shared pieces of the harness tests: a scripted model that drives any harness through `arc`."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from continual_arc.schedule import Schedule
from continual_arc.tracks.registry import get_source
from continual_arc.tracks.track import PHASE_SOURCES
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.harness.play import InstanceContext
from continual_arc_baselines.harness.system import Launch, SystemLearner
from continual_arc_baselines.proxy import ProxyConfig, ProxyHandle, serve_proxy

MODEL = "fake-model"
HERE = Path(__file__).parent


def answers(schedule: Schedule) -> dict[str, list[list[int]]]:
    """Each slot's test input (as JSON) -> its answer: what the scripted model 'knows'."""
    known = {}
    for slot in schedule.slots:
        source = get_source(schedule.meta["sources"][PHASE_SOURCES[slot.phase]])
        instance = source.instance(slot.task_id, slot.seed)
        known[json.dumps([list(r) for r in instance.input])] = [list(r) for r in instance.output]
    return known


def _grid(prompt: str) -> list[list[int]]:
    rows = prompt.split("test input (", 1)[1].split("\n\n")[1]
    return [[int(c) for c in line.split()] for line in rows.splitlines()]


def _text(message: Mapping[str, Any]) -> str:
    content = message.get("content")
    return content if isinstance(content, str) else ""


def scripted_model(
    known: Mapping[str, list[list[int]]],
    shell: str = "terminal",
    note: Callable[[str], dict[str, Any]] | None = None,
) -> Callable[[dict[str, Any]], Any]:
    """A model that buys a demonstration, submits a wrong grid, then the right one (or gives up),
    writes a note, and stops: the same replies for the same conversation, whatever the harness."""

    def write_note(alias: str) -> dict[str, Any]:
        return {"name": "write_file", "arguments": {"path": f"notes/{alias}.md", "content": f"met {alias}"}}

    def reply(body: dict[str, Any]) -> Any:
        messages = body["messages"]
        prompt = next(_text(m) for m in messages if m.get("role") == "user" and "arc submit" in _text(m))
        arc = re.search(r"(\S+/arc) demo", prompt).group(1)  # type: ignore[union-attr]
        alias = re.search(r"task named (\S+)\. ", prompt).group(1)  # type: ignore[union-attr]
        grid = _grid(prompt)
        done = sum(1 for m in messages if m.get("role") == "tool")
        right = known.get(json.dumps(grid))
        steps = [
            f"{arc} demo",
            f"{arc} submit '{json.dumps(grid)}'",
            f"{arc} submit '{json.dumps(right)}'" if right else f"{arc} give-up",
        ]
        if done < len(steps):
            return {"tool_calls": [{"name": shell, "arguments": {"command": steps[done]}}]}
        if done == len(steps):
            return {"tool_calls": [(note or write_note)(alias)]}
        return "Done."

    return reply


class FakeHarnessLearner(SystemLearner):
    """The SystemLearner driving ``fake_harness.py``."""

    name = "fake-harness"
    version = "test"
    volatile = ()

    def launch(self, context: InstanceContext) -> Launch:
        prompt = context.home / "prompt.txt"
        prompt.write_text(context.prompt)
        python = getattr(sys, "_base_executable", sys.executable)
        env = {
            "PATH": f"{context.bin_dir}:/usr/bin:/bin",
            "HOME": str(context.home),
            "OPENAI_BASE_URL": context.base_url,
            "MODEL": context.model,
        }
        return Launch((python, "-I", str(HERE / "fake_harness.py"), str(prompt)), env, (str(HERE),))


@contextmanager
def rig(script: Callable[[dict[str, Any]], Any]) -> Iterator[tuple[FakeModelServer, ProxyHandle]]:
    """The scripted model behind a real tracking proxy."""
    fake = FakeModelServer(script).start()
    try:
        with serve_proxy(ProxyConfig(upstream=fake.url, models=(MODEL,))) as proxy:
            yield fake, proxy
    finally:
        fake.close()
