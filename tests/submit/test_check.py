from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from continual_arc.addons import BasePlugin, PluginResponse
from continual_arc.cli import main
from continual_arc.cli.check import format_numbers
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.core.learner_ref import LearnerRef
from continual_arc.env import Submit
from continual_arc.measure.summary import summarize
from continual_arc.play.options import RunOptions
from continual_arc.play.runner import run
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.stream.schedule import Schedule
from continual_arc.submit.check import check_submission
from continual_arc.testing import RandomLearner
from continual_arc.tracks.registry import get_track

pytestmark = pytest.mark.tampered  # these tests edit run files on purpose


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An honest submission: a trivial learner's whole protocol on arc1-smoke."""
    root = tmp_path_factory.mktemp("honest") / "results" / "arc1" / "random"
    spec, options = (
        ProtocolSpec.named("continual_arc.testing:RandomLearner", "arc1-smoke"),
        ProtocolOptions(out=root, jobs=1, resamples=200),
    )
    play_protocol(spec, options)
    _fill(root)
    return root


def _fill(root: Path) -> None:
    """What a person adds to the submission.json the protocol writes."""
    submission = read_json(root / "submission.json")
    submission.update(student="none", code="https://example.org/learner@abc123", contact="a@example.org")
    atomic_write_json(root / "submission.json", submission)


def copy_of(honest: Path, tmp_path: Path) -> Path:
    target = tmp_path / "result"
    shutil.copytree(honest, target)
    return target


