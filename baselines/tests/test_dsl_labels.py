"""Every primitive accepts a grid of labels: an intermediate state whose commonest value is past 15."""

from __future__ import annotations

import numpy as np
import pytest

from continual_arc_baselines.dsl.grid import Context, counts_without
from continual_arc_baselines.dsl.ops import WIDE


def _labelled(label: int) -> list[np.ndarray]:
    """Two 9x9 grids: colours 1 to 3 on a field of ``label`` (a mask's or a rank's value)."""
    a = np.full((9, 9), label, dtype=np.uint8)
    a[1:3, 1:4] = 1
    a[5:8, 5:7] = 2
    a[4, :] = 3
    a[6, 1] = 1
    b = a.copy()
    b[0:2, 7:9] = 1
    return [a, b]


@pytest.mark.parametrize("label", [10, 11, 16, 200, 238])
def test_no_primitive_raises_on_a_field_of_labels(label: int) -> None:
    # The program's input has background 0, absent from the state, so a step takes the state's own
    # commonest value, the label, as its background (a stream instance once died of this).
    original = np.zeros((9, 9), dtype=np.uint8)
    original[1, 1] = 4
    ctx = Context(original)
    raised = []
    for grid in _labelled(label):
        for op in WIDE.ops:  # wide holds every step of core
            try:
                op(grid, ctx)
            except Exception as err:  # every primitive that raises is listed, not just the first
                raised.append(f"{op.text}: {err!r}")
    assert raised == []


def test_counts_without_a_value_the_array_lacks() -> None:
    cells = np.array([[1, 1, 2]], dtype=np.uint8)
    assert counts_without(cells, 238).tolist()[:3] == [0, 2, 1]  # 238 is simply not counted
    assert counts_without(cells, 1).tolist()[:3] == [0, 0, 1]
