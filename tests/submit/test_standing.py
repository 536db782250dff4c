"""Standing from a signature only (issue 37): each attack on a result's standing, played.

A result's standing is verified or reproduced only when a key the reader trusts signed a statement
naming exactly the files present; anything else is reported, with one sentence saying why.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from continual_arc.cli import main
from continual_arc.core.files import atomic_write_json, read_json
from continual_arc.data.pack import write_manifest
from continual_arc.measure.summary import summarize
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec, play_protocol
from continual_arc.stream.users import with_users
from continual_arc.submit.check import check_submission
from continual_arc.submit.leaderboard import check_result, leaderboard
from continual_arc.submit.rebuild import store_run
from continual_arc.submit.signing import SIGNATURE, SigningError, new_key_pair, read_signing_key
from continual_arc.submit.standing import StandingKind, TrustedKeys, load_trusted, standing_of
from continual_arc.submit.verify import VerifyOptions, verify
from continual_arc.tracks.registry import get_config, use_pack

pytestmark = pytest.mark.tampered  # these tests edit result files on purpose

DEMO = Path(__file__).resolve().parents[2] / "packs" / "demo"
LEARNER = "continual_arc.play.toy_learners:DemoBuyerLearner"


@pytest.fixture(scope="module")
def keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of throwaway keys, outside any result and repository."""
    folder = tmp_path_factory.mktemp("keys")
    new_key_pair(folder / "verifier", "verifier")
    new_key_pair(folder / "stranger", "stranger")
    return folder


def _trust(keys: Path, *names: str) -> TrustedKeys:
    return load_trusted([keys / f"{name}.pub" for name in names], folder=None)


def _tiny_pack(root: Path) -> Path:
    """Two of the demo's rules as a pack of their own: one streamed, one held out."""
    (root / "rules").mkdir(parents=True)
    for stem in ("sort_bars", "pinwheel"):
        shutil.copy(DEMO / "rules" / f"{stem}.py", root / "rules" / f"{stem}.py")
    (root / "manifest.json").write_text(
        json.dumps({"name": "tinysig", "version": "1", "description": "two rules", "rules": {"x": {}}})
    )
    write_manifest(root)
    return root


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _tiny_pack(tmp_path_factory.mktemp("private") / "tinysig")


@pytest.fixture(scope="module")
def verified(tmp_path_factory: pytest.TempPathFactory, keys: Path, pack: Path) -> Path:
    """A verification on a rule pack, signed by the verifier's key."""
    described, track = use_pack(pack)
    out = tmp_path_factory.mktemp("verified") / "v"
    options = VerifyOptions(
        learner=LEARNER, config=with_users(track.configs[0], 1), out=out, seed=5, mode="verified",
        about=described.describe(), resamples=100, withheld=[pack],
        sign_with=read_signing_key(keys / "verifier"),
    )  # fmt: skip
    verify(options)
    return out


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A self-run protocol: the toy rule learner on toy-smoke."""
    root = tmp_path_factory.mktemp("honest") / "rules"
    learner = "continual_arc.testing:ToyRuleLearner"
    play_protocol(ProtocolSpec.named(learner, "toy-smoke"), ProtocolOptions(out=root, jobs=1, resamples=100))
    submission = read_json(root / "submission.json")
    submission.update(student="none", code="https://example.org/l@abc", contact="a@example.org")
    atomic_write_json(root / "submission.json", submission)
    return root


def _copy(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _rewrite(run: Path, records: list[dict[str, Any]]) -> None:
    """Records written back and the summary recomputed, as a careful forger would."""
    text = "".join(json.dumps(r, sort_keys=True, separators=(",", ":")) + "\n" for r in records)
    (run / "records.jsonl").write_text(text)
    atomic_write_json(run / "summary.json", summarize(records, read_json(run / "meta.json")))


# -- what an honest signature gives ------------------------------------------------------------------


def test_a_signed_verification_is_verified_by_its_trusted_key(verified: Path, keys: Path, pack: Path) -> None:
    standing = standing_of(verified, _trust(keys, "verifier"))
    assert standing.kind is StandingKind.VERIFIED and standing.signer == "verifier"
    assert not standing.records_only
    signed = read_json(verified / SIGNATURE)["signatures"][0]["statement"]
    files = signed["files"]
    # every file but work/ and the signature, each by the SHA-256 of its bytes
    present = sorted(
        p.relative_to(verified).as_posix()
        for p in verified.rglob("*")
        if p.is_file() and p.relative_to(verified).parts[0] != "work" and p.name != SIGNATURE
    )
    assert sorted(files) == present
    assert (
        files["stream/records.jsonl"]
        == hashlib.sha256((verified / "stream/records.jsonl").read_bytes()).hexdigest()
    )
    assert signed["about"]["manifest_sha256"] == use_pack(pack)[0].digest
    assert signed["learner"]["class"] == LEARNER and signed["isolation"]


def test_the_verifier_fingerprints_the_code_itself(verified: Path) -> None:
    """The runs' fingerprint and the statement's code are the verifier's reading of the package."""
    import continual_arc

    root = Path(continual_arc.__file__).parent
    files = sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    meta = read_json(verified / "held-out" / "meta.json")
    assert meta["learner_fingerprint"]["sources_sha256"] == digest.hexdigest()
    standing = standing_of(verified, TrustedKeys())
    statement = read_json(verified / SIGNATURE)["signatures"][0]["statement"]
    assert statement["learner"]["code"]["sources_sha256"] == digest.hexdigest()
    assert statement["learner"]["code"]["distribution"] == "continual-arc"
    assert standing.kind is StandingKind.REPORTED  # trusting nobody, nothing stands


