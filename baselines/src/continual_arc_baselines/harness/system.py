"""SystemLearner: any agent harness, driven as a separate sandboxed process, as a learner.

The learner's state is one folder, the harness's **workspace** (its notes, skills, memories). Each
instance runs the harness once, in a copy of the workspace, with a prompt that states the task
and the ``arc`` command (``arc demo``, ``arc submit GRID``, ``arc give-up``, ``arc show``), which
the harness runs with its own shell tool: every call is the environment's action (``act`` returns
it) and its verdict is the command's output (``observe`` answers it). Every model call goes to the
tracking proxy at a base URL marked with the instance, so the proxy counts the instance's calls,
tokens and cost whatever the harness does. At the round's end each harness is given a moment to
finish, stopped, and what it changed in its copy is folded into the workspace in user order (a
later user's version of a file wins): every instance of a round meets the same workspace.

An adapter subclasses `SystemLearner` and says how to start its harness (`launch`),
which of the harness's files are not state (`SystemLearner.volatile`: logs, locks, caches,
the per-launch configuration), and, if it has one, its pristine workspace (`pristine`).

A resumed run (``--resume``) continues its counters and its spend cap from its records
([`SystemLearner.resume_from`][continual_arc_baselines.harness.system.SystemLearner.resume_from]), as the
model learners do.

**A teacher that plays first** (the reference's QT, QTE and QETE). With ``teacher`` (a model the
proxy serves) and ``teacher_plays`` (the variant the teacher plays under: ``as_shipped``, or
``keep_one_program`` for the expert guidance), the runner hands the learner an uncharged copy of
each instance before the student's play
([TeacherPlaysFirst][continual_arc.play.learner.TeacherPlaysFirst]); the teacher plays it in the
same harness from the learner's workspace, through the proxy under its own run name
([Teacher][continual_arc_baselines.teacher.Teacher]), and the student then plays the instance from
the workspace the teacher left, so that what the teacher wrote is folded in with what the student
wrote. The teacher's tokens are training compute (``teacher_resources``); its demonstrations and
verdicts are charged to nobody, so such a run is an experiment, never a verified learner. A
``teacher`` without ``teacher_plays`` is named and counted, and plays nothing.

The learner's folders live in one folder of the temporary directory, removed by ``close()`` or at
the interpreter's exit; a learner killed outright leaves it, and the next learner to start sweeps
it (and kills any harness it left running): see `folders`.
"""

from __future__ import annotations

import secrets
import shutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar
from urllib.parse import SplitResult, urlsplit

from continual_arc.env import Action, Feedback, LearnerObservation
from continual_arc.learner import UnchargedCopy
from continual_arc.sandbox import ProxyBridge, start_sandboxed

from ..base import GridBase
from ..json_types import JSONObject, JSONValue
from ..library.carry import last_resources
from ..library.model_session import DEFAULT_BASE_URL
from ..proxy.app import marked_base_url
from ..teacher import Teacher
from . import channel
from . import workspace as ws
from .channel import ToolChannel, write_arc_command
from .counts import ProxyCounts
from .folders import LearnerFolder
from .play import InstanceContext, InstancePlay, verdict_text
from .texts import KEEP_ONE_PROGRAM, STORE_REQUEST, task_prompt

__all__ = ["VARIANTS", "Launch", "SystemLearner"]

_TAUGHT_VARIANTS = ("as_shipped", "keep_one_program")
"""The variants a teacher may play under: as shipped (QT), or given the expert guidance (QTE, QETE)."""

VARIANTS = ("as_shipped", "memory_wiped", "asked_to_store", "keep_one_program")
"""``as_shipped``: the harness with every learning mechanism it ships, its workspace kept;
``memory_wiped``: the same, its workspace back to pristine before every instance (nothing folded);
``asked_to_store``: as shipped, and after every verdict asked to save what could help next time;
``keep_one_program``: as shipped, asked to hold one checked program per task and try it before all else."""


