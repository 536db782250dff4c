"""The experiments' figures drawn as SVG, byte for byte the same in every process.

Two figures, each drawn from numbers computed elsewhere
([`continual_arc.measure.figures`][continual_arc.measure.figures]):

* [`exposure_plot`][continual_arc.measure.figure_plots.exposure_plot]: the learning curve by exposure, ``U``
  per exposure index of a stream and of its reset's stream, with each floor a horizontal line at its ``U``
  over returns;
* [`users_plot`][continual_arc.measure.figure_plots.users_plot]: the share saved on each test against the
  number of users, one colour per series, the seen test solid and the held-out test dashed, with their 95 %
  intervals.

An SVG names its elements by ids drawn from a hash that matplotlib salts at random per process,
and stamps the date it was drawn: both are fixed here
([`SVG_SALT`][continual_arc.measure.figure_plots.SVG_SALT], no date), so a figure drawn twice from the same
numbers is the same file, whatever ``PYTHONHASHSEED`` is. The bytes still depend on matplotlib's version,
which the project does not pin exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.records import Phase
from .cost_figure import COST_LABELS, CostPoint, cost_of, cost_unit
from .figures import ExposurePoint, UsersSeries
from .plots import load_matplotlib

if TYPE_CHECKING:  # annotations only: matplotlib loads when a figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .bootstrap import Estimate

__all__ = ["SVG_SALT", "Floor", "cost_plot", "exposure_plot", "users_plot"]

SVG_SALT = "continual-arc"
"""The salt of the ids in every SVG drawn here (matplotlib's ``svg.hashsalt``), fixed for same bytes."""

_LEARNER, _RESET = "#1f5fa8", "#b04a3a"
_Colour = str | tuple[float, float, float, float]
"""A colour as matplotlib takes it: a name or hex string, or RGBA (as a colour map gives it)."""
_FLOOR_STYLES = (":", "-.", (0, (5, 2, 1, 2)), (0, (1, 3)))


@dataclass(frozen=True)
class Floor:
    """A floor on the learning curve: its label and its ``U`` over returns."""

    label: str
    budget_used: float


def _save_svg(fig: Figure, path: Path) -> Path:
    """Write ``fig`` to ``path`` with fixed ids and no date, and close it."""
    # matplotlib only when drawing: the commands that never plot start without it
    import matplotlib
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    with matplotlib.rc_context({"svg.hashsalt": SVG_SALT}):
        fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)
    return path


def _curve_line(ax: Axes, points: Sequence[ExposurePoint], label: str, colour: str, style: str) -> float:
    """One side's curve; returns its highest ``U`` (0 for none)."""
    if not points:
        return 0.0
    xs = [p["exposure"] for p in points]
    ys = [p["budget_used"] for p in points]
    ax.plot(xs, ys, color=colour, linestyle=style, marker="o", markersize=4, label=label)
    return max(ys)


def exposure_plot(
    learner: Sequence[ExposurePoint],
    reset: Sequence[ExposurePoint],
    floors: Sequence[Floor],
    path: Path,
    title: str,
) -> Path:
    """Draw the learning curve by exposure into ``path`` (SVG).

    Args:
        learner: the learner's stream, ``U`` per exposure index.
        reset: its reset's stream, the same (empty: not drawn).
        floors: horizontal lines, each at a floor's ``U`` over returns.
        path: the file written.
        title: the figure's title.
    """
    load_matplotlib()
    # matplotlib only when drawing: the commands that never plot start without it
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    top = max(
        _curve_line(ax, learner, "learner", _LEARNER, "-"), _curve_line(ax, reset, "reset", _RESET, "--")
    )
    for i, floor in enumerate(floors):
        style = _FLOOR_STYLES[i % len(_FLOOR_STYLES)]
        ax.axhline(floor.budget_used, color="grey", linestyle=style, linewidth=1.2,
                   label=f"floor (U over returns): {floor.label}")  # fmt: skip
        top = max(top, floor.budget_used)
    indices = sorted({p["exposure"] for p in (*learner, *reset)})
    if indices:
        ax.set_xticks(indices)
    ax.set_xlabel("times the task was met before (exposure index)")
    ax.set_ylabel("U, points of the budget (lower is better)")
    ax.set_ylim(0, min(105.0, max(10.0, top * 1.15)))
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return _save_svg(fig, path)


