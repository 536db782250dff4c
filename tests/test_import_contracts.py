"""Every import-linter contract of pyproject.toml holds, and each one bites.

The contracts are checked on the real import graph, then again with one import added that a
contract must refuse (taken out again after): that contract must then be broken, so a contract
that checks nothing (a misspelt module, a layer in the wrong place) fails here.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.api import read_configuration
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract

ROOT = Path(__file__).resolve().parents[1]
_TYPES: dict[str, Any] = {
    "forbidden": ForbiddenContract,
    "layers": LayersContract,
    "independence": IndependenceContract,
}

LAYERS = "the stages of the core are layers"
TRACKS = "the tracks are independent of each other"
STABLE_ON_TOP = "no stage imports the stable import paths built on top of them"
CORE_ALONE = "the core never imports the baselines"
BASELINES_STABLE = "the baselines use only the stable import paths of the core"
DSL = "the baselines' dsl is independent of the model, proxy and harness code"
GAMES = "the games import nothing of the benchmark"

# One import that each contract must refuse: (the contract, importer, imported).
BITES = [
    (LAYERS, "continual_arc.core.grids", "continual_arc.play.learner"),  # a stage importing upward
    (LAYERS, "continual_arc.view.app", "continual_arc.submit.check"),  # siblings: view, submit
    (LAYERS, "continual_arc.sweep.driver", "continual_arc.view.export"),  # siblings: sweep, view
    (LAYERS, "continual_arc.submit.verify", "continual_arc.sweep.units"),  # siblings: submit, sweep
    (TRACKS, "continual_arc.tracks.arc1", "continual_arc.tracks.toy"),
    (STABLE_ON_TOP, "continual_arc.play.runner", "continual_arc.grids"),
    (CORE_ALONE, "continual_arc.tracks.registry", "continual_arc_baselines.library"),
    (BASELINES_STABLE, "continual_arc_baselines.dsl.grid", "continual_arc.core.grids"),
    (BASELINES_STABLE, "continual_arc_baselines.harness.folders", "continual_arc.core.files"),
    (DSL, "continual_arc_baselines.dsl.search", "continual_arc_baselines.model.client"),
    (DSL, "continual_arc_baselines.dsl.program", "continual_arc_baselines.proxy.server"),
    (DSL, "continual_arc_baselines.dsl.ops", "continual_arc_baselines.harness.system"),
    (GAMES, "continual_arc_games.draw", "continual_arc.core.grids"),
    (GAMES, "continual_arc_games.base", "continual_arc_baselines.explorer"),
]


@pytest.fixture(scope="module")
def config() -> dict[str, Any]:
    return read_configuration(str(ROOT / "pyproject.toml"))


@pytest.fixture(scope="module")
def graph() -> Iterator[grimp.ImportGraph]:
    # The games install only on Python 3.12 (their engine's); elsewhere they are read as source.
    sys.path.insert(0, str(ROOT / "games" / "src"))
    try:
        yield grimp.build_graph(
            "continual_arc", "continual_arc_baselines", "continual_arc_games", cache_dir=None
        )
    finally:
        sys.path.remove(str(ROOT / "games" / "src"))


def _kept(config: dict[str, Any], graph: grimp.ImportGraph) -> dict[str, bool]:
    kept = {}
    for options in config["contracts_options"]:
        contract = _TYPES[options["type"]](options["name"], config["session_options"], options)
        kept[options["name"]] = contract.check(graph, verbose=False).kept
    return kept


def test_every_contract_holds_and_has_an_import_that_breaks_it(
    config: dict[str, Any], graph: grimp.ImportGraph
) -> None:
    kept = _kept(config, graph)
    assert kept == dict.fromkeys(kept, True)
    assert set(kept) == {LAYERS, TRACKS, STABLE_ON_TOP, CORE_ALONE, BASELINES_STABLE, DSL, GAMES}
    assert {name for name, _, _ in BITES} == set(kept)


@pytest.mark.parametrize(("contract", "importer", "imported"), BITES)
def test_the_contract_bites(
    config: dict[str, Any], graph: grimp.ImportGraph, contract: str, importer: str, imported: str
) -> None:
    assert importer in graph.modules and imported in graph.modules  # no misspelt module proves nothing
    assert not graph.direct_import_exists(importer=importer, imported=imported)
    graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="import")
    try:
        kept = _kept(config, graph)
    finally:
        graph.remove_import(importer=importer, imported=imported)
    assert not kept[contract]
