"""Fitted moves: objects aligned with, slid to, snapped to or mirrored across an anchor that stays."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from dsl_rig import made_task

from continual_arc.core.grids import Grid, Pair
from continual_arc_baselines.dsl import ProgramError, execute, parse, search
from continual_arc_baselines.dsl.aligning import KINDS, MOVER_MODES, NAMED, Rule, fit_moves
from continual_arc_baselines.dsl.catalogue import FitInput
from continual_arc_baselines.dsl.grid import Context, to_array
from continual_arc_baselines.dsl.ops import CORE, WIDE

Cells = list[list[int]]


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def _grid(cells: Cells) -> Grid:
    return tuple(tuple(row) for row in cells)


def _aligned(rng: random.Random) -> Pair:
    """Blue (1) 2x2 anchor in a column of its own; two other 2x2 blocks in their own columns.

    The output puts each other block on the anchor's rows, its column unchanged.
    """
    h, w = rng.randint(8, 12), 11
    anchor_row = rng.randint(0, h - 2)
    colours = rng.sample([2, 3, 4, 5, 6, 7, 8, 9], 2)
    columns = [0, 4, 8]
    rng.shuffle(columns)
    grid_in = [[0] * w for _ in range(h)]
    grid_out = [[0] * w for _ in range(h)]
    blocks = [(1, columns[0], anchor_row)] + [
        (c, x, rng.choice([r for r in range(h - 1) if r != anchor_row]))
        for c, x in zip(colours, columns[1:], strict=True)
    ]
    for colour, x, row in blocks:
        for dy in range(2):
            for dx in range(2):
                grid_in[row + dy][x + dx] = colour
                grid_out[anchor_row + dy][x + dx] = colour
    return _grid(grid_in), _grid(grid_out)


def _snapped(rng: random.Random) -> Pair:
    """Two full columns, red (2) at 3 and green (3) at 9; dots of red, green and yellow (4).

    Each red or green dot moves along its row to the cell next to the line of its colour, on its
    own side; yellow dots, which have no line, vanish.
    """
    h, w = 10, 13
    grid_in = [[0] * w for _ in range(h)]
    grid_out = [[0] * w for _ in range(h)]
    lines = {2: 3, 3: 9}
    for row in range(h):
        for colour, x in lines.items():
            grid_in[row][x] = grid_out[row][x] = colour
    for row in rng.sample(range(h), 6):
        colour = rng.choice([2, 3, 4])
        x = rng.choice([c for c in range(w) if c not in lines.values()])
        grid_in[row][x] = colour
        if colour in lines:
            line = lines[colour]
            grid_out[row][line - 1 if x < line else line + 1] = colour
    return _grid(grid_in), _grid(grid_out)


def _first(demos: list[Pair], test: Grid, wide: bool) -> tuple[str, Grid] | None:
    result = search(demos, test, catalogue=WIDE if wide else CORE)
    if not result.candidates:
        return None
    return result.candidates[0].program.text, result.candidates[0].prediction


@pytest.mark.parametrize(
    ("make", "seed", "step"), [(_aligned, 7, "move(rows){1;"), (_snapped, 3, "move(snap){L;")]
)
def test_the_wide_search_finds_the_move_and_core_does_not(
    make: Callable[[random.Random], Pair], seed: int, step: str
) -> None:
    demos, (test_in, test_out) = made_task(make, seed, 4)
    wide = _first(demos, test_in, wide=True)
    assert wide is not None
    assert wide[0].startswith(step)
    assert wide[1] == test_out
    core = _first(demos, test_in, wide=False)
    assert core is None or core[1] != test_out


def test_a_kept_move_runs_again_from_its_text() -> None:
    text = "move(rows){1;m8}"
    assert parse(text).text == text
    grid = g("0000000", "1100000", "1100022", "0000022", "0033000", "0033000")
    assert execute(parse(text), grid) == g("0000000", "1133022", "1133022", "0000000", "0000000", "0000000")
    # No blue anchor: the step does not apply.
    assert execute(parse(text), g("000", "020", "000")) is None


def test_mirror_and_flip_carry_a_piece_across_the_bracket() -> None:
    grid = g("00000", "00000", "00000", "22222", "20002", "00500", "05550")
    # About the bracket's base (row 3): rows 5-6 land in rows 1-0, upside down.
    assert execute(parse("move(mirror){2;m8}"), grid) == g(
        "05550", "00500", "00000", "22222", "20002", "00000", "00000"
    )
    # Against the bracket's far side instead (rows 2-1), upside down as well.
    assert execute(parse("move(flip){2;m8}"), grid) == g(
        "00000", "05550", "00500", "22222", "20002", "00000", "00000"
    )


def test_touch_slides_and_step_moves_one_cell_toward_the_anchor() -> None:
    touch = g("0003000", "0000000", "3001000", "0000000", "0003000")
    assert execute(parse("move(touch){1;m8}"), touch) == g(
        "0000000", "0003000", "0031000", "0003000", "0000000"
    )
    step = g("0003000", "0000000", "3001000", "0000000", "0003003")
    # Straight where it shares a row or column with the anchor, diagonally where it shares neither.
    assert execute(parse("move(step){1;m8}"), step) == g(
        "0000000", "0003000", "0301000", "0003030", "0000000"
    )


def test_the_fitter_refuses_what_no_move_explains() -> None:
    demos, (test_in, _) = made_task(_aligned, 11, 4)
    inputs = (*(to_array(i) for i, _ in demos), to_array(test_in))
    contexts = tuple(Context(a) for a in inputs)
    outputs = tuple(to_array(o) for _, o in demos)
    assert fit_moves(FitInput(inputs, outputs, contexts))[0].text == "move(rows){1;m8}"
    # A recoloured block is no move.
    recoloured = tuple(np.where(o == 2, 9, o).astype(np.uint8) for o in outputs)
    assert fit_moves(FitInput(inputs, recoloured, contexts)) == []
    # One output shifted down a row, anchor and all: no rule keeps the anchor and says that.
    shifted = (np.roll(outputs[0], 1, axis=0), *outputs[1:])
    assert fit_moves(FitInput(inputs, shifted, contexts)) == []


def test_every_move_the_fitter_may_write_parses_back() -> None:
    for rule in (Rule(k, a, m) for k in KINDS for a in ("0", "13", *NAMED) for m in MOVER_MODES):
        if (rule.anchor == "M" and rule.mode != "m8") or (rule.mode == "1" and rule.kind != "mirror"):
            continue  # the fitter never writes these: one object moves whole, cells only mirror
        assert parse(rule.text).text == rule.text


@pytest.mark.parametrize(
    "text",
    [
        "move(rows){1;x}",
        "move(spin){1;m8}",
        "move(rows){21;m8}",
        "move(rows){M;8}",
        "move(rows){1}",
        "move(rows){1;1}",
    ],
)
def test_malformed_moves_do_not_parse(text: str) -> None:
    with pytest.raises(ProgramError):
        parse(text)
