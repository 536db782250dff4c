"""Panel keys: equal panels read by the pattern of their marks, one line of colour each."""

from __future__ import annotations

from dsl_rig import cells, check_fitted, digits, fit_input

from continual_arc_baselines.dsl.panelkeys import equal_panels, fit_panelkey

# Three 3 x 3 panels of 5 divided by 0 columns: solid means 2, a hole in the middle means 8.
_DEMOS = [
    (digits("55505550555", "55505050555", "55505550555"), digits("22", "88", "22")),
    (digits("55505550555", "50505550505", "55505550555"), digits("88", "22", "88")),
]


def test_each_panel_becomes_a_row_of_its_colour() -> None:
    # The panels' own colour may change: the pattern is where a panel differs from its commonest colour.
    given = fit_input(_DEMOS, digits("77707770555", "77707070555", "77707770555"))
    ops = fit_panelkey(given)
    assert [op.text.split("{")[0] for op in ops] == ["panelkey(rows)"]
    check_fitted(ops[0], given, [[2, 2], [8, 8], [2, 2]])


def test_an_unseen_pattern_or_no_dividers_gives_nothing() -> None:
    # The test's last panel has a notch no demonstration shows: nothing is fitted.
    unseen = digits("55505550555", "55505050555", "55505550550")
    assert fit_panelkey(fit_input(_DEMOS, unseen)) == []
    # A grid with no divider of its own colour is not cut into panels.
    assert equal_panels(cells([[5, 5, 5, 5, 5], [5, 5, 5, 5, 5]])) is None
    # Panels cut at columns of their own commonest colour are no cut: 0 is commonest here.
    assert equal_panels(cells([[0, 0, 1, 0, 0], [0, 3, 1, 0, 0]])) is None
