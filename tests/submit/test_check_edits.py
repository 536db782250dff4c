"""Coherent edits of an honest result that ``check`` must refuse (issue 26, section 3).

Each edit rewrites the files consistently, as a careful forger would (the summary recomputed, the
same field in every run), so that only what the checker recomputes or ties to the runs finds it.
Each refusal is one line naming the file and the field. A verification's marker is believed only
through a trusted signature (issue 37): the verification here is signed with a throwaway key this
module trusts, and an edit of its marker is signed again with it, as a careless verifier would, so
that what the checker ties to the runs is still played.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.data.pack import write_manifest
from continual_arc.measure.summary import summarize
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.protocol.plays import PROTOCOL_PLAYS
from continual_arc.stream.users import with_users
from continual_arc.submit.check import check_submission
from continual_arc.submit.signing import SigningKey, file_digests, read_signatures, sign_directory
from continual_arc.submit.standing import TrustedKeys
from continual_arc.submit.verify import VerifyOptions, verify
from continual_arc.tracks.registry import get_config, use_pack

pytestmark = pytest.mark.tampered  # these tests edit run files on purpose

RUNS = tuple(PROTOCOL_PLAYS.values())
DEMO = Path(__file__).resolve().parents[2] / "packs" / "demo"


def _fill(root: Path) -> None:
    """What a person adds to the submission.json the protocol writes."""
    submission = read_json(root / "submission.json")
    submission.update(student="none", code="https://example.org/learner@abc123", contact="a@example.org")
    atomic_write_json(root / "submission.json", submission)


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An honest protocol: the toy rule learner on toy-smoke (a learner that buys and learns)."""
    root = tmp_path_factory.mktemp("honest") / "results" / "toy" / "rules"
    spec, options = (
        ProtocolSpec.named("continual_arc.testing:ToyRuleLearner", "toy-smoke"),
        ProtocolOptions(out=root, jobs=1, resamples=200),
    )
    play_protocol(spec, options)
    _fill(root)
    return root


KEY = SigningKey(Ed25519PrivateKey.generate(), "verifier")
"""A throwaway verifier's key, in memory only."""

_TRUSTED = TrustedKeys((KEY.public,))
"""The keys the checks here trust: the verifier's."""


@pytest.fixture
def key() -> SigningKey:
    return KEY


@pytest.fixture(scope="module")
def verified(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An honest verification: the toy rule learner rerun on toy-smoke at seed 7 (reproduced), signed."""
    out = tmp_path_factory.mktemp("verified") / "v"
    config = with_users(get_config("toy-smoke"), 1)
    verify(VerifyOptions(learner="continual_arc.testing:ToyRuleLearner", config=config, out=out, seed=7,
                         about={"track": config.track, "config": config.name}, resamples=200,
                         sign_with=KEY))  # fmt: skip
    return out


def _resign(root: Path, key: SigningKey, statement: dict[str, Any] | None = None) -> None:
    """Sign ``root`` again over its files as they are now (the statement kept, or the one given)."""
    base = statement if statement is not None else dict(read_signatures(root)[0].statement)
    sign_directory(root, {**base, "files": file_digests(root)}, key)


def _copy(source: Path, tmp_path: Path) -> Path:
    target = tmp_path / "result"
    shutil.copytree(source, target)
    return target


def _problems(root: Path, *, ablation: bool = False) -> list[str]:
    result = check_submission(root, resamples=100, allow_ablation=ablation, trusted=_TRUSTED)
    assert result.ok == (not result.problems)
    return result.problems


def _named(problems: list[str], file: str, *fields: str) -> list[str]:
    """The problem lines that name ``file`` and every one of ``fields``."""
    split = [p.split(": ", 1) for p in problems]
    return [": ".join(s) for s in split if len(s) == 2 and file in s[0] and all(f in s[1] for f in fields)]


def _edit_json(path: Path, change: Callable[[Any], None]) -> None:
    value = read_json(path)
    change(value)
    atomic_write_json(path, value)


def _rewrite_records(run: Path, change: Callable[[list[dict[str, Any]]], None]) -> None:
    """Edit a run's records, then recompute its summary, as a careful forger would."""
    path = run / "records.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    change(records)
    path.write_text("".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in records))
    atomic_write_json(run / "summary.json", summarize(records, read_json(run / "meta.json")))


