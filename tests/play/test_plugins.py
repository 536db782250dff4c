from __future__ import annotations

import dataclasses
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from continual_arc.addons import (
    ADDON_SEED_BASE,
    AuxiliaryEpisode,
    BaseAddon,
    BasePlugin,
    Episode,
    HintPlugin,
    LegacyAddonPlugin,
    Plugin,
    PluginError,
    PluginManager,
    PluginResponse,
    PluginSpecError,
    PracticeAfterFailure,
    RunInfo,
    addon_seed,
    load_plugin,
    with_extra,
)
from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.env import (
    Action,
    Feedback,
    GiveUp,
    InstanceResult,
    LearnerObservation,
    RequestDemos,
    SubmitFeedback,
)
from continual_arc.learner import BaseLearner
from continual_arc.play.instance_record import TIMING_FIELDS
from continual_arc.play.options import RunOptions
from continual_arc.play.rundir import read_records
from continual_arc.runner import RunDirError, run
from continual_arc.stream import seeds as seed_ranges
from continual_arc.stream.schedule import build_schedule
from continual_arc.stream.users import with_users
from continual_arc.testing import DemoBuyerLearner, GiveUpLearner, RandomLearner, ToyRuleLearner
from continual_arc.tracks.registry import get_config

TOY = get_config("toy-smoke")
PRACTICE = "continual_arc.addons:PracticeAfterFailure"


