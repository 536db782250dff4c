"""Plots of a run and of the plane of the two tests, written as PNG and SVG.

Matplotlib is imported here only, with the non-interactive Agg backend, so that nothing else in
the package pays for it and no plot ever needs a screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..core.records import Record
from .diagnostics import Group, cost_by_exposure, learning_curve, retention_by_gap, stream_records

__all__ = ["LabelledPoint", "PlotPoint", "load_matplotlib", "plane_plot", "run_plots"]

if TYPE_CHECKING:  # annotations only: matplotlib loads when a plot is drawn, NumPy with the measures
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .bootstrap import Estimate
    from .compare import TestComparison

_LEARNER, _RESET, _FIRST = "#1f5fa8", "#b04a3a", "#e0a030"


class PlotPoint(Protocol):
    """What the plane's plot draws of a learner: its label and its comparison on each test.

    A [`PlanePoint`][continual_arc.protocol.plane.PlanePoint] is one; a sweep's rows build their own.
    """

    @property
    def label(self) -> str:
        """The learner's label beside its point."""
        ...

    @property
    def seen(self) -> TestComparison:
        """The comparison on the seen test (memorization, across)."""
        ...

    @property
    def held_out(self) -> TestComparison:
        """The comparison on the held-out test (generalization, up)."""
        ...


@dataclass(frozen=True)
class LabelledPoint:
    """A [`PlotPoint`][continual_arc.measure.plots.PlotPoint] made of its three parts (a sweep's row)."""

    label: str
    seen: TestComparison
    held_out: TestComparison


def _agg() -> None:
    # Matplotlib takes about half a second to import: only a command that draws pays for it.
    import matplotlib

    matplotlib.use("Agg")


def load_matplotlib() -> None:
    """Import matplotlib now, so that a caller with idle time (waiting for plays) pays for it then."""
    _agg()
    import matplotlib.pyplot  # noqa: F401  # imported for its cost, now


def _save(fig: Figure, out_dir: Path, name: str) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / f"{name}.png", out_dir / f"{name}.svg"]
    fig.tight_layout()
    # tight_layout leaves a placeholder layout engine behind, and savefig then draws the whole
    # figure once more, unseen, before each file. The layout is done: drop the engine.
    fig.set_layout_engine(None)
    for path in paths:
        fig.savefig(path, dpi=130)
    # matplotlib only when drawing: the commands that never plot start without it
    import matplotlib.pyplot as plt

    plt.close(fig)
    return paths


def _curve(records: Sequence[Record], reset: Sequence[Record] | None, out: Path) -> list[Path]:
    _agg()
    # matplotlib only when drawing: the commands that never plot start without it
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.2))
    top = 0.0
    for label, recs, colour in (("learner", records, _LEARNER), ("reset", reset, _RESET)):
        if not recs:
            continue
        curve = learning_curve(recs)
        ax.plot(
            curve["rounds"],
            curve["moving"],
            color=colour,
            label=f"{label}: mean u, last {curve['window']} rounds",
        )
        ax.plot(
            curve["rounds"], curve["budget_used"], color=colour, linestyle="--", label=f"{label}: U so far"
        )
        top = max(top, *curve["moving"], *curve["budget_used"])
    ax.set_xlabel("round of the stream")
    ax.set_ylabel("charge, points of the budget (lower is better)")
    ax.set_ylim(0, _ceiling(top))
    ax.set_title("Learning curve")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return _save(fig, out, "learning_curve")


