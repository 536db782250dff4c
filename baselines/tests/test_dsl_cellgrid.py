"""Cell grids (`dsl.cellgrid`): layouts, the cell steps, and tasks the wide search solves."""

from __future__ import annotations

import random

import numpy as np
from dsl_rig import solves

from continual_arc.core.grids import Grid
from continual_arc_baselines.dsl import execute, parse
from continual_arc_baselines.dsl.cellgrid import cell_layout
from continual_arc_baselines.dsl.ops import WIDE, lookup

Cells = list[list[np.ndarray]]


def g(*rows: str) -> Grid:
    return tuple(tuple(int(c) for c in row) for row in rows)


def run(text: str, grid: Grid) -> Grid | None:
    return execute(parse(text), grid)


def assemble(cells: Cells, sep: int) -> np.ndarray:
    """Cells of equal size joined by one-line separators of colour ``sep``."""
    h, w = cells[0][0].shape
    rows, cols = len(cells), len(cells[0])
    out = np.full((rows * (h + 1) - 1, cols * (w + 1) - 1), sep, dtype=np.uint8)
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            out[r * (h + 1) : r * (h + 1) + h, c * (w + 1) : c * (w + 1) + w] = cell
    return out


def sprinkle(rng: random.Random, h: int, w: int, bg: int, colour: int, n: int) -> np.ndarray:
    """A cell of background with ``n`` pixels of ``colour`` at distinct random places."""
    cell = np.full((h, w), bg, dtype=np.uint8)
    for i in rng.sample(range(h * w), n):
        cell[i // w, i % w] = colour
    return cell


def busiest_filled(rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """3 x 3 cells with a few marks each; the one cell with the most comes out filled, the rest empty."""
    bg, sep, mark = rng.sample([c for c in range(10)], 3)
    counts = [rng.randint(0, 2) for _ in range(9)]
    counts[rng.randrange(9)] = 4
    cells = [[sprinkle(rng, 3, 3, bg, mark, counts[3 * r + c]) for c in range(3)] for r in range(3)]
    wanted = [
        [np.full((3, 3), mark if counts[3 * r + c] == 4 else bg, np.uint8) for c in range(3)]
        for r in range(3)
    ]
    return assemble(cells, sep), assemble(wanted, sep)


def quietest_zoomed(rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """3 x 3 cells of 3 x 3 noise; the cell with the fewest marks, one pixel per cell of the layout."""
    bg, sep = 0, 5
    counts = [rng.randint(4, 7) for _ in range(9)]
    quiet = rng.randrange(9)
    counts[quiet] = 2
    cells = [
        [sprinkle(rng, 3, 3, bg, rng.choice([1, 2, 3, 4]), counts[3 * r + c]) for c in range(3)]
        for r in range(3)
    ]
    chosen = cells[quiet // 3][quiet % 3]
    wanted = [[np.full((3, 3), chosen[r, c], np.uint8) for c in range(3)] for r in range(3)]
    return assemble(cells, sep), assemble(wanted, sep)


def marked_cell_moved(rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """The cell holding the one 4 moves to the cell the 4's place names; the others are emptied."""
    cells = [
        [sprinkle(rng, 3, 3, 0, rng.choice([1, 2, 3]), rng.randint(1, 3)) for _ in range(3)] for _ in range(3)
    ]
    source, target = rng.randrange(9), rng.randrange(9)
    cell = cells[source // 3][source % 3]
    cell[target // 3, target % 3] = 4
    empty = np.zeros((3, 3), np.uint8)
    wanted = [[cell if 3 * r + c == target else empty for c in range(3)] for r in range(3)]
    return assemble(cells, 5), assemble(wanted, 5)


def test_the_busiest_cell_filled_is_found_by_wide_and_not_core() -> None:
    program, core_right = solves(busiest_filled, 1)
    assert program == "cellfill" and not core_right


def test_the_quietest_cell_zoomed_over_the_layout_is_found_by_wide_and_not_core() -> None:
    program, core_right = solves(quietest_zoomed, 2)
    assert program == "cellzoom(few)" and not core_right


def test_the_marker_colour_of_a_moved_cell_is_fitted_and_reads_back() -> None:
    program, core_right = solves(marked_cell_moved, 3)
    assert program == "cellmove{4}" and not core_right
    op = lookup("cellmove{4}")
    assert op is not None and op.text == "cellmove{4}"
    assert lookup("cellmove{x}") is None


def test_lines_of_several_colours_that_cross_cut_cells() -> None:
    # A blue column crossing a red row: the row is uniform but for the crossing.
    grid = g("30100", "00105", "22122", "40100", "00100")
    layout = cell_layout(np.array(grid, np.uint8), 0)
    assert layout is not None
    assert (layout.rows, layout.cols) == (((0, 2), (3, 5)), ((0, 2), (3, 5)))
    assert run("lift(main)", grid) == g("35", "40")
    # A solid cell two lines wide is no pair of separators: the 8s, standing apart, cut instead.
    solid = g(
        "3380008000", "3380108000", "3380008002", "8888888888", "3380008000", "3380008040", "3380008000"
    )
    assert run("lift(main)", solid) == g("312", "304")
    # A uniform line on the border cuts nothing, unless its colour cuts inside too.
    assert cell_layout(np.array(g("3001", "0001", "4001"), np.uint8), 0) is None


def test_background_lines_cut_only_as_a_lattice_both_ways() -> None:
    # Cells of 2 x 2 between empty lines; the odd one out is bottom right.
    grid = g("12012", "21021", "00000", "12034", "21043")
    assert run("cellpick(odd)", grid) == g("34", "43")
    # Empty lines one way only are no layout.
    assert run("cellpick(odd)", g("12312", "00000", "12312")) is None


def test_lift_rules_read_each_cell() -> None:
    # Four cells: 2 marks, 1 mark, none, 2 marks (separators of 5, background 0).
    grid = g("10502", "01500", "55555", "00510", "00501")
    assert run("lift(any) | map(10>0,11>1)", grid) == g("11", "01")
    assert run("lift(n2) | map(10>0,11>1)", grid) == g("10", "01")
    assert run("lift(least) | map(10>0,11>1)", grid) == g("00", "10")


def test_the_cell_steps_do_not_apply_without_cells_or_a_choice() -> None:
    plain = g("1200", "0340", "0005")
    for text in ("lift(main)", "cellfill", "cellzoom(few)", "cellcopy(own)", "cellpick(odd)", "cellmove{4}"):
        assert run(text, plain) is None
    # Every cell alike: no cell is odd, none busiest.
    same = g("10510", "00500", "55555", "10510", "00500")
    assert run("cellpick(odd)", same) is None
    assert run("cellfill", same) is None
    assert run("lift(any)", same) is None


def test_the_busiest_pattern_is_copied_into_every_cell() -> None:
    # The top-left cell holds three marks, the bottom-left one; the pattern fills the background.
    grid = g("1103000", "0103000", "3333333", "0003000", "1003000")
    assert run("cellcopy(own)", grid) == g("1103110", "0103010", "3333333", "1103110", "1103010")
    assert run("cellcopy(sep)", grid) == g("1103330", "0103030", "3333333", "3303330", "1303030")


def test_the_second_of_two_cells_folds_onto_the_first() -> None:
    # Right cell "002" / "300" mirrored is "200" / "003"; it shows only where the left is empty.
    assert run("cellfold", g("1005002", "0205300")) == g("100", "023")
    # Three cells are no fold.
    assert run("cellfold", g("10501520", "02503500")) is None


def test_the_key_cell_colours_the_pattern_by_quarters() -> None:
    grid = g("1250000", "3450000", "5555555", "0058000", "0050080", "0050800", "0050008")
    assert run("cellkey", grid) == g("1000", "0020", "0300", "0004")


def test_cells_join_pixel_by_pixel_across_the_cells_between() -> None:
    # Row of three 2 x 2 cells: the 4 at the top right of the outer two reaches the middle one;
    # the 2s sit at different places, so they join nothing. Separators 0, cells' background 1.
    grid = g("14011014", "21011012")
    assert run("cellconnect", grid) == g("14014014", "21011012")
    # Nothing to join: the step does not apply.
    assert run("cellconnect", g("14011011", "11011011")) is None


def test_the_one_full_cell_is_mirrored_into_four_in_the_separators_colour() -> None:
    # The top-right cell "110" / "010" in 5s, turned as a top-left cell ("055" / "050"), mirrored.
    grid = g("0005110", "0005010", "5555555", "0005000", "0005000")
    assert run("cellmirror", grid) == g("055550", "050050", "050050", "055550")
    # Two full cells: which to mirror is not said.
    assert run("cellmirror", g("1005110", "0005010", "5555555", "0005000", "0005000")) is None


def test_each_cell_turns_the_one_before_it_a_quarter() -> None:
    # "12" / "00" turned clockwise is "01" / "02", and again "00" / "21".
    assert run("cellturn", g("12500500", "00500500")) == g("12501500", "00502521")
    # The source may stand later: the cells before it turn back.
    assert run("cellturn", g("00501500", "00502500")) == g("12501500", "00502521")


def test_the_cell_steps_take_labels_and_odd_grids_without_failing() -> None:
    # Intermediate grids hold labels of 10 and up; the steps answer a grid or None, never raise.
    from continual_arc_baselines.dsl.cellgrid import cellmove_op
    from continual_arc_baselines.dsl.grid import Context

    ops = [op for op in WIDE.ops if op.text.startswith(("lift", "zoom", "cell"))] + [cellmove_op(4)]
    # The cells' background is a label one cell lacks.
    labelled = np.array(
        [[46, 46, 5, 1, 1], [46, 46, 5, 1, 1], [5] * 5, [46, 46, 5, 46, 46], [46, 46, 5, 46, 46]]
    )
    lifted = WIDE.by_text["lift(main)"](labelled.astype(np.uint8), Context(labelled.astype(np.uint8)))
    assert lifted is not None and lifted.tolist() == [[46, 1], [46, 46]]
    rng = np.random.default_rng(7)
    for trial in range(60):
        h, w = (int(v) for v in rng.integers(1, 13, 2))
        values = [0, 0, 0, 1, 4, 10, 11, 46] if trial % 3 else [46, 46, 46, 0, 1, 11]
        a = rng.choice(values, size=(h, w)).astype(np.uint8)
        if trial % 2 and h > 4 and w > 4:
            a[h // 2, :] = 46 if trial % 4 == 1 else 5
            a[:, w // 3] = 5
        ctx = Context(a)
        for op in ops:
            out = op(a, ctx)
            assert out is None or (out.ndim == 2 and out.dtype == np.uint8)
