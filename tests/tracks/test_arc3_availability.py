"""Without the arc3 extra (the core's Python 3.11), arc3 is listed unavailable with what to install."""

from __future__ import annotations

import importlib.util

import pytest

from continual_arc.cli import main
from continual_arc.core.config import Config, ScheduleError
from continual_arc.tracks.registry import TRACKS, UNAVAILABLE, get_config, get_track

HAS_ENGINE = importlib.util.find_spec("arcengine") is not None


@pytest.mark.skipif(HAS_ENGINE, reason="arcengine is installed here: the arc3 track is available")
def test_arc3_is_unavailable_in_one_sentence_never_a_crash(capsys: pytest.CaptureFixture[str]) -> None:
    assert "arc3" not in TRACKS and 'pip install -e ./games -e ".[arc3]"' in UNAVAILABLE["arc3"]
    for ask in (lambda: get_track("arc3"), lambda: get_config("arc3"), lambda: get_config("arc3-smoke")):
        with pytest.raises(ScheduleError, match=r"Python 3\.12"):
            ask()
    assert main(["schedule", "make", "--config", "arc3", "--out", "never.json"]) == 2
    assert "pip install -e ./games" in capsys.readouterr().err


def test_held_out_instances_is_left_out_of_a_configuration_at_its_default() -> None:
    config = get_config("arc1")
    assert config.held_out_instances == 1 and "held_out_instances" not in config.to_dict()
    assert Config.from_dict(config.to_dict()) == config
    with pytest.raises(ScheduleError):
        Config(name="x", track="arc1", held_out_instances=0)