def _spread(e: Estimate) -> tuple[float, float] | None:
    """The estimate's distance to each end of its interval, never below 0 (``None``: no value).

    A percentile interval can leave its point outside it, and a bar cannot be negative.
    """
    value, low, high = e.value, e.low, e.high
    if value is None:
        return None
    return (0.0, 0.0) if low is None or high is None else (max(0.0, value - low), max(0.0, high - value))


_TEST_STYLES = {Phase.SEEN: ("-", "o", 0.97), Phase.HELD_OUT: ("--", "s", 1.03)}
"""Each test's line, marker and shift along the axis (a little apart, so that both intervals show)."""


def _users_line(ax: Axes, series: UsersSeries, test: Phase, colour: _Colour) -> None:
    """One series on one test: the points with a value, each with its interval."""
    style, marker, shift = _TEST_STYLES[test]
    xs, ys, below, above = [], [], [], []
    for point in series["points"]:
        estimate: Estimate = point["seen"] if test is Phase.SEEN else point["held_out"]
        spread = _spread(estimate)
        if spread is None or estimate.value is None:
            continue
        xs.append(point["users"] * shift)
        ys.append(estimate.value)
        below.append(spread[0])
        above.append(spread[1])
    if xs:
        ax.errorbar(xs, ys, yerr=[below, above], color=colour, linestyle=style, marker=marker, capsize=3,
                    markersize=4, label=f"{series['label']}: {test} test")  # fmt: skip


def users_plot(series: Sequence[UsersSeries], path: Path, title: str) -> Path:
    """Draw the share saved on each test against the number of users into ``path`` (SVG).

    Args:
        series: one learner's points each
            ([`share_saved_by_users`][continual_arc.measure.figures.share_saved_by_users]).
        path: the file written.
        title: the figure's title.
    """
    load_matplotlib()
    # matplotlib only when drawing: the commands that never plot start without it
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    palette = plt.get_cmap("tab10")
    for i, one in enumerate(series):
        for test in _TEST_STYLES:
            _users_line(ax, one, test, palette(i % 10))
    users = sorted({p["users"] for one in series for p in one["points"]})
    ax.set_xscale("log", base=2)
    ax.set_xticks(users, [str(u) for u in users])
    ax.minorticks_off()
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("users sharing the learner")
    ax.set_ylabel("share of the reset's spend saved (95 % interval)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return _save_svg(fig, path)


def cost_plot(points: Sequence[CostPoint], path: Path, title: str) -> Path:
    """Draw each learner's share saved on each test against its cost per instance into ``path`` (SVG).

    Args:
        points: one learner's point each ([cost_points][continual_arc.measure.cost_figure.cost_points]).
        path: the file written.
        title: the figure's title.
    """
    load_matplotlib()
    # matplotlib only when drawing: the commands that never plot start without it
    import matplotlib.pyplot as plt

    unit = cost_unit(points)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    palette = plt.get_cmap("tab10")
    for i, point in enumerate(points):
        cost = cost_of(point, unit)
        for test, (_, marker, _) in _TEST_STYLES.items():
            estimate: Estimate = point["seen"] if test is Phase.SEEN else point["held_out"]
            spread = _spread(estimate)
            if spread is None or estimate.value is None:
                continue
            ax.errorbar([cost or 0.0], [estimate.value], yerr=[[spread[0]], [spread[1]]],
                        color=palette(i % 10), marker=marker, capsize=3, markersize=5, linestyle="none",
                        label=f"{point['label']}, {point['users']} user(s): {test} test")  # fmt: skip
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel(COST_LABELS[unit])
    ax.set_ylabel("share of the reset's spend saved (95 % interval)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return _save_svg(fig, path)
