"""What a protocol plays, resolved once at the edge and handed down whole."""

from __future__ import annotations

import pickle

import pytest

from continual_arc.core.config import ScheduleError
from continual_arc.core.learner_ref import LearnerRef
from continual_arc.play.options import RunOptions
from continual_arc.protocol.play import ProtocolOptions, ProtocolSpec
from continual_arc.protocol.plays import ProtocolError
from continual_arc.tracks.registry import get_config


def test_named_resolves_the_configuration_once() -> None:
    spec = ProtocolSpec.named("m:C", "arc1-small", kwargs={"keep": "demos"}, seed=2, users=4)
    assert spec.config == get_config("arc1") and spec.config.name == "arc1"  # the older name, resolved
    assert spec.learner == LearnerRef("m:C", {"keep": "demos"})
    assert (spec.seed, spec.users) == (2, 4)
    assert pickle.loads(pickle.dumps(spec)) == spec  # a sweep's unit carries it to a worker


def test_an_unknown_configuration_is_one_sentence_before_anything_is_written() -> None:
    with pytest.raises(ScheduleError, match="no configuration named 'nope'; known: "):
        ProtocolSpec.named("m:C", "nope")


def test_a_protocol_takes_no_plug_ins(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ProtocolError, match="a protocol plays no plug-ins"):
        ProtocolOptions(tmp_path, run=RunOptions(plugins=[object()]))  # type: ignore[list-item]
