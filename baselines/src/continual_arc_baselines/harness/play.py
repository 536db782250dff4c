"""One instance played by a harness: its folder, its process, its tool calls and what they were told.

`InstancePlay` is the learner's record of one harness run: it turns each ``arc`` call into
the environment's action, words each verdict for the harness, and keeps the transcript of tool
calls for the trajectory.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from continual_arc.env import (
    Action,
    DemosFeedback,
    Feedback,
    GiveUp,
    LearnerObservation,
    RequestDemos,
    Submit,
    SubmitFeedback,
)
from continual_arc.sandbox import SandboxedProcess

from ..json_types import JSONObject
from ..prompts import grid_text
from .channel import ToolChannel
from .workspace import Snapshot

__all__ = ["InstanceContext", "InstancePlay", "parse_submitted", "verdict_text"]


@dataclass(frozen=True)
class InstanceContext:
    """Where and how one instance's harness runs (what an adapter's ``launch`` is given).

    Attributes:
        key: the instance's key at the proxy, ``<task alias>/<step>/<user>``.
        folder: the instance's own folder; everything below is inside it.
        workspace: the instance's copy of the learner's workspace (the harness's state folder).
        home: a home folder for the harness's process (caches, settings it writes but does not keep).
        tmp: its temporary folder.
        bin_dir: holds the ``arc`` command; put it on the harness's ``PATH``.
        prompt: the task, in the harness's terms (the instance, its rules, the ``arc`` command).
        base_url: the OpenAI base URL to give the harness: the proxy, marked with this instance.
        model: the model id, as the proxy serves it.
        effort: the reasoning effort, or ``None``.
    """

    key: str
    folder: Path
    workspace: Path
    home: Path
    tmp: Path
    bin_dir: Path
    prompt: str
    base_url: str
    model: str
    effort: str | None


def parse_submitted(text: str | None) -> tuple[tuple[tuple[int, ...], ...] | None, str | None]:
    """A submitted grid read from the JSON the harness wrote: ``(grid, None)`` or ``(None, why)``.

    Only the shape is checked here (rows of whole numbers); whether it is a valid ARC grid is the
    environment's to judge, and an invalid one costs an attempt like any wrong answer.
    """
    try:
        value = json.loads(text or "")
    except ValueError:
        return None, "the grid is not JSON: write it as rows, e.g. [[0,1],[2,3]]"
    if not isinstance(value, list) or not all(isinstance(row, list) for row in value):
        return None, "the grid must be a JSON list of rows, e.g. [[0,1],[2,3]]"
    if not all(isinstance(c, int) and not isinstance(c, bool) for row in value for c in row):
        return None, "every cell must be a whole number from 0 to 9"
    return tuple(tuple(row) for row in value), None


def verdict_text(feedback: Feedback, obs: LearnerObservation) -> str:
    """What the harness is told after an action, in words."""
    if isinstance(feedback, DemosFeedback):
        if feedback.refused or feedback.pair is None:
            return f"No more demonstrations: this instance offers {obs.demo_cap}. Nothing was charged."
        given, want = feedback.pair
        return (
            f"Demonstration {feedback.demos_used} (cost 1; spent so far {feedback.spent}):\n"
            f"input ({len(given)}x{len(given[0])}):\n{grid_text(given)}\n"
            f"output ({len(want)}x{len(want[0])}):\n{grid_text(want)}"
        )
    if isinstance(feedback, SubmitFeedback):
        if feedback.correct:
            return "Correct. The instance is solved."
        why = f" ({feedback.invalid})" if feedback.invalid else ""
        left = obs.attempt_cap - feedback.attempts_used
        if feedback.done:
            return f"Wrong{why}. No attempts are left: the instance ended unsolved."
        return f"Wrong{why} (cost 1; spent so far {feedback.spent}). {left} attempts left."
    return "You gave up: the instance ended unsolved."


@dataclass
class InstancePlay:
    """One instance's harness run, from its start to the round's end."""

    context: InstanceContext
    user: int
    round: int
    channel: ToolChannel
    process: SandboxedProcess
    at_start: Snapshot
    deadline: float
    calls: list[JSONObject] = field(default_factory=list)
    done: bool = False
    ended_by: str | None = None
    started: float = field(default_factory=time.monotonic)

    def next_action(self) -> Action:
        """Wait for the harness's next ``arc`` call and make it the environment's action.

        A call that names no action or a grid that cannot be read is answered here and waited past;
        a harness that exits, or the instance's time limit, gives up.
        """
        while True:
            request = self.channel.next_request(self.process.alive, self.deadline)
            if request is None:
                timed_out = self.process.alive()
                self.ended_by = "time limit" if timed_out else "the harness ended without finishing"
                self.calls.append({"tool": None, "ended_by": self.ended_by})
                return GiveUp()
            entry: JSONObject = {"tool": request.tool}
            self.calls.append(entry)
            if request.tool == "demo":
                return RequestDemos()
            if request.tool == "give-up":
                return GiveUp()
            if request.tool != "submit":
                self._answer(
                    entry, f"unknown command {request.tool!r}: use arc demo, submit, give-up or show"
                )
                continue
            grid, why = parse_submitted(request.grid)
            entry["grid"] = request.grid
            if grid is None:
                self._answer(entry, f"not submitted: {why}")
                continue
            return Submit(grid)

    def _answer(self, entry: JSONObject, text: str) -> None:
        """Answer a call here, the harness waiting on; the call's entry notes the answer."""
        entry["answer"] = text
        self.channel.answer(text)

    def tell(self, text: str, done: bool) -> None:
        """Answer the pending call with ``text``; once the instance is over, answer all later calls too."""
        if self.calls and "answer" not in self.calls[-1]:
            self.calls[-1]["answer"] = text
        if done:
            self.done = True
            self.channel.finish(text)
        else:
            self.channel.answer(text)

    def stop(self, grace: float) -> JSONObject:
        """Let the harness finish within ``grace`` seconds, stop it, close the channel; how it ended."""
        self.channel.finish("The instance is over.")
        code = self.process.stop(grace)
        self.channel.close()
        logs = self.context.folder / "log"
        return {
            "exit_code": code,
            "ended_by": self.ended_by,
            "seconds": round(time.monotonic() - self.started, 3),
            "isolation": self.process.isolation(),
            "stdout_tail": _tail(logs / "stdout.txt"),
            "stderr_tail": _tail(logs / "stderr.txt"),
        }


def _tail(path: Path, limit: int = 4000) -> str:
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    return data[-limit:].decode("utf-8", errors="replace")
