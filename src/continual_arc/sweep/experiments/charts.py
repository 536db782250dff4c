"""The figures of an experiment: their numbers as Markdown tables, checked as tables are, and drawn.

Three kinds of entry in ``experiment.toml`` are figures
([`FIGURE_KINDS`][continual_arc.sweep.experiments.charts.FIGURE_KINDS]):

* ``curve``: the learning curve by exposure (the reference's Figure 3): ``U`` per exposure index
  over the stream of one protocol directory, for the learner and for its reset
  ([`exposure_curve`][continual_arc.measure.figures.exposure_curve]), with each of its optional
  ``floors = [...]`` (protocol or run directories) a horizontal line at its ``U`` over the
  returns ([`floor_level`][continual_arc.measure.figures.floor_level]);
* ``users``: the share saved on each test, with its 95 % interval, against the number of users,
  one series per learner (and configuration), each setting's seeds pooled, from protocol
  directories ([`share_saved_by_users`][continual_arc.measure.figures.share_saved_by_users]);
* ``cost``: the share saved on each test against what one instance cost the learner (dollars of
  model calls, else seconds inside the learner), one point per learner and setting, its seeds
  pooled, from protocol directories
  ([cost_points][continual_arc.measure.cost_figure.cost_points]).

A figure's section of ``tables.md`` links to its drawing, ``figures/<slug>.svg`` (the slug made
from its title), and holds exactly the numbers drawn, formatted as every command prints points and
shares, so that ``continual-arc figures`` checks a figure line by line as it checks a table. The
drawing is written only with ``--write``; a check then asks only that the file be there, since
its bytes depend on matplotlib's version, which the project does not pin exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ...core.errors import ContinualArcError
from ...core.records import Play
from ...measure.cost_figure import COST_LABELS, CostProtocol, cost_of, cost_points, cost_unit
from ...measure.figure_plots import Floor, cost_plot, exposure_plot, users_plot
from ...measure.figures import (
    ExposurePoint,
    SweepProtocol,
    UsersSeries,
    exposure_curve,
    floor_level,
    share_saved_by_users,
)
from ...measure.report import format_estimate, format_points
from ...play.rundir import read_meta, read_records
from ...protocol.plays import is_protocol_dir
from ..collect import collect, spec_label

__all__ = [
    "FIGURES_DIR",
    "FIGURE_KINDS",
    "entry_problem",
    "figure_clash",
    "figure_file",
    "figure_section",
]

FIGURE_KINDS = ("curve", "users", "cost")
"""The kinds of entry of ``experiment.toml`` that are figures."""

FIGURES_DIR = "figures"
"""Where an experiment's drawings go, beside its ``tables.md``."""


def figure_file(title: str) -> str:
    """The drawing of the figure titled ``title``, relative to its experiment (``figures/<slug>.svg``)."""
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "figure"
    return f"{FIGURES_DIR}/{slug}.svg"


def _folders(value: object) -> list[str] | None:
    """``value`` as a list of folder names, or ``None`` if it is not one."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _floors_problem(floors: object, folder: Path) -> str | None:
    names = _folders(floors)
    if names is None:
        return "a curve's floors must be a list of folders"
    for name in names:
        path = folder / name
        if not path.is_dir():
            return f"the floor {name} does not exist (relative to {folder})"
        if not (is_protocol_dir(path) or (path / "meta.json").is_file()):
            return f"the floor {name} is neither a protocol nor a run directory (relative to {folder})"
    return None


def entry_problem(kind: str, entry: Mapping[str, object], folder: Path) -> str | None:
    """Why an entry of ``experiment.toml`` is not what its kind needs, in one sentence (``None``: it is).

    ``entry``'s kind and runs (a non-empty list of folders that exist) are already checked.
    """
    if "floors" in entry and kind != "curve":
        return f"only a curve draws floors, not a {kind} entry"
    if kind not in FIGURE_KINDS:
        return None
    runs = _folders(entry.get("runs")) or []
    if kind == "curve" and len(runs) != 1:
        return "a curve reads exactly one protocol directory"
    floors = _floors_problem(entry["floors"], folder) if "floors" in entry else None
    return floors or _protocol_problem(kind, runs, folder)


def _protocol_problem(kind: str, runs: Sequence[str], folder: Path) -> str | None:
    for name in runs:
        if not is_protocol_dir(folder / name):
            return f"a {kind} figure reads protocol directories, and {name} is not one (relative to {folder})"
    return None


def figure_clash(titles: Iterable[str]) -> str | None:
    """Why two figures' titles would draw into one file, or ``None``."""
    seen: dict[str, str] = {}
    for title in titles:
        name = figure_file(title)
        if name in seen:
            return f"the figures {seen[name]!r} and {title!r} would both be drawn to {name}: retitle one"
        seen[name] = title
    return None


