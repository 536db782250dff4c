from __future__ import annotations

import pytest

from continual_arc.tracks.registry import CONFIGS, TRACKS, get_source, source_names
from continual_arc.tracks.sources import DEMO_CAP, TaskSource, UnknownTaskError


def test_registry_builds_each_source_once() -> None:
    assert get_source("toy/generative") is get_source("toy/generative")
    assert isinstance(get_source("arc1/evaluation"), TaskSource)


def test_unknown_names() -> None:
    with pytest.raises(UnknownTaskError, match="no task source named 'nope'"):
        get_source("nope")
    with pytest.raises(UnknownTaskError, match="does not serve task 'zzz'"):
        get_source("toy/generative").instance("zzz", 0)


def test_registry_is_immutable() -> None:
    with pytest.raises(TypeError):
        TRACKS["custom"] = TRACKS["toy"]  # type: ignore[index]
    with pytest.raises(TypeError):
        CONFIGS["custom"] = CONFIGS["toy-smoke"]  # type: ignore[index]
    # Packs given to this process (by another test on this worker) add their sources: left out here.
    assert tuple(name for name in source_names() if name.split("/")[0] in {"arc1", "arc2", "toy"}) == (
        "arc1/evaluation",
        "arc1/rearc",
        "arc1/training",
        "arc2/arc-gen",
        "arc2/evaluation",
        "arc2/training",
        "toy/fixed",
        "toy/generative",
    )
    assert {name: track.roles["stream"] for name, track in TRACKS.items()} == {
        "arc1": "arc1/rearc",
        "arc2": "arc2/arc-gen",
        "toy": "toy/generative",
    }


def test_arc1_sources() -> None:
    rearc = get_source(TRACKS["arc1"].roles["stream"])
    evaluation = get_source(TRACKS["arc1"].roles["held-out"])
    assert rearc.kind == "generative" and evaluation.kind == "fixed"
    assert len(rearc.task_ids()) == 400 and len(evaluation.task_ids()) == 400
    assert not set(rearc.task_ids()) & set(evaluation.task_ids())
    inst = rearc.instance("007bbfb7", 1)
    assert inst.demo_cap == DEMO_CAP
    assert inst.demonstration(0) == inst.demonstration(0)
    with pytest.raises(IndexError):
        inst.demonstration(8)


def test_evaluation_instance_uses_its_own_pairs() -> None:
    source = get_source("arc1/evaluation")
    task = source.task_ids()[0]
    train, test = source.pairs(task)  # type: ignore[attr-defined]
    inst = source.instance(task, 0)
    assert (inst.input, inst.output) in test
    assert inst.demo_cap == min(len(train), 8)
    assert [inst.demonstration(k) for k in range(inst.demo_cap)] == list(train[: inst.demo_cap])


def test_describe_records_versions() -> None:
    desc = get_source("arc1/rearc").describe()
    assert desc["kind"] == "generative"
    assert desc["versions"]["reasoning-gym"] == "0.1.25"
