"""The games serve exactly what they served before they became a package of their own.

``fingerprints.json`` was computed on main at 54adeb5, with the games still at
``continual_arc.tracks.arc3.games`` (``python games/tests/fingerprints.py --package
continual_arc.tracks.arc3.games``): every game's generated and served levels at every difficulty and
three seeds, the solver's plans, and every frame of a fixed play. Any change to a game's behaviour,
however small, changes a digest; a change meant to alter a game must say so by bumping the track's
``GAME_DATA_VERSION`` and writing the file again.

At ``GAME_DATA_VERSION`` 4 the file was written again with the fuelled difficulties six games gained
(conveyor, ice-slide, lever-lift and tilt-gravity 4 and 5, portals 4, shape-fit 5 and 6): every digest
the file held before came out unchanged, and only those difficulties' keys were added.

At ``GAME_DATA_VERSION`` 5 it was written again after coin-gate, conveyor, crumble-floor,
guard-patrol, ice-slide and lever-lift gained an element a difficulty (conveyor, ice-slide and
lever-lift now have four difficulties, crumble-floor three), and after the difficulties of other
games that gained one (toggle-pattern, sequence-tiles and slide-puzzle 1-3; magnet, mirror-beam, paint-trail,
pipe-connect and symmetry-draw 2-3; portals 3-4; odd-one-out and push-blocks 3; tilt-gravity 5;
shape-fit 6): only those games' and difficulties' digests changed.

At ``GAME_DATA_VERSION`` 6 it was written again after keys-doors (a decoy door at 1), colour-gates
(a white gate and its washing pad at 2, mixing at 3) and colour-sort (grey tokens and paint pads at
1, a third colour at 2, the black ring at 3) gained an element a difficulty, and so did
bridge-switches (a relocking gate at 2, a linked switch at 3), count-click (a colour-counting decoy
at 3), drop-stack (wild blocks at 1, a bomb at 2, a lidded column at 3), paint-trail (a door and its
key at 3), pipe-connect (anticlockwise pipes at 3) and symmetry-draw (an eraser at 3): only those
games' and difficulties' digests changed.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("arcengine")  # the games need Python 3.12 and the engine

from fingerprints import DIGESTS, fingerprints


def test_every_level_plan_and_frame_is_as_it_was_before_the_move() -> None:
    expected = json.loads(DIGESTS.read_text(encoding="utf-8"))
    actual = fingerprints("continual_arc_games")
    assert sorted(actual) == sorted(expected)
    changed = sorted(
        f"{key} {kind}"
        for key, kinds in expected.items()
        for kind in kinds
        if actual[key][kind] != kinds[kind]
    )
    assert not changed, f"{len(changed)} fingerprints changed, the first: {changed[:5]}"