def _exposure_rows(learner: Sequence[ExposurePoint], reset: Sequence[ExposurePoint]) -> list[str]:
    """A row per exposure index met by either side (a side that never met it shows dashes)."""
    sides = [{p["exposure"]: p for p in learner}, {p["exposure"]: p for p in reset}]
    lines = [
        "| k, times met before | learner: instances | learner: U | reset: instances | reset: U |",
        "|---|---|---|---|---|",
    ]
    for k in sorted(set(sides[0]) | set(sides[1])):
        cells = [str(k)]
        for side in sides:
            point = side.get(k)
            if point is None:
                cells += ["-", "-"]
            else:
                cells += [str(point["instances"]), format_points(point["budget_used"])]
        lines.append(f"| {' | '.join(cells)} |")
    return lines


def _floor_stream(path: Path) -> Path:
    """The run a floor is read from: a protocol's stream, or the run directory itself."""
    return path / Play.STREAM if is_protocol_dir(path) else path


def _floor_rows(floors: Sequence[Path]) -> tuple[list[str], list[tuple[str, float]]]:
    """The floors' table and what is drawn of them (a floor whose tasks never returned has no line)."""
    lines = ["| floor | learner | U over returns |", "|---|---|---|"]
    drawn: list[tuple[str, float]] = []
    for path in floors:
        run = _floor_stream(path)
        label = spec_label(read_meta(run)["learner"])
        level = floor_level(read_records(run))
        shown = "- (no task returned)" if level is None else format_points(level)
        lines.append(f"| {path.name} | {label} | {shown} |")
        if level is not None:
            drawn.append((f"{label} ({path.name})", level))
    return lines, drawn


def _curve(title: str, protocol: Path, floors: Sequence[Path], draw_to: Path | None) -> list[str]:
    learner = exposure_curve(read_records(protocol / Play.STREAM))
    if not learner:
        raise ContinualArcError(
            f"{protocol / Play.STREAM} holds no stream records: the protocol is unfinished "
            "(continual-arc protocol resumes it)"
        )
    reset_dir = protocol / Play.STREAM_RESET
    reset = exposure_curve(read_records(reset_dir)) if reset_dir.is_dir() else []
    lines = _exposure_rows(learner, reset)
    drawn: list[tuple[str, float]] = []
    if floors:
        floor_lines, drawn = _floor_rows(floors)
        lines += ["", *floor_lines]
    lines += [
        "",
        "U in points of the budget (lower is better) of the stream's instances whose task had been met "
        "k times before (k = 0: its first meeting); a floor's line is its U over all the returns (k >= 1).",
    ]
    if draw_to is not None:
        exposure_plot(learner, reset, [Floor(label, level) for label, level in drawn], draw_to, title)
    return lines


def _sweep_protocols(protocols: Sequence[Path]) -> list[SweepProtocol]:
    """Each protocol directory's plays, labelled by learner and configuration as the sweep's rows."""
    out = []
    for group in collect(protocols):
        for seed, plays in sorted(group.plays.items()):
            records = {str(play): read_records(path) for play, path in plays.items()}
            out.append(SweepProtocol(f"{group.label} ({group.config})", group.users, seed, records))
    return out