def test_the_honest_results_pass(honest: Path, verified: Path) -> None:
    assert _problems(honest, ablation=True) == []
    assert _problems(verified) == []  # a verification ties to its runs: no --ablation needed


# -- 1. the canonical verdict is recomputed from the schedule ---------------------------------------


def _claim_canonical(block: dict[str, Any]) -> None:
    block.update(canonical=True, deviations=[])


def _claim_canonical_meta(meta: dict[str, Any]) -> None:
    _claim_canonical(meta["protocol"])
    _claim_canonical(meta["schedule"]["protocol"])


def test_a_protocol_block_edited_to_canonical_is_refused(honest: Path, tmp_path: Path) -> None:
    root = _copy(honest, tmp_path)
    for run in RUNS:  # every copy of the block, in every run and schedule file
        _edit_json(root / run / "meta.json", _claim_canonical_meta)
        _edit_json(root / run / "schedule.json", lambda s: _claim_canonical(s["meta"]["protocol"]))
        _edit_json(root / run / "summary.json", lambda s: _claim_canonical(s["protocol"]))
    for schedule in (root / "schedules").glob("*.json"):
        _edit_json(schedule, lambda s: _claim_canonical(s["meta"]["protocol"]))
    problems = _problems(root)
    assert len(_named(problems, "stream/meta.json", "protocol", "canonical")) == 1, problems
    # the recomputed verdict is the one the canonical check reads
    assert _named(problems, "stream/meta.json", "not canonical (track toy has no canonical"), problems


# -- 2. a verification counts only when it is tied to the runs --------------------------------------


def test_an_empty_verification_does_not_switch_the_canonical_check_off(honest: Path, tmp_path: Path) -> None:
    """Unsigned, a marker is not read at all: the standing says why, and the canonical check stays on."""
    root = _copy(honest, tmp_path)
    (root / "verification.json").write_text("{}")
    problems = _problems(root)
    assert not _named(problems, "verification.json"), problems
    assert _named(problems, "stream/meta.json", "not canonical"), problems
    standing = check_submission(root, resamples=100, allow_ablation=True).standing
    assert standing is not None and standing.reason.startswith("unsigned: its verification.json")


def test_an_edited_signed_verification_does_not_switch_the_canonical_check_off(
    verified: Path, tmp_path: Path
) -> None:
    root = _copy(verified, tmp_path)
    _edit_json(root / "verification.json", lambda v: v.update(seed=0))
    problems = _problems(root)
    assert not _named(problems, "verification.json"), problems
    assert _named(problems, "stream/meta.json", "not canonical (", "seed 7"), problems


@pytest.mark.parametrize(
    ("field", "value"),
    [("seed", 8), ("learner", "continual_arc.testing:RandomLearner"), ("config", "arc1-smoke"),
     ("mode", "trusted"), ("isolation", None)],
)  # fmt: skip
def test_a_verification_that_is_not_the_runs_is_refused(
    field: str, value: object, verified: Path, key: SigningKey, tmp_path: Path
) -> None:
    """Even signed by a trusted key, a marker that is not these runs' switches nothing off."""
    root = _copy(verified, tmp_path)
    _edit_json(root / "verification.json", lambda v: v.update({field: value}))
    _resign(root, key)
    problems = _problems(root)
    assert len(_named(problems, "verification.json", field)) == 1, problems
    assert _named(problems, "stream/meta.json", "not canonical (", "seed 7"), problems


def _pack(root: Path, name: str) -> Path:
    """Two of the demo's rules as a pack of their own."""
    (root / "rules").mkdir(parents=True)
    for stem in ("sort_bars", "pinwheel"):
        shutil.copy(DEMO / "rules" / f"{stem}.py", root / "rules" / f"{stem}.py")
    manifest = {"name": name, "version": "1", "description": "two rules", "rules": {"x": {}}}
    (root / "manifest.json").write_text(json.dumps(manifest))
    write_manifest(root)
    return root