def strip(records: list[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    drop = {*TIMING_FIELDS, *keys}
    return [{k: v for k, v in r.items() if k not in drop} for r in records]


def twin(of: Path, path: Path) -> Path:
    """An empty run directory holding the salt of ``of``, so that both runs use the same names."""
    path.mkdir(parents=True)
    shutil.copy(of / "alias-salt", path)
    return path


def primaries(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["episode_type"] == "primary"]


def addons(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["episode_type"] == "addon"]


class Stubborn(ToyRuleLearner):
    """The toy learner, but it gives up at once on every slot whose step is a multiple of 3."""

    def act(self, obs: LearnerObservation) -> Action:
        if obs.step >= 0 and obs.step % 3 == 0:
            return GiveUp()
        return super().act(obs)


# -- hooks ---------------------------------------------------------------------------------------


class LoggingLearner(BaseLearner):
    stateless = True

    def __init__(self, log: list[tuple[Any, ...]]) -> None:
        self.log = log

    def begin_round(self) -> None:
        self.log.append(("begin",))

    def end_round(self) -> None:
        self.log.append(("end",))

    def act(self, obs: LearnerObservation) -> Action:
        self.log.append(("act", obs.step))
        return RequestDemos() if obs.demos_used < 2 else GiveUp()

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        self.log.append(("observe", obs.step))


class LoggingPlugin(BasePlugin):
    def __init__(self, log: list[tuple[Any, ...]]) -> None:
        self.log = log

    def on_run_start(self, run: RunInfo) -> None:
        self.log.append(("run_start", run.start_round))

    def on_episode_start(self, episode: Episode) -> None:
        self.log.append(("episode_start", episode.step))

    def on_observation(self, episode: Episode, obs: LearnerObservation) -> None:
        self.log.append(("observation", episode.step))

    def on_action(self, episode: Episode, obs: LearnerObservation, action: Action) -> None:
        self.log.append(("action", episode.step))

    def on_feedback(
        self, episode: Episode, obs: LearnerObservation, action: Action, feedback: Feedback
    ) -> None:
        self.log.append(("feedback", episode.step))

    def on_episode_end(self, episode: Episode, result: InstanceResult) -> None:
        self.log.append(("episode_end", episode.step, result.end))

    def on_run_end(self, run: RunInfo) -> None:
        self.log.append(("run_end", len(run.records)))


def test_hooks_run_in_order_around_the_learner(tmp_path: Path) -> None:
    log: list[tuple[Any, ...]] = []
    run(
        LoggingLearner(log),
        build_schedule(TOY, 0, rounds=2),
        tmp_path / "run",
        RunOptions(plugins=[LoggingPlugin(log)]),
    )
    expected: list[tuple[Any, ...]] = [("run_start", 0)]
    for step in (0, 1):
        expected += [("begin",), ("episode_start", step)]
        for _ in range(3):  # two demonstrations, then a give-up
            expected += [("observation", step), ("act", step), ("action", step)]
            expected += [("feedback", step), ("observe", step)]
        expected += [("episode_end", step, "gave up"), ("end",)]
    expected.append(("run_end", 2))
    assert log == expected


class AddA(BasePlugin):
    """Shows the learner extra["a"], and makes it buy a demonstration before it may give up."""

    def on_observation(self, episode: Episode, obs: LearnerObservation) -> PluginResponse:
        return PluginResponse(value=with_extra(obs, a=1))

    def on_action(self, episode: Episode, obs: LearnerObservation, action: Action) -> PluginResponse | None:
        if isinstance(action, GiveUp) and obs.demos_used == 0:
            return PluginResponse(value=RequestDemos())
        return None


class AddB(BasePlugin):
    """Builds on what AddA returned: extra["b"] = extra["a"] + 1; notes the action it was handed."""

    def __init__(self) -> None:
        self.actions: list[str] = []

    def on_observation(self, episode: Episode, obs: LearnerObservation) -> PluginResponse:
        return PluginResponse(value=with_extra(obs, b=obs.extra["a"] + 1))

    def on_action(self, episode: Episode, obs: LearnerObservation, action: Action) -> None:
        self.actions.append(type(action).__name__)


class Watcher(GiveUpLearner):
    def __init__(self) -> None:
        self.extras: list[dict[str, Any]] = []
        self.observed: list[str] = []

    def act(self, obs: LearnerObservation) -> Action:
        self.extras.append(dict(obs.extra))
        return GiveUp()

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        self.observed.append(type(action).__name__)


def test_two_plugins_compose_in_order(tmp_path: Path) -> None:
    learner, second = Watcher(), AddB()
    schedule = build_schedule(TOY, 0, rounds=3)
    records = run(learner, schedule, tmp_path / "run", RunOptions(plugins=[AddA(), second])).records
    assert learner.extras and all(extra == {"a": 1, "b": 2} for extra in learner.extras)
    assert second.actions == ["RequestDemos", "GiveUp"] * 3  # the second saw the first's transform
    assert learner.observed == ["RequestDemos", "GiveUp"] * 3  # the learner observes what was applied
    assert [r["demos_bought"] for r in records] == [1, 1, 1]
    trajectory = read_json(tmp_path / "run" / "i" / "0.json")
    first = trajectory["events"][0]
    assert first["learner_action"] == {"action": "give_up"} and first["action"] == {"action": "request_demos"}
    assert first["observation"]["extra"] == {"a": 1, "b": 2}
    assert records[0]["plugins"]["test_plugins:AddA"]["transforms"] == 3  # two observations, one action


# -- auxiliary episodes ----------------------------------------------------------------------------


def test_auxiliary_episodes_are_recorded_apart_and_leave_the_measures_alone(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0)
    plain = run(Stubborn(keep=False), schedule, tmp_path / "plain")
    out = twin(tmp_path / "plain", tmp_path / "practice")
    result = run(Stubborn(keep=False), schedule, out, RunOptions(plugins=[PracticeAfterFailure()]))
    failed = [r["step"] for r in plain.records if not r["solved"]]
    assert failed == [0, 3, 6, 9, 12]
    extra = addons(result.records)
    assert [r["step"] for r in extra] == [-1, -2, -3, -4, -5]
    assert [r["addon_index"] for r in extra] == [1, 2, 3, 4, 5]
    by_step = {r["step"]: r for r in plain.records}
    for record, step in zip(extra, failed, strict=True):
        slot = by_step[step]
        assert record["plugin"] == PRACTICE and record["reason"] == "practice after failure"
        assert (record["task_id"], record["round"], record["phase"]) == (
            slot["task_id"],
            slot["round"],
            slot["phase"],
        )
        assert record["seed"] // 10**15 == ADDON_SEED_BASE and record["seed"] != slot["seed"]
        assert record["exposure_index"] is None and record["gap"] is None and record["user_gap"] is None
        assert record["solved"]  # the practice is not a multiple of 3: the learner plays it
        trajectory = read_json(out / "i" / f"addon-{record['addon_index']}.json")
        assert trajectory["episode_type"] == "addon" and trajectory["seed"] == record["seed"]
        assert trajectory["events"][0]["observation"]["step"] == record["step"]
    # played right after the round's slot, and committed with it
    assert [r["step"] for r in result.records[:4]] == [0, -1, 1, 2]
    assert {r["round_addons"] for r in result.records if r["round"] == 0} == {1}
    assert strip(primaries(result.records), "plugins", "round_addons") == strip(plain.records)
    for key in ("phases", "per_user", "budget_used", "share_solved", "instances", "complete", "diagnostics"):
        assert result.summary[key] == plain.summary[key]
    assert plain.summary["addons"] is None
    assert result.summary["addons"]["episodes"] == 5 and result.summary["addons"]["by_plugin"] == {
        PRACTICE: 5
    }
    assert read_json(out / "plugins.json")["totals"][PRACTICE] == {
        "episodes": 5,
        "enqueued": 5,
        "metrics": {"practice": 5.0},
    }


def test_what_a_practice_teaches_is_folded_in_at_the_end_of_its_round(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0, rounds=3)  # steps 0 and 2 are the same task
    plain = run(Stubborn(), schedule, tmp_path / "plain").records
    practised = run(
        Stubborn(), schedule, tmp_path / "practised", RunOptions(plugins=[PracticeAfterFailure()])
    ).records
    assert plain[2]["task_id"] == plain[0]["task_id"] and plain[2]["demos_bought"] > 0
    assert practised[1]["step"] == -1 and practised[1]["solved"]
    step2 = next(r for r in practised if r["step"] == 2)
    assert step2["charge"] == 0 and step2["demos_bought"] == 0  # the rule the practice found was kept


def test_addon_seeds_lie_in_a_range_no_schedule_uses() -> None:
    assert ADDON_SEED_BASE not in seed_ranges._PHASE_BASE.values()
    assert seed_ranges.SEED_SPAN == 10**15
    seeds = {addon_seed("toy-smoke", 0, "toy-d1-c2", k) for k in range(50)}
    assert len(seeds) == 50 and all(s // 10**15 == ADDON_SEED_BASE for s in seeds)
    assert addon_seed("toy-smoke", 1, "toy-d1-c2", 0) != addon_seed("toy-smoke", 0, "toy-d1-c2", 0)


def test_auxiliary_episodes_need_a_one_user_schedule(tmp_path: Path) -> None:
    schedule = build_schedule(with_users(TOY, 2), 0, rounds=2)
    with pytest.raises(PluginError, match="serves 2 users a round: auxiliary episodes need a one-user"):
        run(GiveUpLearner(), schedule, tmp_path / "run", RunOptions(plugins=[PracticeAfterFailure()]))
    assert read_records(tmp_path / "run") == []
    hinted = run(
        GiveUpLearner(), schedule, tmp_path / "hint", RunOptions(plugins=[HintPlugin(default="x")])
    ).records
    assert len(hinted) == 4  # plug-ins that ask for no episode are welcome on any schedule
    wide = build_schedule(with_users(TOY, 3), 0, rounds=3)
    threaded = run(
        ToyRuleLearner(), wide, tmp_path / "threads", RunOptions(plugins=[HintPlugin(default="x")])
    ).records
    assert len(threaded) == 9 and all(r["plugins"] for r in threaded)  # a concurrent learner's threads


# -- the score is the environment's ---------------------------------------------------------------


class FlipVerdict(BasePlugin):
    def on_feedback(
        self, episode: Episode, obs: LearnerObservation, action: Action, feedback: Feedback
    ) -> PluginResponse:
        assert isinstance(feedback, SubmitFeedback)
        return PluginResponse(value=dataclasses.replace(feedback, correct=True))


class FreeDemos(BasePlugin):
    def on_feedback(
        self, episode: Episode, obs: LearnerObservation, action: Action, feedback: Feedback
    ) -> PluginResponse:
        return PluginResponse(value=dataclasses.replace(feedback, spent=0))  # type: ignore[type-var]


class ZeroCharge(BasePlugin):
    def on_episode_end(self, episode: Episode, result: InstanceResult) -> PluginResponse:
        return PluginResponse(value=dataclasses.replace(result, charge=0, solved=True))


class SwapFeedback(BasePlugin):
    def on_feedback(
        self, episode: Episode, obs: LearnerObservation, action: Action, feedback: Feedback
    ) -> PluginResponse:
        return PluginResponse(value=SubmitFeedback(True, 0, 0, True))


class RecordVandal(BasePlugin):
    def on_run_end(self, run: RunInfo) -> None:
        for record in run.records:
            record["charge"] = 0  # type: ignore[index]


@pytest.mark.parametrize(
    ("plugin", "learner", "message"),
    [
        (FlipVerdict(), RandomLearner(0), "changed the feedback's correct .False to True."),
        (FreeDemos(), DemoBuyerLearner(), "changed the feedback's spent .1 to 0."),
        (SwapFeedback(), DemoBuyerLearner(), "returned a SubmitFeedback for a DemosFeedback"),
        (ZeroCharge(), GiveUpLearner(), "in on_episode_end returned a value: only on_observation"),
    ],
)
def test_a_plugin_cannot_change_the_verdict_or_the_charge(
    tmp_path: Path, plugin: BasePlugin, learner: BaseLearner, message: str
) -> None:
    schedule = build_schedule(TOY, 0, rounds=2)
    with pytest.raises(PluginError, match=message):
        run(learner, schedule, tmp_path / "run", RunOptions(plugins=[plugin]))
    assert read_records(tmp_path / "run") == []  # the run stops, committing nothing of the round
    assert not (tmp_path / "run" / "summary.json").exists()


def test_records_handed_to_a_plugin_are_copies(tmp_path: Path) -> None:
    result = run(
        GiveUpLearner(),
        build_schedule(TOY, 0, rounds=2),
        tmp_path / "run",
        RunOptions(plugins=[RecordVandal()]),
    )
    assert [r["charge"] for r in result.records] == [16, 16]
    assert read_json(tmp_path / "run" / "summary.json")["budget_used"] == 100.0


@dataclasses.dataclass(frozen=True)
class NotedFeedback(SubmitFeedback):
    note: str = ""


class Annotate(BasePlugin):
    def on_feedback(
        self, episode: Episode, obs: LearnerObservation, action: Action, feedback: Feedback
    ) -> PluginResponse | None:
        if not isinstance(feedback, SubmitFeedback):
            return None
        fields = {f.name: getattr(feedback, f.name) for f in dataclasses.fields(feedback)}
        return PluginResponse(value=NotedFeedback(**fields, note="keep going"))


class NoteReader(RandomLearner):
    def __init__(self) -> None:
        super().__init__(0)
        self.notes: list[str] = []

    def observe(self, obs: LearnerObservation, action: Action, feedback: Feedback) -> None:
        self.notes.append(getattr(feedback, "note", ""))


def test_a_feedback_may_be_annotated_without_changing_its_fields(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0, rounds=2)
    plain = run(RandomLearner(0), schedule, tmp_path / "plain").records
    learner = NoteReader()
    noted = run(
        learner, schedule, twin(tmp_path / "plain", tmp_path / "noted"), RunOptions(plugins=[Annotate()])
    ).records
    assert learner.notes == ["keep going"] * 16
    assert strip(noted, "plugins") == strip(plain)


class Raises(BasePlugin):
    def on_episode_start(self, episode: Episode) -> None:
        if episode.step == 1:
            raise ValueError("plug-in bug")


class AsksForAStranger(BasePlugin):
    def on_episode_end(self, episode: Episode, result: InstanceResult) -> PluginResponse:
        return PluginResponse(enqueue=[AuxiliaryEpisode("toy-d7-c7")])


class OddMetadata(BasePlugin):
    def on_episode_end(self, episode: Episode, result: InstanceResult) -> PluginResponse:
        return PluginResponse(metadata={"when": object()})


class WrongAction(BasePlugin):
    def on_action(self, episode: Episode, obs: LearnerObservation, action: Action) -> PluginResponse:
        return PluginResponse(value="give up")


@pytest.mark.parametrize(
    ("plugin", "message"),
    [
        (Raises(), r"in on_episode_start raised ValueError\('plug-in bug'\)"),
        (AsksForAStranger(), "asked for task 'toy-d7-c7'.*which this schedule does not serve"),
        (OddMetadata(), "metadata and events must be JSON-ready"),
        (WrongAction(), "returned a str, not Submit, RequestDemos or GiveUp"),
    ],
)
def test_a_faulty_plugin_stops_the_run(tmp_path: Path, plugin: BasePlugin, message: str) -> None:
    with pytest.raises(PluginError, match=message):
        run(GiveUpLearner(), build_schedule(TOY, 0, rounds=3), tmp_path / "run", RunOptions(plugins=[plugin]))
    assert len(read_records(tmp_path / "run")) <= 1  # only a round before the fault, if any


# -- diagnostics -----------------------------------------------------------------------------------


class Chatty(BasePlugin):
    def on_run_start(self, run: RunInfo) -> PluginResponse:
        return PluginResponse(metadata={"started_at": run.start_round}, events=["hello"])

    def on_feedback(
        self, episode: Episode, obs: LearnerObservation, action: Action, feedback: Feedback
    ) -> PluginResponse:
        return PluginResponse(metrics={"feedbacks": 1}, events=[{"kind": type(feedback).__name__}])

    def on_episode_end(self, episode: Episode, result: InstanceResult) -> PluginResponse:
        return PluginResponse(metadata={"end": result.end, "task": episode.task_id})


def test_metadata_metrics_and_events_reach_records_trajectories_and_plugins_json(tmp_path: Path) -> None:
    records = run(
        DemoBuyerLearner(), build_schedule(TOY, 0, rounds=2), tmp_path / "run", RunOptions(plugins=[Chatty()])
    ).records
    said = records[0]["plugins"]["test_plugins:Chatty"]
    assert said == {
        "metadata": {"end": "gave up", "task": records[0]["task_id"]},
        "metrics": {"feedbacks": 9.0},
        "events": 9,
    }
    trajectory = read_json(tmp_path / "run" / "i" / "0.json")
    feedbacks = [e for e in trajectory["plugins"] if e["hook"] == "on_feedback"]
    assert [e["event"] for e in feedbacks] == list(range(9))
    assert feedbacks[0]["events"] == [{"kind": "DemosFeedback"}]
    report = read_json(tmp_path / "run" / "plugins.json")
    assert report["plugins"] == ["test_plugins:Chatty"] and report["stopped"] is None
    assert report["run"] == [
        {
            "plugin": "test_plugins:Chatty",
            "hook": "on_run_start",
            "metadata": {"started_at": 0},
            "events": ["hello"],
        }
    ]
    assert report["totals"]["test_plugins:Chatty"] == {"metrics": {"feedbacks": 18.0}, "events": 18}


class HintReader(GiveUpLearner):
    def __init__(self) -> None:
        self.hints: list[Any] = []

    def act(self, obs: LearnerObservation) -> Action:
        self.hints.append(obs.extra.get("hint"))
        return GiveUp()


def test_the_hint_plugin_shows_the_learner_a_hint(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0, rounds=4)
    first = schedule.slots[0].task_id
    learner = HintReader()
    records = run(
        learner, schedule, tmp_path / "run", RunOptions(plugins=[HintPlugin({first: "turn it"})])
    ).records
    assert learner.hints == ["turn it" if s.task_id == first else None for s in schedule.slots]
    assert records[0]["plugins"] == {
        "continual_arc.addons:HintPlugin": {"metrics": {"hints": 1.0}, "transforms": 1}
    }
    assert "plugins" not in records[1]


# -- stopping --------------------------------------------------------------------------------------


class StopAt(BasePlugin):
    def __init__(self, step: int = 2) -> None:
        self.step = step
        self.ended: list[str | None] = []

    def on_episode_end(self, episode: Episode, result: InstanceResult) -> PluginResponse | None:
        return PluginResponse(stop_after_episode=True) if episode.step == self.step else None

    def on_run_end(self, run: RunInfo) -> None:
        self.ended.append(run.stopped_by)


def test_stop_after_episode_commits_the_round_then_ends_the_run(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0)
    stopper = StopAt(2)
    result = run(
        GiveUpLearner(), schedule, tmp_path / "run", RunOptions(plugins=[PracticeAfterFailure(), stopper])
    )
    # the practice asked for after step 2 is dropped: the run ends with that episode's round
    assert [r["step"] for r in result.records] == [0, -1, 1, -2, 2]
    assert result.stopped_by == "test_plugins:StopAt" and stopper.ended == ["test_plugins:StopAt"]
    assert result.summary["instances"] == 3 and result.summary["complete"] is False
    assert read_json(tmp_path / "run" / "plugins.json")["stopped"] == {
        "plugin": "test_plugins:StopAt",
        "round": 2,
    }
    resumed = run(
        GiveUpLearner(),
        schedule,
        tmp_path / "run",
        RunOptions(resume=True, plugins=[PracticeAfterFailure(), StopAt(2)]),
    )
    assert resumed.stopped_by is None and resumed.summary["complete"] is True
    assert [r["step"] for r in primaries(resumed.records)] == [s.step for s in schedule.slots]
    straight = run(
        GiveUpLearner(),
        schedule,
        twin(tmp_path / "run", tmp_path / "straight"),
        RunOptions(plugins=[PracticeAfterFailure()]),
    )
    assert len(addons(resumed.records)) == len(addons(straight.records)) - 1  # only the dropped one


# -- the older add-ons -----------------------------------------------------------------------------


class OldReview(BaseAddon):
    def on_episode_complete(self, episode: Episode, result: InstanceResult) -> list[str] | None:
        return [episode.task_id] if episode.episode_type == "primary" and episode.step % 4 == 0 else None


class DuckAddon:
    """An older add-on that does not even subclass BaseAddon."""

    def on_episode_complete(self, episode: Episode, result: InstanceResult) -> list[AuxiliaryEpisode]:
        return [AuxiliaryEpisode(episode.task_id, "duck")] if episode.step == 1 else []


def test_older_addons_are_adapted(tmp_path: Path) -> None:
    manager = PluginManager([OldReview(), DuckAddon(), HintPlugin()])
    assert [type(p) for p in manager.plugins] == [LegacyAddonPlugin, LegacyAddonPlugin, HintPlugin]
    assert manager.names == [
        "test_plugins:OldReview",
        "test_plugins:DuckAddon",
        "continual_arc.addons:HintPlugin",
    ]
    assert isinstance(manager.plugins[0], Plugin) and not isinstance(OldReview(), Plugin)
    records = run(
        GiveUpLearner(),
        build_schedule(TOY, 0, rounds=5),
        tmp_path / "run",
        RunOptions(plugins=[OldReview(), DuckAddon()]),
    ).records
    assert [(r["step"], r["plugin"], r["reason"]) for r in addons(records)] == [
        (-1, "test_plugins:OldReview", "addon"),
        (-2, "test_plugins:DuckAddon", "duck"),
        (-3, "test_plugins:OldReview", "addon"),
    ]
    assert read_json(tmp_path / "run" / "meta.json")["plugins"] == [
        "test_plugins:OldReview",
        "test_plugins:DuckAddon",
    ]


# -- resume ----------------------------------------------------------------------------------------


class Reviewer(BasePlugin):
    """Every fourth primary episode, a review of its task: a count rebuilt from the records on resume."""

    def __init__(self) -> None:
        self.seen = 0

    def on_run_start(self, run: RunInfo) -> None:
        self.seen = sum(1 for r in run.records if r["episode_type"] == "primary")

    def on_episode_end(self, episode: Episode, result: InstanceResult) -> PluginResponse | None:
        if episode.episode_type != "primary":
            return None
        self.seen += 1
        return (
            PluginResponse(enqueue=[AuxiliaryEpisode(episode.task_id, "review")])
            if self.seen % 4 == 0
            else None
        )


def plugins() -> list[Any]:
    return [PracticeAfterFailure(), Reviewer(), HintPlugin(default="look at the colours")]


@pytest.mark.parametrize("cut", ["after the primary record", "inside an auxiliary record"])
def test_resume_after_an_interrupted_commit_equals_an_uninterrupted_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cut: str
) -> None:
    import continual_arc.play.rundir as rundir

    schedule = build_schedule(TOY, 0)
    real_append = rundir.append_jsonl

    def dying_append(path: Path, values: list[dict[str, Any]]) -> None:
        # Rounds queued while the disk was busy come in one write: whole up to round 3, then cut.
        values = list(values)
        at = next((i for i, v in enumerate(values) if v["round"] == 3), None)
        if at is None:
            real_append(path, values)
            return
        third = values[at : at + 3]  # round 3: a failure and a review, so a primary record and two others
        assert [v["round"] for v in third] == [3, 3, 3] and third[0]["episode_type"] == "primary"
        lines = [json.dumps(v, sort_keys=True, separators=(",", ":")) + "\n" for v in values]
        whole = lines[at] + lines[at + 1] + lines[at + 2][:40]
        kept = lines[at] if cut == "after the primary record" else whole
        with open(path, "a") as handle:
            handle.write("".join(lines[:at]) + kept)
        raise KeyboardInterrupt

    monkeypatch.setattr(rundir, "append_jsonl", dying_append)
    with pytest.raises(KeyboardInterrupt):
        run(Stubborn(), schedule, tmp_path / "run", RunOptions(plugins=plugins()))
    monkeypatch.setattr(rundir, "append_jsonl", real_append)
    records = run(Stubborn(), schedule, tmp_path / "run", RunOptions(resume=True, plugins=plugins())).records
    straight = run(
        Stubborn(), schedule, twin(tmp_path / "run", tmp_path / "straight"), RunOptions(plugins=plugins())
    ).records
    assert strip(records) == strip(straight)
    assert strip(read_records(tmp_path / "run")) == strip(straight)
    assert {r["reason"] for r in addons(straight)} == {"practice after failure", "review"}
    assert sorted(p.name for p in (tmp_path / "run" / "i").glob("addon-*.json")) == sorted(
        f"addon-{r['addon_index']}.json" for r in addons(straight)
    )


def test_resume_refuses_another_list_of_plugins(tmp_path: Path) -> None:
    schedule = build_schedule(TOY, 0)
    run(
        GiveUpLearner(),
        schedule.first_rounds(2),
        tmp_path / "run",
        RunOptions(plugins=[PracticeAfterFailure()]),
    )
    with pytest.raises(
        RunDirError, match=r"was played with plug-ins .*PracticeAfterFailure.*; resuming with"
    ):
        run(GiveUpLearner(), schedule, tmp_path / "run", RunOptions(resume=True, plugins=[HintPlugin()]))
    with pytest.raises(RunDirError, match=r"resuming with \[\] is refused"):
        run(GiveUpLearner(), schedule, tmp_path / "run", RunOptions(resume=True))


KILL_SCRIPT = """
import sys, time
from continual_arc.addons import HintPlugin, PracticeAfterFailure
from continual_arc.stream.schedule import build_schedule
from continual_arc.tracks.registry import get_config
from continual_arc.env import GiveUp
from continual_arc.runner import RunOptions, run
from continual_arc.testing import ToyRuleLearner

class Slow(ToyRuleLearner):
    def act(self, obs):
        time.sleep(0.004)
        if obs.step >= 0 and obs.step % 3 == 0:
            return GiveUp()
        return super().act(obs)

def show(progress):
    print("round", progress.rounds_done, flush=True)

plugins = [PracticeAfterFailure(), HintPlugin(default="look at the colours")]
schedule = build_schedule(get_config("toy-smoke"), 5)
run(Slow(), schedule, sys.argv[1], RunOptions(resume=True, plugins=plugins, progress=show))
print("done", flush=True)
"""


@pytest.mark.heavy
def test_kill_then_resume_with_plugins_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    script = tmp_path / "play.py"
    script.write_text(KILL_SCRIPT)
    out = tmp_path / "killed"
    rng = random.Random(3)
    kills = 0
    for target in (1, 2, 4, 6, 8, 10):
        proc = subprocess.Popen([sys.executable, str(script), str(out)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:  # wait until the run has committed `target` rounds
            if line.startswith("done") or int(line.split()[1]) >= target:
                break
        time.sleep(rng.uniform(0.0, 0.04))  # then die somewhere in the next round or its commit
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait()
        proc.stdout.close()
    final = subprocess.run(
        [sys.executable, str(script), str(out)], capture_output=True, text=True, check=True
    )
    assert final.stdout.strip().endswith("done")
    assert kills >= 3
    schedule = build_schedule(TOY, 5)
    straight = run(
        Stubborn(),
        schedule,
        twin(out, tmp_path / "straight"),
        RunOptions(plugins=[PracticeAfterFailure(), HintPlugin(default="look at the colours")]),
    ).records
    assert addons(straight)
    assert strip(read_records(out)) == strip(straight)
    assert read_json(out / "summary.json")["addons"]["episodes"] == len(addons(straight))


# -- loading and the command line ------------------------------------------------------------------


def test_load_plugin_builds_and_checks(tmp_path: Path) -> None:
    practice = load_plugin(PRACTICE, {"reason": "again"})
    assert isinstance(practice, PracticeAfterFailure) and practice.reason == "again"
    assert isinstance(load_plugin("test_plugins:OldReview"), OldReview)
    with pytest.raises(
        PluginSpecError, match="ToyRuleLearner is not a plug-in: it lacks on_run_start, on_episode_start"
    ):
        load_plugin("continual_arc.testing:ToyRuleLearner")
    with pytest.raises(PluginSpecError, match="cannot import plug-in module 'no_such_module'"):
        load_plugin("no_such_module:Thing")
    with pytest.raises(PluginSpecError, match="unexpected keyword argument 'colour'"):
        load_plugin("continual_arc.addons:HintPlugin", {"colour": 3})
    with pytest.raises(PluginSpecError, match="is not a plug-in"):
        PluginManager([GiveUpLearner()])
    with pytest.raises(PluginSpecError, match="builtins:object is not a plug-in"):
        run(
            GiveUpLearner(),
            build_schedule(TOY, 0, rounds=1),
            tmp_path / "run",
            RunOptions(plugins=[object()]),
        )
    assert not (tmp_path / "run").exists()  # refused before anything is written


@pytest.fixture
def toy_schedule(tmp_path: Path) -> Path:
    path = tmp_path / "stream.json"
    assert main(["schedule", "make", "--config", "toy-smoke", "--out", str(path)]) == 0
    return path


def cli_run(schedule: Path, out: Path, *extra: str) -> list[str]:
    return [
        "run",
        "--learner",
        "continual_arc.testing:GiveUpLearner",
        "--schedule",
        str(schedule),
        "--out",
        str(out),
        *extra,
    ]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["--plugin", PRACTICE, "--plugin-kwargs", "{}", "--plugin-kwargs", "{}"],
            "2 --plugin-kwargs for 1 --plugin",
        ),
        (["--plugin-kwargs", "{}"], "1 --plugin-kwargs for 0 --plugin"),
        (
            ["--plugin", PRACTICE, "--plugin-kwargs", "{reason: 1}"],
            f"--plugin-kwargs of {PRACTICE} is not valid JSON",
        ),
        (["--plugin", PRACTICE, "--plugin-kwargs", "[1]"], "must be a JSON object, got list"),
        (
            ["--plugin", "continual_arc.testing:GiveUpLearner"],
            "GiveUpLearner is not a plug-in: it lacks on_run_start",
        ),
        (["--plugin", "continual_arc.addons"], "plug-in must be given as module:Class"),
    ],
)
def test_cli_plugin_errors_are_one_line(
    tmp_path: Path, toy_schedule: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    capsys.readouterr()
    assert main(cli_run(toy_schedule, tmp_path / "run", *extra)) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("continual-arc: error: ") and message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "run").exists()


def test_cli_runs_plugins_matched_by_position(
    tmp_path: Path, toy_schedule: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "--plugin",
        PRACTICE,
        "--plugin-kwargs",
        '{"reason": "again"}',
        "--plugin",
        "continual_arc.addons:HintPlugin",
    ]
    assert main(cli_run(toy_schedule, tmp_path / "run", *args)) == 0
    assert "13 auxiliary episodes" in capsys.readouterr().out
    records = read_records(tmp_path / "run")
    assert {r["reason"] for r in addons(records)} == {"again"}  # the kwargs went to the first plug-in
    meta = read_json(tmp_path / "run" / "meta.json")
    assert meta["plugins"] == [PRACTICE, "continual_arc.addons:HintPlugin"]
