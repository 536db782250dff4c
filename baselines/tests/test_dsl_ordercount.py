"""Ordered counts: the first N cells of an order the demonstrations reveal (`dsl.ordercount`)."""

from __future__ import annotations

from dsl_rig import check_fitted, fit_input

from continual_arc_baselines.dsl.ordercount import fit_countin, parse_countin

# Count the grey cells; paint that many cells of a 3 x 3 output yellow, down the diagonal.
_ONE = [[0, 0, 0, 0], [0, 5, 0, 0], [0, 0, 0, 0]]
_TWO = [[5, 0, 0, 0], [0, 0, 0, 0], [0, 0, 5, 0]]
_THREE = [[5, 0, 5, 0], [0, 0, 0, 0], [0, 5, 0, 0]]
_DEMOS = [
    (_ONE, [[4, 0, 0], [0, 0, 0], [0, 0, 0]]),
    (_TWO, [[4, 0, 0], [0, 4, 0], [0, 0, 0]]),
    (_THREE, [[4, 0, 0], [0, 4, 0], [0, 0, 4]]),
]


def test_countin_reads_the_order_the_counts_reveal() -> None:
    # Count 1 paints cell 0, count 2 adds cell 4, count 3 adds cell 8: the order is 0, 4, 8.
    test = [[0, 5, 0, 0], [0, 0, 0, 0], [5, 0, 0, 0]]
    given = fit_input(_DEMOS, test)
    ops = fit_countin(given)
    assert ops and ops[0].text == "countin(o8){4,c0,3x3,0.4.8}"
    check_fitted(ops[0], given, [[4, 0, 0], [0, 4, 0], [0, 0, 0]])


def test_countin_paints_on_the_test_inputs_own_background() -> None:
    # The ground is the input's commonest colour (c0): on a green test grid the answer is green.
    test = [[3, 5, 3, 3], [3, 3, 3, 3], [5, 3, 5, 3]]
    given = fit_input(_DEMOS, test)
    ops = fit_countin(given)
    assert ops
    check_fitted(ops[0], given, [[4, 3, 3], [3, 4, 3], [3, 3, 4]])


def test_countin_needs_nested_outputs() -> None:
    # Count 2 paints the cells 1 and 4, which do not hold count 1's cell 0: no order.
    demos = [_DEMOS[0], (_TWO, [[0, 4, 0], [0, 4, 0], [0, 0, 0]]), _DEMOS[2]]
    assert fit_countin(fit_input(demos, _TWO)) == []


def test_countin_leaves_reading_order_and_unseen_counts_to_others() -> None:
    reading = [
        (_ONE, [[4, 0, 0], [0, 0, 0], [0, 0, 0]]),
        (_TWO, [[4, 4, 0], [0, 0, 0], [0, 0, 0]]),
        (_THREE, [[4, 4, 4], [0, 0, 0], [0, 0, 0]]),
    ]
    assert fit_countin(fit_input(reading, _TWO)) == []
    # Four grey cells: more than any demonstration shows, so where the fourth goes is unknown.
    four = [[5, 0, 5, 0], [0, 0, 0, 0], [5, 0, 5, 0]]
    assert fit_countin(fit_input(_DEMOS, four)) == []


def test_countin_parses_only_its_own_text() -> None:
    op = parse_countin("countin(o8){4,c0,3x3,0.4.8}")
    assert op is not None and op.text == "countin(o8){4,c0,3x3,0.4.8}"
    assert parse_countin("countin(o8){4,c0,2x2,0.0}") is None
    assert parse_countin("countin(o8){4,k,2x2,0.3}") is None
    assert parse_countin("count(o8,first){4,c0,2,2}") is None