def test_a_liar_about_its_own_code_is_fingerprinted_as_it_is(tmp_path: Path) -> None:
    """A learner that answers the fingerprint question itself is not asked."""
    (tmp_path / "liar.py").write_text(
        "from continual_arc.play.toy_learners import DemoBuyerLearner\n\n\n"
        "class Liar(DemoBuyerLearner):\n"
        "    def code_fingerprint(self):\n"
        "        return {'package': 'liar', 'version': '9', 'sources_sha256': '00' * 32}\n"
    )
    tmp_path.chmod(0o755)  # its processes run as nobody when the tests run as root
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    toy = with_users(get_config("toy-smoke"), 1)
    verify(VerifyOptions(learner="liar:Liar", config=toy, out=tmp_path / "v",
                         seed=9, env=env, resamples=50))  # fmt: skip
    digest = hashlib.sha256(b"liar.py\0" + (tmp_path / "liar.py").read_bytes() + b"\0").hexdigest()
    for play in ("stream", "seen", "held-out-reset"):
        assert (
            read_json(tmp_path / "v" / play / "meta.json")["learner_fingerprint"]["sources_sha256"] == digest
        )


# -- attacks: each breaks the standing ---------------------------------------------------------------


def test_a_hand_written_verification_json_is_reported_with_its_reason(honest: Path, tmp_path: Path) -> None:
    root = _copy(honest, tmp_path / "r")
    marker = {"mode": "reproduced", "seed": 0, "learner": "continual_arc.testing:ToyRuleLearner",
              "config": "toy-smoke", "isolation": {"stream": {"sandbox": True}}}  # fmt: skip
    atomic_write_json(root / "verification.json", marker)
    standing = standing_of(root, load_trusted())
    assert standing.kind is StandingKind.REPORTED
    assert standing.reason == "unsigned: its verification.json is signed by nobody, so it vouches for nothing"
    result = check_submission(root, resamples=50, allow_ablation=True)
    assert result.ok and result.standing == standing  # the checker holds; the standing does not rise
    board = leaderboard([check_result(root, resamples=50, allow_ablation=True)])
    assert board.tables == ()  # never in a table of verified or reproduced results
    assert [row.status for table in board.reported for row in table.rows] == ["reported"]


def test_a_re_badged_verified_directory_loses_its_standing(
    verified: Path, keys: Path, tmp_path: Path
) -> None:
    root = _copy(verified, tmp_path / "genius")
    for path in [*root.glob("*/meta.json"), root / "submission.json", root / "protocol.json",
                 root / "verification.json"]:  # fmt: skip
        path.write_text(path.read_text().replace(LEARNER, "genius.learners:Genius"))
    standing = standing_of(root, _trust(keys, "verifier"))
    assert standing.kind is StandingKind.REPORTED
    assert standing.reason.startswith("held-out-reset/meta.json changed since it was signed (and ")