def _ceiling(top: float) -> float:
    """An axis top a little above the data, in tens, between 10 and 100: small spends stay visible."""
    return float(min(100, max(10, 10 * -(-top * 1.2 // 10))))


def _bars(
    sides: Sequence[tuple[str, Mapping[str, Group], str]],
    title: str,
    xlabel: str,
    name: str,
    out: Path,
) -> list[Path]:
    """Grouped bars: one group per key (exposure index, gap bin), one bar per side (learner, reset)."""
    _agg()
    # matplotlib only when drawing: the commands that never plot start without it
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4))
    labels = sorted({k for _, groups, _ in sides for k in groups}, key=_bin_order)
    width = 0.8 / len(sides)
    for i, (side, groups, colour) in enumerate(sides):
        xs = [j + (i - (len(sides) - 1) / 2) * width for j in range(len(labels))]
        values = [(groups[k]["mean_charge"] or 0.0) if k in groups else 0.0 for k in labels]
        bars = ax.bar(xs, values, width=width * 0.95, color=colour, label=side)
        for bar, key in zip(bars, labels, strict=True):
            if key in groups:
                top = (bar.get_x() + bar.get_width() / 2, bar.get_height())
                ax.annotate(f"n={groups[key]['instances']}", top, ha="center", va="bottom", fontsize=6)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("mean charge u, points of the budget")
    ax.set_ylim(0, 110)
    ax.set_title(title)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return _save(fig, out, name)


def _bin_order(label: str) -> int:
    """Exposure indices and gap bins (``4-7``, ``64+``) in numeric order."""
    return int(label.split("-")[0].rstrip("+"))


def _flat_bars(ax: Axes, xs: Sequence[float], heights: Sequence[float], colours: Sequence[str]) -> None:
    """Bars from 0, as ``ax.bar(xs, heights, color=colours, width=0.85)`` draws them, for less.

    One collection of rectangles instead of a patch a bar (a stream has hundreds): the same pixels.
    """
    from matplotlib.collections import PolyCollection  # loaded with pyplot by every caller

    width = 0.85
    lefts = [x - width / 2 for x in xs]  # each corner computed as ax.bar computes it
    corners = zip(lefts, heights, strict=True)
    ax.add_collection(PolyCollection([[(x, 0), (x, h), (x + width, h), (x + width, 0)] for x, h in corners],
                                     facecolors=colours))  # fmt: skip
    ax.autoscale_view()


def _charges(records: Sequence[Record], out: Path) -> list[Path]:
    _agg()
    # matplotlib only when drawing: the commands that never plot start without it
    import matplotlib.pyplot as plt

    chosen = stream_records(records)
    fig, ax = plt.subplots(figsize=(10, 3.8))
    steps = [r["step"] for r in chosen]
    charges = [100.0 * r["charge"] / r["max_cost"] for r in chosen]
    colours = [_FIRST if r["exposure_index"] == 0 else _LEARNER for r in chosen]
    _flat_bars(ax, steps, charges, colours)
    # A free answer is a bar of height 0, which no one sees: mark each with a dot on the axis.
    free = [(x, colour) for x, charge, colour in zip(steps, charges, colours, strict=True) if charge == 0]
    if free:
        ax.scatter([f[0] for f in free], [1.5] * len(free), c=[f[1] for f in free], marker="v", s=14,
                   label="a free answer (charge 0)")  # fmt: skip
    from matplotlib.patches import Patch  # loaded with pyplot above; named here, where it is used

    handles: list[Artist] = [
        Patch(color=_FIRST, label="a task's first meeting"),
        Patch(color=_LEARNER, label="a return"),
    ]
    handles += ax.get_legend_handles_labels()[0]
    ax.set_xlabel("step of the stream")
    ax.set_ylabel("charge u, points of the budget")
    ax.set_ylim(0, 105)
    ax.set_title(f"Every instance's charge (100 = unsolved; {len(free)} free answers marked)")
    ax.legend(handles=handles, fontsize=8, loc="upper right")
    return _save(fig, out, "charges")


def run_plots(
    records: Sequence[Record],
    out_dir: Path | str,
    reset: Sequence[Record] | None = None,
) -> list[Path]:
    """Write the stream's plots (learning curve, cost by exposure, retention by gap, charges).

    Args:
        records: the run's records.
        out_dir: where to write ``<name>.png`` and ``<name>.svg``.
        reset: the reset's records, drawn beside the learner's (learning curve, cost by exposure,
            retention by gap).

    Returns:
        The files written (none for a run without stream instances).
    """
    out = Path(out_dir)
    if not stream_records(records):
        return []
    paths = _curve(records, reset, out)
    runs = [("learner", records, _LEARNER)] + ([("reset", reset, _RESET)] if reset else [])
    exposure = [(side, cost_by_exposure(recs), colour) for side, recs, colour in runs]
    paths += _bars(exposure, "Cost by exposure index", "times the task was met before",
                   "cost_by_exposure", out)  # fmt: skip
    gaps = [(side, retention_by_gap(recs), colour) for side, recs, colour in runs]
    if any(groups for _, groups, _ in gaps):
        paths += _bars(gaps, "Retention by gap (returns only)", "rounds since the task was last served",
                       "retention_by_gap", out)  # fmt: skip
    return paths + _charges(records, out)


def _interval(e: Estimate) -> tuple[float, float]:
    value, low, high = e.value, e.low, e.high
    if value is None or low is None or high is None:  # no interval (a value is always there with one)
        return 0.0, 0.0
    return value - low, high - value


def plane_plot(points: Sequence[PlotPoint], out_dir: Path | str, name: str = "plane") -> list[Path]:
    """The plane of the two tests: memorization (seen) across, generalization (held-out) up.

    Args:
        points: each learner's place (a [`PlanePoint`][continual_arc.protocol.plane.PlanePoint] each).
        out_dir: where to write the files.
        name: the files' name, without suffix.
    """
    _agg()
    # matplotlib only when drawing: the commands that never plot start without it
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.2, 6))
    xs, ys = [], []
    palette = plt.get_cmap("tab10")
    for i, point in enumerate(points):
        seen, held = point.seen.share_saved, point.held_out.share_saved
        if seen.value is None or held.value is None:
            continue
        xerr, yerr = _interval(seen), _interval(held)
        ax.errorbar(seen.value, held.value, xerr=[[xerr[0]], [xerr[1]]], yerr=[[yerr[0]], [yerr[1]]],
                    fmt="o", capsize=3, color=palette(i % 10), label=point.label)  # fmt: skip
        # Staggered, so that labels of learners at the same place stay readable.
        ax.annotate(point.label, (seen.value, held.value), textcoords="offset points",
                    xytext=(6, 6 + 11 * (i % 4)), fontsize=9)  # fmt: skip
        xs += [seen.value - xerr[0], seen.value + xerr[1]]
        ys += [held.value - yerr[0], held.value + yerr[1]]
    low = min([-0.1, *xs, *ys]) - 0.05
    ax.set_xlim(low, 1.05)
    ax.set_ylim(low, 1.05)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("memorization: share of the reset's spend saved on the seen test")
    ax.set_ylabel("generalization: share saved on the held-out test")
    ax.set_title("The plane of the two frozen tests (95 % intervals)")
    ax.grid(alpha=0.3)
    if len(points) > 1:
        ax.legend(fontsize=8, loc="lower right")
    return _save(fig, Path(out_dir), name)
