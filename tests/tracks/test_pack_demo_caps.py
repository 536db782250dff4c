"""A pack's manifest sets its held-out rules' demonstration caps, and the learner's observation shows them."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from continual_arc.core.actions import RequestDemos
from continual_arc.core.environment import EnvSettings
from continual_arc.data.pack import MAX_DEMO_CAP, PackError, build_manifest, load_pack
from continual_arc.tracks.pack import pack_track
from continual_arc.tracks.sources import DEMO_CAP

# Six rules, each adding its own constant to every colour of a 3x3 grid: the screen passes them.
RULE = """
RULE = "shift-{k}"


def generate(rng, diff_lb=0.0, diff_ub=1.0):
    grid = [[rng.randrange(10) for _ in range(3)] for _ in range(3)]
    return {{"input": grid, "output": verify(grid)}}


def verify(grid):
    return [[(x + {k}) % 10 for x in row] for row in grid]
"""

CAPS = {"shift-1": 2, "shift-2": 3, "shift-3": 4, "shift-4": 5, "shift-5": 6, "shift-6": 7}
"""The caps the test's manifest sets: a different one per rule, so each held-out rule shows its own."""


def _pack(tmp_path: Path, caps: dict[str, object]) -> Path:
    root = tmp_path / "capped"
    (root / "rules").mkdir(parents=True)
    rules: dict[str, dict[str, object]] = {}
    for k in range(1, 7):
        path = root / "rules" / f"shift_{k}.py"
        path.write_text(RULE.format(k=k))
        rules[f"shift-{k}"] = {
            "file": f"rules/{path.name}",
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        }
        if f"shift-{k}" in caps:
            rules[f"shift-{k}"]["demo_cap"] = caps[f"shift-{k}"]
    document = {"name": "capped", "version": "1", "description": "demo caps", "rules": rules}
    (root / "manifest.json").write_text(json.dumps(document))
    return root


def test_the_cap_a_manifest_sets_reaches_the_held_out_observation(tmp_path: Path) -> None:
    track = pack_track(load_pack(_pack(tmp_path, dict(CAPS))))
    held = track.source_for("held-out").task_ids()
    streamed = track.source_for("stream").task_ids()
    assert held and streamed
    for rule in held:
        env = track.open("held-out", rule, 5, EnvSettings())
        assert env.view("t", 0, 0, 0).demo_cap == CAPS[rule]
        # the cap holds: every demonstration below it is served, the one past it refused at no cost
        for _ in range(CAPS[rule]):
            env.step(RequestDemos())
        assert len(env.view("t", 0, 0, 0).demos) == CAPS[rule]
        env.step(RequestDemos())
        assert len(env.view("t", 0, 0, 0).demos) == CAPS[rule]
    # a streamed rule stands where arc1 serves Re-ARC's draws: it offers eight whatever its entry says
    for rule in streamed:
        assert track.open("stream", rule, 5, EnvSettings()).view("t", 0, 0, 0).demo_cap == 8


def test_without_a_cap_every_instance_offers_eight(tmp_path: Path) -> None:
    track = pack_track(load_pack(_pack(tmp_path, {})))
    for phase in ("stream", "held-out"):
        for rule in track.source_for(phase).task_ids():
            assert track.open(phase, rule, 5, EnvSettings()).view("t", 0, 0, 0).demo_cap == 8


@pytest.mark.parametrize("bad", [0, 9, -1, "3", 2.5, True, None])
def test_a_bad_cap_is_refused_in_one_sentence(tmp_path: Path, bad: object) -> None:
    root = _pack(tmp_path, {"shift-2": bad})
    with pytest.raises(
        PackError, match=r"^the manifest's demo_cap of rule shift-2 must be an integer from 1 to 8, not "
    ):
        load_pack(root)


def test_rewriting_the_manifest_keeps_the_caps(tmp_path: Path) -> None:
    root = _pack(tmp_path, {"shift-3": 4})
    rules = build_manifest(root)["rules"]
    assert rules["shift-3"]["demo_cap"] == 4
    assert all("demo_cap" not in entry for rule, entry in rules.items() if rule != "shift-3")


def test_the_largest_cap_is_what_any_instance_offers() -> None:
    assert MAX_DEMO_CAP == DEMO_CAP == 8