def test_a_signed_stored_run_with_one_record_edited_names_the_file(
    honest: Path, keys: Path, tmp_path: Path
) -> None:
    stored = store_run(honest, tmp_path / "runs" / "rules", sign_with=read_signing_key(keys / "verifier"),
                       played_here=True, trusted=TrustedKeys())  # fmt: skip
    trusted = _trust(keys, "verifier")
    standing = standing_of(stored, trusted)
    assert standing.kind is StandingKind.REPRODUCED and standing.records_only
    assert not list(stored.glob("*/i"))  # stored without trajectories, as the statement allows
    records = _records(stored / "seen" / "records.jsonl")
    records[0]["solved"] = not records[0].get("solved")
    _rewrite(stored / "seen", records)
    standing = standing_of(stored, trusted)
    assert standing.kind is StandingKind.REPORTED
    assert (
        standing.reason
        == "seen/records.jsonl changed since it was signed (and 1 other file(s)) (signed by verifier)"
    )


def test_a_verified_result_without_trajectories_and_records_rewritten_is_not_verified(
    verified: Path, keys: Path, tmp_path: Path
) -> None:
    root = _copy(verified, tmp_path / "v")
    for folder in root.glob("*/i"):
        shutil.rmtree(folder)
    records = _records(root / "held-out" / "records.jsonl")
    for record in records:
        record["solved"] = True
    _rewrite(root / "held-out", records)
    trusted = _trust(keys, "verifier")
    standing = standing_of(root, trusted)
    assert standing.kind is StandingKind.REPORTED
    assert "changed since it was signed" in standing.reason
    # the records put back: the trajectories are still missing, and a verification keeps them all
    shutil.copy(verified / "held-out" / "records.jsonl", root / "held-out" / "records.jsonl")
    shutil.copy(verified / "held-out" / "summary.json", root / "held-out" / "summary.json")
    reason = standing_of(root, trusted).reason
    # the first trajectory missing in sorted order: the floor's play, copied in beside the tests, comes first
    assert reason.startswith("held-out-floor/i/") and " is missing since it was signed (and " in reason


def test_a_file_added_after_signing_is_named(verified: Path, keys: Path, tmp_path: Path) -> None:
    root = _copy(verified, tmp_path / "v")
    (root / "stream" / "notes.txt").write_text("nothing to see")
    assert standing_of(root, _trust(keys, "verifier")).reason == (
        "stream/notes.txt was added after signing (signed by verifier)"
    )
    shutil.rmtree(root / "work")  # a verification's working folders are no statement's
    (root / "stream" / "notes.txt").unlink()
    assert standing_of(root, _trust(keys, "verifier")).kind is StandingKind.VERIFIED