def test_a_public_result_claimed_verified_on_a_pack_is_refused(
    verified: Path, key: SigningKey, tmp_path: Path
) -> None:
    """A pack given to check, and a verification that names it, on runs of a public track."""
    pack, _ = use_pack(_pack(tmp_path / "pack", "checkedits"))
    root = _copy(verified, tmp_path)
    _edit_json(root / "verification.json", lambda v: v.update(mode="verified", about=pack.describe()))
    _resign(root, key)
    problems = _problems(root)
    assert len(_named(problems, "verification.json", "about.pack", "pack-checkedits")) == 1, problems


def test_a_verification_on_another_manifest_is_refused(
    verified: Path, key: SigningKey, tmp_path: Path
) -> None:
    """Runs of a pack's track, marked verified on that pack and signed; then on another manifest of it."""
    pack, track = use_pack(_pack(tmp_path / "pack", "checkedits"))
    root = tmp_path / "v"
    learner = "continual_arc.testing:RandomLearner"
    spec = ProtocolSpec.named(learner, track.configs[0].name)
    play_protocol(spec, ProtocolOptions(out=root, jobs=1, resamples=100, plots=False))
    _fill(root)
    isolation = {kind: {"processes": 1} for kind in ("stream", "test", "reset")}
    marker = {"mode": "verified", "seed": 0, "learner": learner, "config": track.configs[0].name,
              "about": pack.describe(), "isolation": isolation}  # fmt: skip
    atomic_write_json(root / "verification.json", marker)
    assert _named(_problems(root), "stream/meta.json", "not canonical ("), "unsigned, it counts for nothing"
    _resign(root, key, {"kind": "verify", "mode": "verified"})
    assert (
        _problems(root) == []
    )  # signed, tied to the runs and to the pack in use: the canonical check is off
    _edit_json(root / "verification.json", lambda v: v["about"].update(manifest_sha256="ab" * 32))
    _resign(root, key)
    problems = _problems(root)
    assert len(_named(problems, "verification.json", "about.manifest_sha256")) == 1, problems
    assert _named(problems, "stream/meta.json", "not canonical ("), problems


# -- 3. plug-in traces in a run that lists no plug-in -------------------------------------------------


def test_records_that_carry_plugin_entries_are_refused(honest: Path, tmp_path: Path) -> None:
    root = _copy(honest, tmp_path)

    def said(records: list[dict[str, Any]]) -> None:
        for record in records:
            record["plugins"] = {"whisper": {"metrics": {"answers": 1}}}

    _rewrite_records(root / "held-out", said)
    problems = _problems(root, ablation=True)
    assert len(_named(problems, "held-out/records.jsonl", "plugins")) == 1, problems


def test_an_answer_in_an_observations_extra_is_refused(honest: Path, tmp_path: Path) -> None:
    root = _copy(honest, tmp_path)
    for path in sorted((root / "held-out" / "i").glob("*.json")):

        def slip(trajectory: dict[str, Any]) -> None:
            for event in trajectory["events"]:
                event["observation"]["extra"] = {"answer": [[1, 2], [3, 4]]}

        _edit_json(path, slip)
    problems = _problems(root, ablation=True)
    assert len(_named(problems, "held-out/i/", "extra")) == 1, problems


def _addon(records: list[dict[str, Any]], index: int | None) -> None:
    """A copy of the first record as an auxiliary episode, appended to its round."""
    extra = {**records[0], "episode_type": "addon"}
    if index is not None:
        extra["addon_index"] = index
    records.insert(1, extra)


def test_an_addon_episode_in_a_run_without_plugins_is_refused(honest: Path, tmp_path: Path) -> None:
    root = _copy(honest, tmp_path)
    _rewrite_records(root / "stream", lambda records: _addon(records, 1))
    shutil.copy(root / "stream" / "i" / "0.json", root / "stream" / "i" / "addon-1.json")
    _edit_json(root / "stream" / "i" / "addon-1.json", lambda t: t.update(episode_type="addon"))
    problems = _problems(root, ablation=True)
    assert len(_named(problems, "stream/records.jsonl", "episode_type", "addon")) == 1, problems