def _users(title: str, protocols: Sequence[Path], draw_to: Path | None, resamples: int) -> list[str]:
    series: list[UsersSeries] = share_saved_by_users(_sweep_protocols(protocols), resamples=resamples)
    lines = [
        "| learner | users | seeds | seen: share saved | held-out: share saved |",
        "|---|---|---|---|---|",
    ]
    for one in series:
        for p in one["points"]:
            seeds = ", ".join(map(str, p["seeds"]))
            shares = (format_estimate(p["seen"]), format_estimate(p["held_out"]))
            cells = (one["label"], str(p["users"]), seeds, *shares)
            lines.append(f"| {' | '.join(cells)} |")
    lines += [
        "",
        "The share of the reset's spend saved on each test, with its 95 % bootstrap interval over tasks; "
        "each number of users pools its seeds, each task's instances together.",
    ]
    if draw_to is not None:
        users_plot(series, draw_to, title)
    return lines


def _cost_protocols(protocols: Sequence[Path]) -> list[CostProtocol]:
    """Each protocol directory's plays, labelled by learner and configuration as the sweep's rows."""
    out = []
    for group in collect(protocols):
        for seed, plays in sorted(group.plays.items()):
            records = {str(play): read_records(path) for play, path in plays.items()}
            concurrent = bool(read_meta(plays[Play.STREAM]).get("concurrent_users"))
            label = f"{group.label} ({group.config})"
            out.append(CostProtocol(label, group.users, seed, records, concurrent))
    return out


def _cost(title: str, protocols: Sequence[Path], draw_to: Path | None, resamples: int) -> list[str]:
    points = cost_points(_cost_protocols(protocols), resamples=resamples)
    unit = cost_unit(points)
    lines = [
        "| learner | users | seeds | cost per instance | seen: share saved | held-out: share saved |",
        "|---|---|---|---|---|---|",
    ]
    for p in points:
        value = cost_of(p, unit)
        cost = "-" if value is None else f"${value:.4f}" if unit == "usd" else f"{value:.3f}"
        seeds = ", ".join(map(str, p["seeds"]))
        cells = (
            p["label"],
            str(p["users"]),
            seeds,
            cost,
            format_estimate(p["seen"]),
            format_estimate(p["held_out"]),
        )
        lines.append(f"| {' | '.join(cells)} |")
    lines += [
        "",
        "The share of the reset's spend saved on each test, with its 95 % bootstrap interval over tasks, "
        "each learner's seeds pooled, against what one instance cost it over its stream and both tests: "
        f"{COST_LABELS[unit]}.",
    ]
    if draw_to is not None:
        cost_plot(points, draw_to, title)
    return lines


def figure_section(
    kind: str,
    title: str,
    runs: Sequence[Path],
    floors: Sequence[Path],
    draw_in: Path | None = None,
    *,
    resamples: int,
) -> str:
    """A figure's section of ``tables.md`` (below its heading): its drawing's link, then its numbers.

    Args:
        kind: ``curve``, ``users`` or ``cost``.
        title: the figure's title (its heading, and its file's name).
        runs: the protocol directories it reads (one for a curve).
        floors: a curve's floors (protocol or run directories).
        draw_in: the experiment's folder, to draw the figure into ``figures/`` there; ``None``
            draws nothing.
        resamples: bootstrap resamples of a ``users`` figure's intervals (at seed 0).
    """
    name = figure_file(title)
    draw_to = None if draw_in is None else draw_in / name
    if kind == "curve":
        lines = _curve(title, runs[0], floors, draw_to)
    elif kind == "cost":
        lines = _cost(title, runs, draw_to, resamples)
    else:
        lines = _users(title, runs, draw_to, resamples)
    return "\n".join([f"![{title}]({name})", "", *lines]) + "\n"