def test_the_honest_submission_passes(honest: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = check_submission(honest, resamples=200, allow_ablation=True)
    assert result.ok, result.problems
    numbers = result.numbers
    assert numbers is not None and set(numbers) == {"held-out", "seen", "learned", "protocol", "flags"}
    assert numbers["flags"].messages() == []  # the random learner and its reset play alike: no flag
    assert main(["check", str(honest), "--resamples", "200", "--ablation"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("place on the plane: memorization") and "every check holds" in out
    assert "tiny" not in out  # arc1-smoke's stream leaves 66.7 points to learn
    tiny = {**numbers, "learned": replace(numbers["learned"], learnable_budget=5.0)}
    assert format_numbers(tiny).splitlines()[-2] == (  # under the share learned, above the protocol
        "  the learnable budget is tiny (5.0 points, under 10.0): each point of U the learner saves or "
        "loses against its reset moves the share learned by 0.20, so read the two U beside it"
    )


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def _edit_record(run: str, line: int, **fields: object) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        path = root / run / "records.jsonl"
        lines = _lines(path)
        record = json.loads(lines[line])
        record.update(fields)
        lines[line] = json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"
        path.write_text("".join(lines))

    return edit


def _drop_line(root: Path) -> None:
    path = root / "stream" / "records.jsonl"
    lines = _lines(path)
    del lines[4]
    path.write_text("".join(lines))


def _duplicate_line(root: Path) -> None:
    path = root / "stream" / "records.jsonl"
    lines = _lines(path)
    path.write_text("".join([*lines[:3], lines[2], *lines[3:]]))


def _swap_lines(root: Path) -> None:
    path = root / "stream" / "records.jsonl"
    lines = _lines(path)
    lines[1], lines[2] = lines[2], lines[1]
    path.write_text("".join(lines))


def _edit_json(run: str, name: str, edit: Callable[[dict], None]) -> Callable[[Path], None]:  # type: ignore[type-arg]
    def apply(root: Path) -> None:
        value = read_json(root / run / name)
        edit(value)
        atomic_write_json(root / run / name, value)

    return apply


def _other_salt(root: Path) -> None:
    (root / "held-out" / "alias-salt").write_text("0123456789abcdef0123456789abcdef\n")


def _corrupt_line(root: Path) -> None:
    path = root / "seen" / "records.jsonl"
    lines = _lines(path)
    lines[1] = lines[1][:40] + "\n"
    path.write_text("".join(lines))


def _forged_verdict(root: Path) -> None:
    """Claim a wrong submission was right, consistently in the record and the trajectory."""
    path = root / "stream" / "records.jsonl"
    lines = _lines(path)
    record = json.loads(lines[0])
    record["actions"] = [{**record["actions"][0], "correct": True}]
    record.update(solved=True, end="solved", charge=0, wrong_attempts=0, budget_share=0.0)
    lines[0] = json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"
    path.write_text("".join(lines))
    trajectory = read_json(root / "stream" / "i" / "0.json")
    trajectory["events"] = trajectory["events"][:1]
    trajectory["events"][0]["feedback"]["correct"] = True
    atomic_write_json(root / "stream" / "i" / "0.json", trajectory)


TAMPERS = {
    "an edited charge": (
        _edit_record("stream", 3, charge=2),
        "stream/records.jsonl, line 4: step 3: charge 2",
    ),
    "an edited summary": (
        _edit_json("stream", "summary.json", lambda s: s.update(budget_used=10.0)),
        "stream/summary.json: budget_used is not what the records give",
    ),
    "a missing slot": (_drop_line, "stream/records.jsonl: slot 4 (task"),
    "a duplicated slot": (_duplicate_line, "stream/records.jsonl, line 4: step 2 again (first at line 3)"),
    "reordered slots": (_swap_lines, "stream/records.jsonl: records out of order (step 1 after step 2)"),
    "a record from another seed": (
        _edit_record("stream", 5, seed=1000000000000007),
        "stream/records.jsonl, line 6: step 5: seed 1000000000000007 (the schedule has",
    ),
    "a test under another salt": (
        _other_salt,
        "held-out/alias-salt: not the stream's salt: the held-out test was played under other task names",
    ),
    "a reset of another learner": (
        _edit_json("stream-reset", "meta.json", lambda m: m["learner"].update({"class": "x:Other"})),
        "stream-reset/meta.json: played by {'class': 'x:Other'",
    ),
    "a mismatched version": (
        _edit_json("seen", "meta.json", lambda m: m["versions"].update({"continual-arc": "9.9"})),
        "seen/meta.json: versions",
    ),
    "a missing file": (
        lambda root: (root / "held-out" / "summary.json").unlink(),
        "held-out/summary.json: missing",
    ),
    "a malformed JSON line": (_corrupt_line, "seen/records.jsonl, line 2: not valid JSON"),
    "a forged verdict": (
        _forged_verdict,
        "stream/i/0.json: a submission recorded True, but the grid is False",
    ),
    "a reset stream that is not reset": (
        _edit_json("stream-reset", "meta.json", lambda m: m["schedule"].update(reset_each=False)),
        "stream-reset/meta.json: schedule reset_each is False, but the stream-reset run needs True",
    ),
    "a test's run that plays the other test": (
        _edit_json("seen", "meta.json", lambda m: m["schedule"].update(test="held-out")),
        "seen/meta.json: schedule test is 'held-out', but the seen run needs 'seen'",
    ),
    "a missing run": (
        lambda root: shutil.rmtree(root / "seen-reset"),
        "submission.json: the seen-reset run 'seen-reset' does not exist",
    ),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_each_tampering_is_caught_and_named(name: str, honest: Path, tmp_path: Path) -> None:
    root = copy_of(honest, tmp_path)
    edit, message = TAMPERS[name]
    edit(root)
    result = check_submission(root, resamples=100, allow_ablation=True)
    assert not result.ok
    assert any(message in problem for problem in result.problems), (name, result.problems)


def test_a_bare_run_of_another_learner_is_named(honest: Path, tmp_path: Path) -> None:
    root = copy_of(honest, tmp_path)
    submission = read_json(root / "submission.json")
    submission["tests"]["seen"]["bare"] = "seen-reset"
    atomic_write_json(root / "submission.json", submission)
    problems = check_submission(root, resamples=100, allow_ablation=True).problems
    assert any("is not continual_arc_baselines.systems.bare:BareModelLearner" in p for p in problems)


def test_cli_exit_status_and_json(honest: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_of(honest, tmp_path)
    _swap_lines(root)
    assert main(["check", str(root), "--no-regenerate", "--json", "--ablation"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and any("out of order" in p for p in report["problems"])
    assert main(["check", str(tmp_path / "nowhere")]) == 1
    assert "submission.json: missing" in capsys.readouterr().err


@pytest.fixture(scope="module")
def learning(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An honest submission of a learner that buys demonstrations and solves: the toy rule learner."""
    root = tmp_path_factory.mktemp("learning") / "results" / "toy" / "rules"
    spec, options = (
        ProtocolSpec.named("continual_arc.testing:ToyRuleLearner", "toy-smoke"),
        ProtocolOptions(out=root, jobs=1, resamples=200),
    )
    play_protocol(spec, options)
    _fill(root)
    return root


def _rewrite(root: Path, run: str, change: Callable[[list[dict[str, object]]], None]) -> None:
    """Edit a run's records, then recompute its summary, as a careful forger would."""
    path = root / run / "records.jsonl"
    records = [json.loads(line) for line in _lines(path)]
    change(records)
    path.write_text("".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in records))
    meta = read_json(root / run / "meta.json")
    atomic_write_json(root / run / "summary.json", summarize(records, meta))


def _first(records: list[dict[str, object]], test: Callable[[dict[str, object]], bool]) -> dict[str, object]:
    return next(r for r in records if test(r))


def _bought_and_solved(record: dict[str, object]) -> bool:
    return bool(record["solved"]) and int(record["demos_bought"]) >= 1  # type: ignore[call-overload]


def test_demonstrations_marked_refused_in_the_record_alone(learning: Path, tmp_path: Path) -> None:
    root = copy_of(learning, tmp_path)

    def refuse(records: list[dict[str, object]]) -> None:
        record = _first(records, _bought_and_solved)
        for action in record["actions"]:  # type: ignore[attr-defined]
            if action["action"] == "request_demos":
                action["refused"] = True
        record.update(demos_refused=record["demos_bought"], demos_bought=0, charge=0, budget_share=0.0)

    _rewrite(root, "stream", refuse)
    problems = check_submission(root, resamples=100, allow_ablation=True).problems
    found = [p for p in problems if "stream/records.jsonl: step" in p and "charge 0 (the replay gives" in p]
    assert found, problems


def test_a_wrong_submission_marked_right_in_the_record_alone(honest: Path, tmp_path: Path) -> None:
    root = copy_of(honest, tmp_path)

    def forge(records: list[dict[str, object]]) -> None:
        record = records[0]
        record["actions"] = [{**record["actions"][0], "correct": True}]  # type: ignore[index]
        record.update(solved=True, end="solved", charge=0, wrong_attempts=0, budget_share=0.0)

    _rewrite(root, "stream", forge)
    problems = check_submission(root, resamples=100, allow_ablation=True).problems
    assert any("stream/records.jsonl: step 0: charge 0 (the replay gives 16)" in p for p in problems)


def test_a_demonstration_cut_out_of_record_and_trajectory(learning: Path, tmp_path: Path) -> None:
    root = copy_of(learning, tmp_path)
    cut: dict[str, int] = {}

    def drop(records: list[dict[str, object]]) -> None:
        record = _first(records, _bought_and_solved)
        cut["step"] = int(record["step"])  # type: ignore[call-overload]
        actions = record["actions"]  # type: ignore[assignment]
        del actions[[a["action"] for a in actions].index("request_demos")]  # type: ignore[union-attr]
        record["demos_bought"] = int(record["demos_bought"]) - 1  # type: ignore[call-overload]
        record["charge"] = int(record["charge"]) - 1  # type: ignore[call-overload]
        record["budget_share"] = int(record["charge"]) / 16  # type: ignore[call-overload]

    _rewrite(root, "stream", drop)
    path = root / "stream" / "i" / f"{cut['step']}.json"
    trajectory = read_json(path)
    first = [e["action"]["action"] for e in trajectory["events"]].index("request_demos")
    del trajectory["events"][first]
    trajectory["result"]["demos_bought"] -= 1
    trajectory["result"]["charge"] -= 1
    trajectory["result"]["spent"] -= 1
    atomic_write_json(path, trajectory)
    problems = check_submission(root, resamples=100, allow_ablation=True).problems
    # What the learner was shown afterwards counted the demonstration that is gone.
    shown = f"stream/i/{cut['step']}.json: event 0: observation demos_used 1"
    assert any(shown in p for p in problems), problems


def test_a_protocol_directory_as_written_is_checked_in_one_command_with_draft(
    honest: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_of(honest, tmp_path)
    submission = read_json(root / "submission.json")
    submission.update(student=None, code=None, contact="a@example.org")  # as a person half-way through
    atomic_write_json(root / "submission.json", submission)
    # 2 fields + 6 runs not canonical, and the track's floor on each test, a run of the result too
    assert main(["check", str(root), "--resamples", "100"]) == 1
    assert "10 problem(s)" in capsys.readouterr().err
    assert main(["check", str(root), "--resamples", "100", "--draft"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "every check holds, as a draft (runs that are not canonical are accepted); before submitting, "
        "fill in student and code in submission.json"
    )
    result = check_submission(root, resamples=100, draft=True)
    assert result.ok and result.unfilled == ["student", "code"]
    assert result.to_json()["unfilled"] == ["student", "code"]
    assert "unfilled" not in check_submission(honest, resamples=100, draft=True).to_json()  # all filled
    submission["stream"] = "nowhere"  # a draft is checked as strictly in everything else
    atomic_write_json(root / "submission.json", submission)
    assert main(["check", str(root), "--resamples", "100", "--draft"]) == 1


def test_runs_must_be_canonical_and_named(honest: Path, tmp_path: Path) -> None:
    problems = check_submission(honest, resamples=100).problems  # arc1-smoke: an ablation
    assert any("not canonical (configuration arc1-smoke" in p and "--ablation" in p for p in problems)
    root = copy_of(honest, tmp_path)
    _edit_json(".", "submission.json", lambda s: s.update(student=None, contact=""))(root)
    problems = check_submission(root, resamples=100, allow_ablation=True).problems
    assert any("submission.json: student is missing" in p for p in problems)
    assert any("submission.json: contact is missing" in p for p in problems)


def test_arguments_recorded_as_none_by_earlier_releases_are_none(honest: Path, tmp_path: Path) -> None:
    root = copy_of(honest, tmp_path)
    _edit_json("seen", "meta.json", lambda m: m["learner"].update(kwargs=None))(root)
    assert check_submission(root, resamples=100, allow_ablation=True).ok


class Whisper(BasePlugin):
    """A plug-in that submits the real answer for the learner: a verdict that is not the learner's."""

    def __init__(self) -> None:
        self.track = get_track("arc1")

    def on_action(self, episode, obs, action):  # type: ignore[no-untyped-def]
        answer = self.track.source_for(episode.phase).instance(episode.task_id, episode.seed).output
        return PluginResponse(value=Submit(answer))


def test_a_run_whose_plugin_answered_for_the_learner(honest: Path, tmp_path: Path) -> None:
    root = copy_of(honest, tmp_path)
    shutil.rmtree(root / "stream")
    spec = LearnerRef("continual_arc.testing:RandomLearner")
    schedule = Schedule.load(root / "schedules" / "stream.json")
    run(RandomLearner(), schedule, root / "stream", RunOptions(plugins=[Whisper()], learner=spec))
    problems = check_submission(root, resamples=100, allow_ablation=True).problems
    assert any("stream/meta.json: played with plug-ins" in p for p in problems), problems
    assert any("stream/i/0.json: event 0: a plug-in replaced the learner's action" in p for p in problems)
