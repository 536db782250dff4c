"""The kinds of table an experiment recomputes from one or more stored protocols.

* [`plane_table`][continual_arc.sweep.experiments.tables.plane_table]: one protocol's numbers as the README
  shows them;
* [`by_run_table`][continual_arc.sweep.experiments.tables.by_run_table]: one row per protocol, in the order
  given, each as the sweep's table shows a row (its seed alone, never pooled);
* [`printed_summary`][continual_arc.sweep.experiments.tables.printed_summary]: one protocol's summary exactly
  as ``continual-arc protocol`` printed it when it finished, its numbers recomputed from the records.

Every interval is bootstrapped as the protocol command does by default: seed 0,
[`RESAMPLES`][continual_arc.sweep.experiments.tables.RESAMPLES] resamples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ...core.errors import ContinualArcError
from ...core.files import read_json
from ...core.records import Phase, Play, Record
from ...measure.compare import LearnedResult, TestComparison, mean_level_score
from ...measure.report import SHARE_DIGITS, format_estimate, format_points
from ...protocol.conclude import ProtocolDocument
from ...protocol.plane import plane_point
from ...protocol.report import protocol_summary
from ..collect import collect, group_row, read_plays
from ..table import row_cells

__all__ = ["RESAMPLES", "by_run_table", "plane_table", "printed_summary"]

RESAMPLES = 10_000
"""Bootstrap resamples of every interval (as ``protocol`` and ``pool`` by default), at seed 0."""


def _side(side: Mapping[str, float | None]) -> str:
    return f"{format_points(side['budget_used'])} / {format_points(side['share_solved'])}"


def _test_line(label: str, c: TestComparison) -> str:
    cells = (label, format_estimate(c.share_saved), format_points(c.saving.value))
    return f"| {' | '.join(cells)} | {_side(c.learner)} | {_side(c.reset)} |"


def _learned_line(learned: LearnedResult) -> str:
    budget = format_points(learned.learnable_budget)
    reset = format_points(learned.reset["budget_used"])
    return (
        f"| share learned over the stream | {format_estimate(learned.share_learned)} | "
        f"learnable budget {budget} | {_side(learned.learner)} | {reset} |"
    )


def plane_table(protocol: Path | str) -> str:
    """One protocol's numbers as the README's table: each test, then the share learned."""
    point = plane_point(protocol, resamples=RESAMPLES)
    lines = [
        "| | share of the reset's spend saved (95 % interval) | T, points | learner U / P | reset U / P |",
        "|---|---|---|---|---|",
        _test_line("seen test (memorization)", point.seen),
        _test_line("held-out test (generalization)", point.held_out),
    ]
    if point.learned is not None:
        lines.append(_learned_line(point.learned))
    return "\n".join(lines) + "\n"


LEVEL_HEADER = " seen: level score, learner / reset | held-out: level score | stream: level score |"
"""The columns a by-run table adds when its protocols played games (arc3): ARC-AGI-3's level score."""


def _level_cells(plays: Mapping[str, Sequence[Record]]) -> list[str] | None:
    """Each play's mean level score, learner / reset, or ``None`` when no play was a game's."""
    pairs = []
    for phase in (Phase.SEEN, Phase.HELD_OUT, Phase.STREAM):
        sides = (plays.get(Play.of(phase)), plays.get(Play.of(phase, reset=True)))
        pairs.append([None if records is None else mean_level_score(records, (phase,)) for records in sides])
    if all(value is None for pair in pairs for value in pair):
        return None
    return [" / ".join("-" if v is None else f"{v:.{SHARE_DIGITS}f}" for v in pair) for pair in pairs]


def by_run_table(protocols: Sequence[Path], names: Mapping[str, str]) -> str:
    """One row per protocol in the order given: learner, setting, seed, ``U``, ``P`` and the shares.

    ``names`` labels a learner's rows as a pooled table's do. Protocols that played games get each
    play's level score too, learner and reset
    ([`LEVEL_HEADER`][continual_arc.sweep.experiments.tables.LEVEL_HEADER]). Each protocol's records are read
    once, for its row and its level scores.
    """
    found = []
    for protocol in protocols:
        (group,) = collect([protocol], names=names)
        plays = read_plays(group)
        levels = [_level_cells(by_play) for by_play in plays.values()]  # one seed, or none if unfinished
        found.append((group_row(group, plays, resamples=RESAMPLES), levels[0] if levels else None))
    games = any(cells is not None for _, cells in found)
    lines = [
        "| " + " | ".join([*row_cells(row), *((cells or ["-", "-", "-"]) if games else [])]) + " |"
        for row, cells in found
    ]
    header = (
        "| learner | setting | seed | U ± s.e. | P | share learned | seen: share saved "
        "| held-out: share saved |" + (LEVEL_HEADER if games else "")
    )
    rule = "|---" * (8 + 3 * games) + "|"
    caption = (
        "One protocol a row, each seed alone. U and P on the stream, in points of the budget (U lower "
        "is better), with the standard error over tasks; shares with 95 % bootstrap intervals over tasks."
    )
    return "\n".join([header, rule, *lines, "", caption]) + "\n"


def printed_summary(protocol: Path | str) -> str:
    """What ``continual-arc protocol`` printed of this protocol (but where it wrote it), as a code block.

    What was played (learner, configuration, seed, users, verdict) is read from its
    ``protocol.json``, which ``check`` holds to its runs; every number is recomputed from the records.

    Raises:
        ContinualArcError: the directory holds no readable ``protocol.json``.
    """
    where = Path(protocol) / "protocol.json"
    try:
        written = read_json(where)
    except FileNotFoundError:
        raise ContinualArcError(f"{where} is missing: a printed table reads a protocol directory") from None
    needed = {"learner", "config", "seed", "users", "protocol"}
    if not isinstance(written, dict) or not needed <= set(written):
        raise ContinualArcError(f"{where} is not a protocol's document (continual-arc protocol writes it)")
    document: ProtocolDocument = {
        "format": written.get("format", 1),
        "learner": written["learner"],
        "config": written["config"],
        "seed": written["seed"],
        "users": written["users"],
        "protocol": written["protocol"],
        "plays": written.get("plays", {}),
        "plane": plane_point(protocol, resamples=RESAMPLES),
    }
    return "```\n" + "\n".join(protocol_summary(document)) + "\n```\n"