@dataclass(frozen=True)
class Launch:
    """How to start a harness on one instance.

    Attributes:
        argv: the program and its arguments (``argv[0]`` an absolute path).
        env: its whole environment (``PATH`` with the instance's ``bin_dir`` in it).
        read_dirs: folders it must read and execute from, besides the system's and its instance's.
        lock_dirs: existing folders outside the instance it must also write to, for lock files only
            (a harness that coordinates through a fixed machine-wide folder); never state.
    """

    argv: tuple[str, ...]
    env: Mapping[str, str]
    read_dirs: tuple[str, ...] = ()
    lock_dirs: tuple[str, ...] = ()


class SystemLearner(GridBase):
    """A learner that drives an external agent harness (see the module docstring).

    Args:
        model: the model id, exactly as the tracking proxy serves it.
        variant: one of `VARIANTS`.
        base_url: the tracking proxy's OpenAI base (its default port on 127.0.0.1).
        run_id: the run's name at the proxy; when not given, the learner's name and the run
            directory's ``run-id`` (`join_run`), drawn for a learner played outside a run.
        effort: the reasoning effort handed to the harness, if it takes one.
        instance_seconds: wall-clock seconds one instance's harness may take to end the instance.
        wrap_up_seconds: seconds a harness may go on (writing notes) once its instance is over.
        teacher: the teacher model, as the proxy serves it (``None``: none).
        teacher_budget_usd: USD the teacher may spend over the run (``None``: no cap of its own).
        teacher_effort: the teacher's reasoning effort.
        teacher_plays: the variant the teacher plays each instance under before the student
            (``as_shipped`` or ``keep_one_program``); ``None``: the teacher plays nothing.

    Raises:
        ValueError: an unknown variant, limits that are not positive, or a teacher that is not a
            published model's name, or ``teacher_plays`` without a teacher.
    """

    teacher_play: Callable[[UnchargedCopy[LearnerObservation, Action, Feedback]], None]
    """Present only with ``teacher_plays``: the runner hands it each instance's uncharged copy."""
    teacher_resources: Callable[[], Mapping[str, float]]
    """Present only with a teacher: its counters, kept in every record apart from the student's."""

    name: ClassVar[str] = "system"
    version: ClassVar[str] = ""
    volatile: ClassVar[tuple[str, ...]] = ()
    concurrent_users = False

    def __init__(
        self,
        model: str,
        variant: str = "as_shipped",
        base_url: str = DEFAULT_BASE_URL,
        run_id: str | None = None,
        effort: str | None = None,
        instance_seconds: float = 1800.0,
        wrap_up_seconds: float = 300.0,
        teacher: str | None = None,
        teacher_budget_usd: float | None = None,
        teacher_effort: str | None = None,
        teacher_plays: str | None = None,
    ) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
        if teacher_plays is not None and (teacher is None or teacher_plays not in _TAUGHT_VARIANTS):
            raise ValueError(
                f"teacher_plays must be one of {', '.join(_TAUGHT_VARIANTS)}, with a teacher; "
                f"got {teacher_plays!r} with teacher {teacher!r}"
            )
        if instance_seconds <= 0 or wrap_up_seconds < 0:
            raise ValueError("instance_seconds must be positive and wrap_up_seconds not negative")
        super().__init__()
        self.model, self.variant, self.base_url, self.effort = model, variant, base_url, effort
        self.instance_seconds, self.wrap_up_seconds = instance_seconds, wrap_up_seconds
        self._named = run_id is not None
        self.counts = ProxyCounts(base_url, run_id or f"{self.name}-{_token()}")
        named: dict[str, object] = {
            "teacher": teacher,
            "teacher_budget_usd": teacher_budget_usd,
            "teacher_effort": teacher_effort,
        }
        self.teacher = Teacher.from_kwargs(named, student_run_id=self.counts.run_id, base_url=base_url)
        self.teacher_plays = teacher_plays
        if self.teacher is not None:  # instance members: a learner without a teacher has neither
            self.teacher_resources = self.teacher.resources
            if teacher_plays is not None:
                self.teacher_play = self._teacher_play
        self._taught: dict[int, Path] = {}  # the workspace each instance's teacher left, by step
        self._teacher_folders: list[Path] = []
        self._teacher_logs: dict[int, JSONObject] = {}
        self._folder = LearnerFolder()  # in the temporary directory: Unix socket paths are short
        self._root = self._folder.path
        self._pristine = self._root / "pristine"
        self._pristine.mkdir()
        self.pristine(self._pristine)
        self.state = self._root / "workspace"
        ws.copy_state(self._pristine, self.state, self.volatile)
        self.history: list[JSONValue] = []  # what each round changed
        self._bridge: ProxyBridge | None = None
        self._plays: dict[int, InstancePlay] = {}
        self._round_plays: list[InstancePlay] = []
        self._resources: dict[int, dict[str, float]] = {}

    # -- what an adapter provides --------------------------------------------------------------

    def pristine(self, workspace: Path) -> None:
        """Write the harness's pristine workspace into the empty folder ``workspace`` (none by default)."""

    def launch(self, context: InstanceContext) -> Launch:
        """How to start the harness on the instance ``context`` describes."""
        raise NotImplementedError(f"{type(self).__name__} must say how to launch its harness")

    def instructions(self, variant: str | None = None) -> str:
        """What the harness is told besides the task: the variant's instruction (the learner's by default)."""
        return KEEP_ONE_PROGRAM if (variant or self.variant) == "keep_one_program" else ""

    # -- the protocol --------------------------------------------------------------------------

    def reset(self) -> None:
        """Bring the workspace back to the harness's pristine one, and forget its versions."""
        ws.copy_state(self._pristine, self.state, self.volatile)
        self.history = []

    def begin_round(self) -> None:
        """Start a round: the last round's logs and counts are stored by now."""
        super().begin_round()
        self._resources.clear()
        self._teacher_logs.clear()

    def act(self, obs: LearnerObservation) -> Action:
        """The harness's next ``arc`` call on this instance (starting the harness on its first)."""
        play = self._plays.get(obs.step) or self._start(obs)
        return play.next_action()

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        """Answer the harness's call with the verdict (and, if asked to store, the request to save)."""
        play = self._plays.get(obs.step)
        if play is None:
            return
        text = verdict_text(feedback, obs)
        if self.variant == "asked_to_store":
            text += "\n\n" + STORE_REQUEST
        play.tell(text, feedback.done)
        if feedback.done:
            del self._plays[obs.step]

    def end_round(self) -> None:
        """Stop the round's harnesses, record what each changed, and fold it into the workspace."""
        plays = sorted(self._round_plays + list(self._plays.values()), key=lambda p: p.user)
        plays = list({id(p): p for p in plays}.values())
        self._plays.clear()
        self._round_plays = []
        found = []
        for play in plays:
            process = play.stop(self.wrap_up_seconds)
            changes = ws.changes_between(play.at_start, self.state, play.context.workspace, self.volatile)
            found.append((play, changes))
            self._resources[play.user] = self.counts.settle(play.context.key)
            self._logs[play.user] = self._log(play, changes, process)
        self.counts.check_cap()  # a round a refusal for the cap cut short is not committed
        if self.variant != "memory_wiped":
            self._fold(found)
        for play, _ in found:
            shutil.rmtree(play.context.folder, ignore_errors=True)
        for folder in self._teacher_folders:
            shutil.rmtree(folder, ignore_errors=True)
        self._teacher_folders.clear()
        self._taught.clear()
        if self.teacher is not None:
            self.teacher.end_round()  # stops the run once the teacher has spent its own budget

    def resources(self) -> Mapping[str, float]:
        """Calls, tokens and cost of every instance so far (the proxy's), and the workspace's size."""
        files = ws.snapshot(self.state, self.volatile)
        size = sum((self.state / path).stat().st_size for path in files)
        return {**self.counts.totals(), "workspace_files": float(len(files)), "workspace_bytes": float(size)}

    def instance_resources(self, user: int) -> dict[str, float]:
        """The proxy's counts for ``user``'s instance of the round just ended."""
        return dict(self._resources.get(user, {}))

    def memory(self) -> JSONObject:
        """What the harness keeps now, file by file, and what each round changed."""
        files: list[JSONValue] = []
        for path, digest in sorted(ws.snapshot(self.state, self.volatile).items()):
            text = ws.readable_text(self.state / path)
            files.append({"path": path, "sha256": digest, "text": text})
        return {**self._describe(), "files": files, "versions": self.history}

    def save_state(self, directory: str | Path) -> None:
        """Copy the workspace and its versions into ``directory``."""
        ws.copy_state(self.state, Path(directory) / "workspace", self.volatile)
        ws.write_json(Path(directory) / "versions.json", self.history)

    def load_state(self, directory: str | Path) -> None:
        """Take the workspace and its versions from ``directory``."""
        ws.copy_state(Path(directory) / "workspace", self.state, self.volatile)
        versions = ws.read_json(Path(directory) / "versions.json")
        if not isinstance(versions, list):
            raise ValueError(f"{Path(directory) / 'versions.json'} holds no list of the workspace's versions")
        self.history = versions

    def join_run(self, run_id: str) -> None:
        """Name the run at the proxy after the run directory's id, unless ``run_id`` was given.

        A resumed run is then the same run at the proxy: the calls of the round it was killed in
        count against its spend cap.
        """
        if not self._named:
            self.counts.run_id = f"{self.name}-{run_id}"
        if self.teacher is not None:  # the teacher's run name follows the student's
            self.teacher.join_run(self.counts.run_id)

    def resume_from(self, records: Sequence[Mapping[str, JSONValue]]) -> None:
        """Continue a resumed run: its counters from the last committed record, its spend told to the proxy.

        Raises:
            ProxyCountsError: the proxy could not be told the run's spend so far (the run stops
                rather than start its spend cap again).
        """
        if records:
            self.counts.resume(last_resources(records))
        if self.teacher is not None:
            self.teacher.resume(records)

    # -- inside ----------------------------------------------------------------------------------

    def _describe(self) -> JSONObject:
        return {"harness": self.name, "version": self.version, "variant": self.variant}

    def _proxy_bridge(self) -> ProxyBridge:
        if self._bridge is None:
            where = urlsplit(self.base_url)
            self._bridge = ProxyBridge(self._root / "proxy.sock", where.hostname or "127.0.0.1", _port(where))
        return self._bridge

    def _start(self, obs: LearnerObservation) -> InstancePlay:
        self.counts.check_cap()  # the run stops at the cap rather than start a harness to be refused
        key = f"{obs.task_id}/{obs.step}/{obs.user}"
        folder = self._root / f"i{obs.step}-u{obs.user}"
        source = self._taught.pop(obs.step, self.state)  # what the teacher left, if it played first
        base_url = marked_base_url(self.base_url, self.counts.run_id, key)
        who = (key, base_url, self.model, self.effort)
        play = self._launch(obs, folder, source, self.instructions(), who)
        self.counts.begin(key)
        self._plays[obs.step] = play
        self._round_plays.append(play)
        return play

    def _launch(
        self,
        obs: LearnerObservation,
        folder: Path,
        source: Path,
        instructions: str,
        who: tuple[str, str, str, str | None],
    ) -> InstancePlay:
        """Start the harness on ``obs`` in ``folder``, its workspace a copy of ``source``.

        ``who``: the instance's key at the proxy, the marked base URL, the model and its effort.
        """
        key, base_url, model, effort = who
        shutil.rmtree(folder, ignore_errors=True)
        context = InstanceContext(
            key=key,
            folder=folder,
            workspace=folder / "workspace",
            home=folder / "home",
            tmp=folder / "tmp",
            bin_dir=folder / "bin",
            prompt=task_prompt(obs, instructions, str(folder / "bin" / "arc")),
            base_url=base_url,
            model=model,
            effort=effort,
        )
        ws.copy_state(source, context.workspace, self.volatile)
        for place in (context.home, context.tmp):
            place.mkdir(parents=True)
        channel = ToolChannel(folder / "arc.sock", lambda: context.prompt)
        write_arc_command(context.bin_dir, channel.path)
        launch = self.launch(context)
        bridge = self._proxy_bridge()
        process = start_sandboxed(
            launch.argv,
            env=launch.env,
            cwd=context.workspace,
            read_dirs=[*launch.read_dirs, str(context.bin_dir), *_tool_dirs()],
            write_dirs=[context.workspace, context.home, context.tmp, *map(Path, launch.lock_dirs)],
            port=bridge.port,
            bridge=bridge.path,
            log_dir=folder / "log",
        )
        self._folder.harness_started(process.process.pid)
        at_start = ws.snapshot(self.state, self.volatile)
        deadline = time.monotonic() + self.instance_seconds
        return InstancePlay(context, obs.user, obs.round, channel, process, at_start, deadline)

    def _teacher_play(self, copy: UnchargedCopy[LearnerObservation, Action, Feedback]) -> None:
        """The teacher plays ``copy`` in the same harness, from the workspace; the student, from what it left.

        Its calls are counted under the teacher's run at the proxy; its demonstrations and verdicts
        are the copy's, charged to nobody.
        """
        teacher = self.teacher
        if teacher is None or self.teacher_plays is None:
            return
        obs: LearnerObservation = copy.view()
        # A key of its own: a harness that names its session after the key (OpenClaw) must not hand
        # the teacher's conversation on to the student, only what it left in the workspace.
        key = f"{obs.task_id}/{obs.step}/{obs.user}/teacher"
        folder = self._root / f"t{obs.step}-u{obs.user}"
        who = (key, teacher.base_url_for(key), teacher.model, teacher.settings.effort)
        teacher.begin(key)
        play = self._launch(obs, folder, self.state, self.instructions(self.teacher_plays), who)
        try:
            while not copy.done:
                action = play.next_action()
                feedback = copy.step(action)
                play.tell(verdict_text(feedback, copy.view()), feedback.done)
        finally:
            process = play.stop(self.wrap_up_seconds)
            counts = teacher.settle(key)
            teacher.played_uncharged()
        written = ws.changes_between(play.at_start, self.state, play.context.workspace, self.volatile)
        self._taught[obs.step] = play.context.workspace
        self._teacher_folders.append(folder)
        self._teacher_logs[obs.user] = {
            "model": teacher.model,
            "variant": self.teacher_plays,
            "prompt": play.context.prompt,
            "tool_calls": list(play.calls),
            "workspace": {"written": [c.to_json() for c in written]},
            "process": process,
            "counted_by": "proxy, under the teacher's run",
            "resources": dict(counts),
        }

    def _fold(self, found: list[tuple[InstancePlay, list[ws.FileChange]]]) -> None:
        changed: list[JSONValue] = []
        for play, changes in found:  # in user order: a later user's version of a file wins
            ws.apply_changes(changes, play.context.workspace, self.state)
            changed += [{"user": play.user, **c.to_json()} for c in changes]
        if changed:
            self.history.append({"round": found[0][0].round, "changes": changed})

    def _log(self, play: InstancePlay, changes: list[ws.FileChange], process: JSONObject) -> JSONObject:
        log: JSONObject = {
            **self._describe(),
            "prompt": play.context.prompt,
            "tool_calls": list(play.calls),
            "workspace": {
                "at_start": ws.listing(play.at_start),
                "written": [c.to_json() for c in changes],
                "kept": self.variant != "memory_wiped",
            },
            "process": process,
            "counted_by": "proxy",
            "resources": dict(self._resources.get(play.user, {})),
        }
        teacher = self._teacher_logs.get(play.user)
        if teacher is not None:  # the teacher's play of the instance's copy, beside the student's
            log["teacher"] = teacher
        return log

    def close(self) -> None:
        """Stop any harness still running, the bridge, and remove the learner's folders."""
        for play in list(self._plays.values()):
            play.stop(0)
        if self._bridge is not None:
            self._bridge.close()
        self.counts.close()
        if self.teacher is not None:
            self.teacher.close()
        self._folder.remove()


def _port(where: SplitResult) -> int:
    return int(where.port or (443 if where.scheme == "https" else 80))


def _tool_dirs() -> list[str]:
    """What the ``arc`` command needs to read: its interpreter's installation and its own folder."""
    return [sys.base_prefix, str(Path(channel.__file__).parent)]


def _token() -> str:
    return secrets.token_hex(4)
