"""What installed packages declare to the core: default learners by track, reference learners, run options."""

from __future__ import annotations

import argparse
import os
from importlib.metadata import EntryPoint

import pytest

from continual_arc.play import declared
from continual_arc.play.learner import LearnerSpecError
from continual_arc.tracks.registry import get_track

LIBRARY = "continual_arc_baselines.library:ProgramLibraryLearner"
EXPLORER = "continual_arc_baselines.explorer:GameExplorer"


def _declare(monkeypatch: pytest.MonkeyPatch, entries: list[EntryPoint]) -> None:
    monkeypatch.setattr(declared, "entry_points", lambda *, group: [e for e in entries if e.group == group])


def test_the_baselines_declare_the_defaults_the_core_used_to_name() -> None:
    # The installed baselines (baselines/pyproject.toml): the library on grids, the explorer on games.
    assert declared.track_default_learner(get_track("arc1")) == LIBRARY
    assert declared.track_default_learner(get_track("toy")) == LIBRARY
    assert declared.reference_learner("bare") == "continual_arc_baselines.systems.bare:BareModelLearner"
    assert [type(o).__name__ for o in declared.run_options()] == ["SearchCacheOption"]
    assert declared.run_option_env() == ("CONTINUAL_ARC_NO_SEARCH_CACHE",)


def test_a_track_name_wins_over_its_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    group = declared.DEFAULT_LEARNERS
    _declare(monkeypatch, [EntryPoint("grid", "a:Grid", group), EntryPoint("toy", "b:Toy", group)])
    assert declared.track_default_learner(get_track("toy")) == "b:Toy"
    assert declared.track_default_learner(get_track("arc1")) == "a:Grid"


def test_no_declared_default_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    _declare(monkeypatch, [])
    with pytest.raises(LearnerSpecError, match=r"^no learner was named and no installed package declares"):
        declared.track_default_learner(get_track("arc1"))
    assert declared.reference_learner("bare") is None and declared.run_options() == ()


def test_the_search_cache_switch_reaches_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # Set empty (the cache allowed) so that monkeypatch restores the variable after the switch sets it.
    monkeypatch.setenv("CONTINUAL_ARC_NO_SEARCH_CACHE", "")
    parser = argparse.ArgumentParser()
    (option,) = declared.run_options()
    option.add_to(parser)
    option.apply(parser.parse_args([]))
    assert os.environ["CONTINUAL_ARC_NO_SEARCH_CACHE"] == ""
    option.apply(parser.parse_args(["--no-search-cache"]))
    assert os.environ["CONTINUAL_ARC_NO_SEARCH_CACHE"] == "1"


def test_an_entry_that_is_no_run_option_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _declare(monkeypatch, [EntryPoint("odd", "os:sep", declared.RUN_OPTIONS)])
    with pytest.raises(LearnerSpecError, match=r"the run option odd \(os:sep\) lacks env, add_to or apply"):
        declared.run_options()