def test_an_edited_statement_does_not_verify(verified: Path, keys: Path, tmp_path: Path) -> None:
    root = _copy(verified, tmp_path / "v")
    signatures = read_json(root / SIGNATURE)
    signatures["signatures"][0]["statement"]["mode"] = "verified"
    signatures["signatures"][0]["statement"]["seed"] = 0
    atomic_write_json(root / SIGNATURE, signatures)
    standing = standing_of(root, _trust(keys, "verifier"))
    assert standing.kind is StandingKind.REPORTED and "does not match its statement" in standing.reason


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_byte_changed_in_any_covered_file_is_named(
    verified: Path, keys: Path, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    root = _copy(verified, tmp_path_factory.mktemp("edit") / "v")
    covered = sorted(read_json(root / SIGNATURE)["signatures"][0]["statement"]["files"])
    name = data.draw(st.sampled_from(covered))
    content = bytearray((root / name).read_bytes() or b"\0")
    at = data.draw(st.integers(0, len(content) - 1))
    content[at] ^= data.draw(st.integers(1, 255))
    (root / name).write_bytes(bytes(content))
    standing = standing_of(root, _trust(keys, "verifier"))
    assert standing.kind is StandingKind.REPORTED
    assert standing.reason == f"{name} changed since it was signed (signed by verifier)"


# -- who is trusted -----------------------------------------------------------------------------------


def test_an_untrusted_key_is_reported_and_rises_with_trust(
    verified: Path, keys: Path, pack: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    standing = standing_of(verified, _trust(keys, "stranger"))
    assert standing.kind is StandingKind.REPORTED
    assert standing.reason.startswith("signed by a key this reader does not trust ('verifier', id ")
    argv = ["check", str(verified), "--pack", str(pack), "--resamples", "50"]
    main(argv)
    assert "standing: reported (signed by a key this reader does not trust" in capsys.readouterr().out
    assert main([*argv, "--trust", str(keys / "verifier.pub")]) == 0
    assert "standing: verified (verified by verifier (a verify rerun), signed over every file)" in (
        capsys.readouterr().out
    )


def test_a_rebuild_signs_with_the_local_key_which_its_reader_trusts(honest: Path, tmp_path: Path) -> None:
    stored = store_run(honest, tmp_path / "runs" / "rules")
    assert standing_of(stored, load_trusted()).reason == "unsigned"
    assert main(["runs", "rebuild", str(stored), "--out", str(tmp_path / "rebuilt"), "--ablation"]) == 0
    standing = standing_of(stored, load_trusted())
    assert standing.kind is StandingKind.REPRODUCED and standing.records_only
    assert standing.signer == "rebuilt here"
    assert (
        standing_of(stored, load_trusted(local=False)).kind is StandingKind.REPORTED
    )  # another reader's view


# -- keys ---------------------------------------------------------------------------------------------


def test_keys_are_never_written_into_a_result_or_a_repository(verified: Path, tmp_path: Path) -> None:
    assert main(["keys", "new", str(tmp_path / "k" / "mine"), "--name", "mine"]) == 0
    assert stat.S_IMODE((tmp_path / "k" / "mine").stat().st_mode) == 0o600
    with pytest.raises(SigningError, match="never enters a result directory"):
        new_key_pair(verified / "work" / "key", "inside")
    with pytest.raises(SigningError, match="never enters a result directory"):
        new_key_pair(verified / "stream" / "key", "inside")
    with pytest.raises(SigningError, match="never enters a repository"):
        new_key_pair(Path(__file__).parent / "key", "inside")
    with pytest.raises(SigningError, match="is never overwritten"):
        new_key_pair(tmp_path / "k" / "mine", "again")
    # a key kept inside the directory it would sign is refused before anything plays
    out = tmp_path / "v"
    out.mkdir()
    shutil.copy(tmp_path / "k" / "mine", out / "mine")
    with pytest.raises(SigningError, match="would ship it"):
        verify(VerifyOptions(learner=LEARNER, config=get_config("toy-smoke"), out=out,
                             sign_with=read_signing_key(out / "mine")))  # fmt: skip
    private = (tmp_path / "k" / "mine").read_bytes()
    assert not [p for p in verified.rglob("*") if p.is_file() and b"PRIVATE KEY" in p.read_bytes()]
    assert private not in (verified / SIGNATURE).read_bytes()


def test_a_pack_result_rebuilds_with_its_pack_and_is_then_signed_here(pack: Path, tmp_path: Path) -> None:
    """``runs rebuild --pack``: in a fresh process, the pack's configuration is known only through it."""
    _, track = use_pack(pack)
    played = tmp_path / "played"
    spec = ProtocolSpec.named(LEARNER, track.configs[0].name)
    play_protocol(spec, ProtocolOptions(out=played, jobs=1, resamples=50, plots=False))
    stored = store_run(played, tmp_path / "stored", fields={"student": "none", "code": "x", "contact": "y"})
    command = [sys.executable, "-m", "continual_arc.cli", "runs", "rebuild", str(stored), "--ablation"]
    without = subprocess.run([*command, "--out", str(tmp_path / "r1")], capture_output=True, text=True)
    assert without.returncode == 2  # one sentence, after the line that says what it rebuilds
    assert without.stderr.strip().splitlines()[-1].endswith("once its pack is given (--pack DIR))")
    assert standing_of(stored, load_trusted()).reason == "unsigned"
    with_pack = [*command, "--out", str(tmp_path / "r2"), "--pack", str(pack)]
    rebuilt = subprocess.run(with_pack, capture_output=True, text=True)
    assert rebuilt.returncode == 0, rebuilt.stderr
    standing = standing_of(stored, load_trusted())
    assert (standing.kind, standing.signer, standing.records_only) == (
        StandingKind.REPRODUCED,
        "rebuilt here",
        True,
    )