# -- 4. the learner bound to the runs -------------------------------------------------------------------


def test_a_run_without_a_learner_fingerprint_is_refused(honest: Path, tmp_path: Path) -> None:
    root = _copy(honest, tmp_path)
    for run in RUNS:
        _edit_json(root / run / "meta.json", lambda m: m.pop("learner_fingerprint"))
    problems = _problems(root, ablation=True)
    assert len(_named(problems, "stream/meta.json", "learner_fingerprint")) == 1, problems


def test_a_fingerprint_of_another_package_is_refused(honest: Path, tmp_path: Path) -> None:
    root = _copy(honest, tmp_path)
    for run in RUNS:
        _edit_json(root / run / "meta.json", lambda m: m["learner_fingerprint"].update(package="elsewhere"))
    problems = _problems(root, ablation=True)
    assert len(_named(problems, "stream/meta.json", "learner_fingerprint", "elsewhere")) == 1, problems


@pytest.mark.parametrize(
    ("field", "value"), [("learner", "continual_arc.testing:RandomLearner"), ("learner_kwargs", {"depth": 3})]
)
def test_a_submission_naming_another_learner_is_refused(
    field: str, value: object, honest: Path, tmp_path: Path
) -> None:
    root = _copy(honest, tmp_path)
    _edit_json(root / "submission.json", lambda s: s.update({field: value}))
    problems = _problems(root, ablation=True)
    assert len(_named(problems, "submission.json", field)) == 1, problems


@pytest.mark.parametrize(
    ("where", "value"),
    [(("plane", "seen", "share_saved", "value"), 0.9), (("plane", "learned", "learner", "budget_used"), 0.5),
     (("seed",), 1), (("learner", "class"), "x:Other")],
)  # fmt: skip
def test_a_protocol_json_that_is_not_the_runs_is_refused(
    where: tuple[str, ...], value: object, honest: Path, tmp_path: Path
) -> None:
    root = _copy(honest, tmp_path)

    def change(document: dict[str, Any]) -> None:
        node = document
        for key in where[:-1]:
            node = node[key]
        node[where[-1]] = value

    _edit_json(root / "protocol.json", change)
    problems = _problems(root, ablation=True)
    assert len(_named(problems, "protocol.json", ".".join(where))) == 1, problems


# -- 5. a malformed record is one line, never a traceback --------------------------------------------------


def test_an_addon_record_without_its_index_is_one_line(honest: Path, tmp_path: Path) -> None:
    root = _copy(honest, tmp_path)
    _rewrite_records(root / "stream", lambda records: _addon(records, None))
    problems = _problems(root, ablation=True)
    assert len(_named(problems, "stream/records.jsonl", "addon_index")) == 1, problems


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [("student", 3, "field student should be a valid string, not 3"),
     ("tests", {"seen": []}, "field tests.seen should be a valid dictionary, not []")],
)  # fmt: skip
def test_a_submission_with_a_wrong_typed_field_is_its_one_line(
    field: str, value: object, said: str, honest: Path, tmp_path: Path
) -> None:
    """A hand-edited ``submission.json`` is read through its declaration: the file and field, nothing more."""
    root = _copy(honest, tmp_path)
    _edit_json(root / "submission.json", lambda v: v.update({field: value}))
    result = check_submission(root, resamples=100, allow_ablation=True)
    assert not result.ok and result.problems == [f"{root / 'submission.json'}: {said}"]


def test_a_verification_with_a_wrong_typed_seed_is_its_one_line(
    verified: Path, key: SigningKey, tmp_path: Path
) -> None:
    root = _copy(verified, tmp_path)
    _edit_json(root / "verification.json", lambda v: v.update(seed="7"))
    _resign(root, key)
    problems = _named(_problems(root), "verification.json")
    said = "field seed should be a valid integer, not '7': the canonical check stays on"
    assert problems == [f"{root / 'verification.json'}: {said}"]
