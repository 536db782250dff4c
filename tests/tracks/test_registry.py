"""The open registry: one call registers a track, the entry-point group declares more, read only on need."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

from continual_arc.core.config import ScheduleError
from continual_arc.tracks import registry
from continual_arc.tracks.grid_env import GridEnv
from continual_arc.tracks.toy import TOY, toy_fixed_source, toy_generative_source
from continual_arc.tracks.track import Track, TrackUnavailableError, smoke_config

GROUP = "continual_arc.tracks"


def _track(name: str) -> Track:
    return Track(
        name=name,
        roles={"stream": f"{name}/generative", "held-out": f"{name}/fixed"},
        factories={f"{name}/generative": toy_generative_source, f"{name}/fixed": toy_fixed_source},
        configs=(smoke_config(f"{name}-smoke", name, task_seed=0),),
        environment=GridEnv,
    )


def _unavailable() -> Track:
    raise TrackUnavailableError("the gizmo track needs gizmo: install gizmo", configs=("gizmo", "gizmo-tiny"))


@pytest.fixture
def declared(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A fresh registry (the built-in tracks only) whose entry-point group is this list, reads counted."""
    fresh = registry._Registry()
    for track in (registry.ARC1, registry.ARC2, TOY):
        fresh.register(track, None)
    monkeypatch.setattr(registry, "_REGISTRY", fresh)
    module = types.ModuleType("fake_tracks")
    module.WIDGET = _track("widget")  # type: ignore[attr-defined]
    module.unavailable = _unavailable  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_tracks", module)
    entries: list[EntryPoint] = []
    reads: list[str] = []

    def entry_points(*, group: str) -> list[EntryPoint]:
        reads.append(group)
        return [e for e in entries if e.group == group]

    monkeypatch.setattr(registry, "entry_points", entry_points)
    entries.append(EntryPoint("widget", "fake_tracks:WIDGET", GROUP))
    entries.append(EntryPoint("gizmo", "fake_tracks:unavailable", GROUP))
    entries.append(EntryPoint("broken", "no_such_module_anywhere:TRACK", GROUP))
    entries.append(EntryPoint("odd", "fake_tracks", GROUP))  # a module, not a track
    yield reads


def test_a_built_in_name_never_reads_the_entry_points(declared: list[str]) -> None:
    assert registry.get_track("toy") is TOY
    assert registry.get_config("toy-smoke").track == "toy"
    assert registry.get_source("toy/fixed") is TOY.source_named("toy/fixed")
    assert declared == []


def test_a_declared_track_is_found_by_its_name_and_its_configurations(declared: list[str]) -> None:
    widget = registry.get_track("widget")
    assert widget.name == "widget" and declared == [GROUP]
    assert registry.get_config("widget-smoke") is widget.configs[0]
    assert set(registry.TRACKS) == {"arc1", "arc2", "toy", "widget"}
    assert "widget-smoke" in registry.CONFIGS and "widget/fixed" in registry.source_names()
    with pytest.raises(ScheduleError):
        registry.get_track("nothing-such")
    assert declared == [GROUP]  # read once, whatever is asked after


def test_a_track_that_cannot_run_says_why_in_one_sentence(declared: list[str]) -> None:
    assert registry.UNAVAILABLE["gizmo"] == "the gizmo track needs gizmo: install gizmo"
    for ask in (lambda: registry.get_track("gizmo"), lambda: registry.get_config("gizmo-tiny")):
        with pytest.raises(ScheduleError, match=r"^the gizmo track needs gizmo: install gizmo$"):
            ask()
    assert registry.UNAVAILABLE["broken"].startswith(
        "the track broken cannot be loaded here (No module named"
    )
    with pytest.raises(ScheduleError, match=r"^no track named 'nope'; known: arc1, arc2, toy, widget "):
        registry.get_track("nope")


def test_register_track_is_the_one_call_and_a_name_means_one_track(declared: list[str]) -> None:
    mine = _track("mine")
    assert registry.register_track(mine) is mine and registry.register_track(mine) is mine
    assert registry.get_track("mine") is mine and registry.get_config("mine-smoke") is mine.configs[0]
    with pytest.raises(ScheduleError, match="a track named mine is already registered"):
        registry.register_track(_track("mine"))
    with pytest.raises(ScheduleError, match="a track named toy is already registered"):
        registry.register_track(_track("toy"))


def test_the_installed_arc3_entry_point_names_the_track_function() -> None:
    from importlib.metadata import entry_points

    (arc3,) = [e for e in entry_points(group=GROUP) if e.name == "arc3"]
    assert arc3.value == "continual_arc.tracks.arc3:load_track"
