"""The rule-pack format: a manifest pinning every rule file, each refusal one sentence."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from continual_arc.data.pack import PackError, build_manifest, dumps_manifest, load_pack, write_manifest
from continual_arc.data.pack_draws import demonstrations, instance

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "packs" / "demo"

RULE_A = """
RULE = "rule-a"


def generate(rng, diff_lb=0.0, diff_ub=1.0):
    grid = [[rng.randrange(1, 10) for _ in range(3)] for _ in range(3)]
    return {"input": grid, "output": verify(grid)}


def verify(grid):
    return [[9 - x for x in row] for row in grid]
"""


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _pack(tmp_path: Path, **files: str) -> Path:
    root = tmp_path / "mine"
    (root / "rules").mkdir(parents=True)
    for stem, text in {"rule_a": RULE_A, **files}.items():
        (root / "rules" / f"{stem}.py").write_text(text)
    rules = {
        p.stem.replace("_", "-"): {
            "file": f"rules/{p.name}",
            "sha256": hashlib.sha256(p.read_bytes()).hexdigest(),
        }
        for p in sorted((root / "rules").glob("*.py"))
    }
    document = {"name": "mine", "version": "2", "description": "a test pack", "rules": rules}
    (root / "manifest.json").write_text(json.dumps(document))
    return root


def test_a_pack_loads_with_its_manifest_hash(tmp_path: Path) -> None:
    root = _pack(tmp_path)
    pack = load_pack(root)
    assert pack.name == "mine" and pack.version == "2" and list(pack.rules) == ["rule-a"]
    assert pack.digest == hashlib.sha256((root / "manifest.json").read_bytes()).hexdigest()
    assert pack.describe()["manifest_sha256"] == pack.digest


def test_an_edited_rule_file_is_refused_in_one_sentence(tmp_path: Path) -> None:
    root = _pack(tmp_path)
    path = root / "rules" / "rule_a.py"
    path.write_text(path.read_text() + "\n# edited\n")
    with pytest.raises(PackError, match=r"rule-a's file .* differs from the manifest \(sha256"):
        load_pack(root)


def test_a_missing_or_unlisted_rule_file_is_refused(tmp_path: Path) -> None:
    root = _pack(tmp_path)
    (root / "rules" / "rule_a.py").unlink()
    with pytest.raises(PackError, match=r"rule rule-a is listed in the manifest but its file .* is missing"):
        load_pack(root)
    root = _pack(tmp_path / "b")
    (root / "rules" / "extra.py").write_text(RULE_A.replace("rule-a", "extra"))
    with pytest.raises(PackError, match=r"rule file\(s\) extra are in .* but not in the manifest"):
        load_pack(root)


def test_a_rule_that_raises_when_loaded_or_breaks_the_contract_is_refused(tmp_path: Path) -> None:
    root = _pack(tmp_path, rule_b="RULE = 'rule-b'\nraise RuntimeError('boom')\n")
    with pytest.raises(PackError, match=r"rule_b.py raised RuntimeError when loaded: boom"):
        load_pack(root)
    root = _pack(tmp_path / "c", rule_b="RULE = 'rule-b'\n\ndef generate(rng, lb, ub):\n    return {}\n")
    with pytest.raises(PackError, match=r"rule_b.py defines no function verify\(\)"):
        load_pack(root)


def test_no_manifest_or_no_folder_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="is not a folder"):
        load_pack(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(PackError, match=r"has no manifest.json; write one with: continual-arc pack manifest"):
        load_pack(tmp_path / "empty")


def test_the_manifest_written_matches_the_files_and_keeps_the_name(tmp_path: Path) -> None:
    root = _pack(tmp_path)
    path = root / "rules" / "rule_a.py"
    path.write_text(path.read_text() + "\n# a change the author means\n")
    write_manifest(root)
    assert load_pack(root).rules["rule-a"].RULE == "rule-a"
    document = json.loads((root / "manifest.json").read_text())
    assert document["name"] == "mine" and document["version"] == "2"
    assert document["rules"]["rule-a"]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_demo_manifest_is_up_to_date() -> None:
    assert (DEMO / "manifest.json").read_text() == dumps_manifest(build_manifest(DEMO))


def test_draws_are_verified_and_the_same_in_any_process(tmp_path: Path) -> None:
    root = _pack(tmp_path)
    pack = load_pack(root)
    test_input, output = instance(pack, "rule-a", 5)
    assert output == tuple(tuple(9 - x for x in row) for row in test_input)
    demos = demonstrations(pack, "rule-a", 5, 3)
    assert demos[:2] == demonstrations(pack, "rule-a", 5, 2)
    assert len({test_input, *(d[0] for d in demos)}) == 4
    code = (
        "from continual_arc.data.pack import load_pack; from continual_arc.data.pack_draws import instance;"
        f"print(instance(load_pack({str(root)!r}), 'rule-a', 5))"
    )
    for hash_seed in ("0", "123"):
        out = subprocess.run([sys.executable, "-c", code], env={"PYTHONHASHSEED": hash_seed, "PATH": ""},
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        assert out.strip() == str((test_input, output))
