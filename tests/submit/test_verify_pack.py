"""``verify --pack``: a learner verified on a rule pack it never sees, and checked with that pack."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from continual_arc.cli import main
from continual_arc.core.files import read_json
from continual_arc.data.pack import load_pack, write_manifest
from continual_arc.submit.check import check_submission
from continual_arc.submit.signing import new_key_pair

DEMO = Path(__file__).resolve().parents[2] / "packs" / "demo"


def _tiny_pack(root: Path) -> Path:
    """Two of the demo's rules as a pack of their own: one streamed, one held out."""
    (root / "rules").mkdir(parents=True)
    for stem in ("sort_bars", "pinwheel"):
        shutil.copy(DEMO / "rules" / f"{stem}.py", root / "rules" / f"{stem}.py")
    (root / "manifest.json").write_text(
        json.dumps({"name": "tiny", "version": "1", "description": "two rules", "rules": {"x": {}}})
    )
    write_manifest(root)
    return root


@pytest.mark.slow
def test_a_pack_verification_is_marked_and_checked_only_with_its_pack(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = _tiny_pack(tmp_path / "private" / "tiny")
    out = tmp_path / "v"
    learner = "continual_arc.play.toy_learners:DemoBuyerLearner"
    new_key_pair(
        tmp_path / "keys" / "verifier", "verifier"
    )  # signed: its marker counts, through the signature
    argv = ["verify", "--learner", learner, "--pack", str(pack), "--out", str(out), "--seed", "5"]
    assert main([*argv, "--resamples", "100", "--sign-with", str(tmp_path / "keys" / "verifier")]) == 0
    assert "the rerun checked: every check holds" in capsys.readouterr().out
    marker = read_json(out / "verification.json")
    digest = load_pack(pack).digest
    assert marker["mode"] == "verified" and marker["about"]["manifest_sha256"] == digest
    assert marker["config"] == "pack-tiny"
    # Nothing the learner's processes were given, nor any file written, names the pack's folder.
    written = [p for p in out.rglob("*") if p.is_file()]
    assert not [p for p in written if str(pack.parent) in p.read_text(errors="replace")]
    trust = ["--trust", str(tmp_path / "keys" / "verifier.pub")]
    assert main(["check", str(out), "--resamples", "100", "--pack", str(pack), *trust]) == 0


def test_a_verified_result_without_its_pack_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "submission.json").write_text("{}")
    about = {"pack": "secret", "version": "1", "manifest_sha256": "ab" * 32}
    marker = {"mode": "verified", "seed": 5, "learner": "some.module:Learner", "about": about}
    (tmp_path / "verification.json").write_text(json.dumps(marker))
    result = check_submission(tmp_path)
    assert not result.ok
    assert result.problems == [
        f"{tmp_path} was verified on rule pack secret (manifest sha256 {'ab' * 32}): "
        "give that pack's folder with --pack DIR to check it"
    ]
