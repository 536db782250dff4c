"""The drawings of experiments' figures: an interval that leaves out its point still draws."""

from __future__ import annotations

from pathlib import Path

from continual_arc.measure.bootstrap import Estimate
from continual_arc.measure.figure_plots import users_plot
from continual_arc.measure.figures import UsersSeries


def test_a_point_outside_its_percentile_interval_draws(tmp_path: Path) -> None:
    # A percentile bootstrap can put the point estimate outside its interval (here above it); its
    # error bar is then cut at the point rather than drawn negative, which matplotlib refuses.
    outside = Estimate(0.30, 0.05, 0.25)
    inside = Estimate(0.10, 0.00, 0.20)
    series: UsersSeries = {
        "label": "L",
        "points": [
            {"users": 1, "seeds": [0], "seen": outside, "held_out": inside},
            {"users": 16, "seeds": [0], "seen": inside, "held_out": outside},
        ],
    }
    path = users_plot([series], tmp_path / "users.svg", "Users")
    assert path.read_text().lstrip().startswith("<?xml") and "Users" in path.read_text()
