"""Reports: a run in words, and a learner against its reset, formatted from what the measures compute.

Everything here is a pure function of records, a run's meta and the measures' results; nothing is
measured here, and no file is read (the play stage reads run directories back).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NotRequired, TypedDict

from ..core.level_score import baseline_note, human_share, scorecard
from ..core.records import LearnerSpec, ProtocolBlock, Record, RunMeta
from ..core.teacher import TEACHER_KWARG, UNCHARGED_TEACHER, experiment_of
from .budget import primary
from .diagnostics import Diagnostics
from .ledger import OutsideJSON
from .summary import Stopped, Summary, summarize, summary_json

if TYPE_CHECKING:  # for annotations only: importing compare at run time would import NumPy
    from .bootstrap import Estimate
    from .compare import LearnedResult, TestComparison

__all__ = [
    "POINT_DIGITS",
    "SHARE_DIGITS",
    "TINY_LEARNABLE_BUDGET",
    "RunReport",
    "TeacherReport",
    "format_estimate",
    "format_learned",
    "format_level_score",
    "format_points",
    "format_run",
    "format_transfer",
    "recompute_summary",
    "run_report",
    "run_resources",
    "run_teacher",
    "run_time",
    "run_training",
    "teacher_compute",
    "tiny_budget_note",
]


class TeacherReport(TypedDict):
    """The teacher a run's learner names, its compute (training, never scored), and any experiment.

    ``model`` is the ``teacher`` of the learner's keywords (``None`` if they name none);
    ``experiment`` is [UNCHARGED_TEACHER][continual_arc.core.teacher.UNCHARGED_TEACHER] when the
    teacher played instances uncharged, ``None`` otherwise.
    """

    model: str | None
    compute: dict[str, float]
    experiment: str | None


class RunReport(TypedDict):
    """What ``continual-arc report --json`` prints of a run: its summary, ends, errors and spend."""

    run: str
    learner: LearnerSpec
    summary: Summary
    errored_steps: list[int]
    errors_by_type: dict[str, int]
    first_error: NotRequired[str]  # the first errored instance's message (a limit's sentence, say)
    ends: dict[str, int]
    invalid_submissions: int
    invalid_steps: list[int]
    invalid_reasons: dict[str, int]
    resources: dict[str, float]
    wall_time: float
    training: NotRequired[dict[str, float]]
    teacher: NotRequired[TeacherReport]
    outside_spend: NotRequired[OutsideJSON]
    plots: NotRequired[list[str]]
    stopped: NotRequired[Stopped]
    scorecard: NotRequired[dict[str, float]]
    scorecard_baseline: NotRequired[str]


def recompute_summary(
    records: Sequence[Record], meta: RunMeta, summary: Mapping[str, object] | None
) -> tuple[Summary, list[str]]:
    """The summary the records give, and each top-level field where ``summary`` (as written) differs."""
    fresh = summary_json(summarize(records, meta))
    if summary is None:
        return fresh, ["summary.json is missing (the run has not finished)"]
    differs = [
        f"{key}: summary.json has {_clip(summary.get(key))}, the records give {_clip(value)}"
        for key, value in fresh.items()
        if summary.get(key) != value
    ]
    differs += [
        f"{key}: in summary.json but not computed from the records"
        for key in summary
        if key not in fresh and key != "stopped"  # the runner's word on a spend-cap stop, not a measure
    ]
    return fresh, differs


def _clip(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 120 else text[:117] + "..."


SHARE_DIGITS = 2
"""Decimals of a share (share saved, share learned) wherever one is printed."""

POINT_DIGITS = 1
"""Decimals of a quantity in points of the budget (U, P, T, u, the learnable budget) wherever printed."""


def _fmt(value: float | None, digits: int = POINT_DIGITS) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def format_points(value: float | None) -> str:
    """A quantity in points of the budget (U, P, T, ...), as every command prints it."""
    return _fmt(value, POINT_DIGITS)


def _protocol_line(protocol: ProtocolBlock) -> str:
    if protocol.get("canonical"):
        return f"protocol: {protocol['track']}, canonical (judged by release {protocol.get('release')})"
    return f"protocol: {protocol['track']}, ablation: " + "; ".join(protocol.get("deviations", []))


def _add(totals: dict[str, float], counters: Mapping[str, float] | None) -> None:
    for key, value in (counters or {}).items():
        if isinstance(value, int | float) and not isinstance(value, bool):
            totals[key] = totals.get(key, 0.0) + float(value)


def run_resources(records: Sequence[Record], concurrent_users: bool) -> dict[str, float]:
    """What the learner spent over the run, each instance counted once.

    Where the learner reports each instance's own counters (``instance_resources``), they are summed
    over every instance, auxiliary ones included. Otherwise its cumulative counters are read at the
    end: once for a serial learner, whose counters are its own whatever the user; the last value of
    each user, summed, for a concurrent learner, which keeps them per user.
    """
    totals: dict[str, float] = {}
    if any(r.get("instance_resources") is not None for r in records):
        for r in records:
            _add(totals, r.get("instance_resources"))
        return totals
    ordered = sorted(primary(records), key=lambda r: r["step"])
    if not concurrent_users:
        _add(totals, ordered[-1].get("resources") if ordered else None)
        return totals
    last: dict[int, Mapping[str, float]] = {r["user"]: r.get("resources") or {} for r in ordered}
    for counters in last.values():
        _add(totals, counters)
    return totals


def run_training(records: Sequence[Record]) -> dict[str, float] | None:
    """The training compute of a learner that trains weights: its cumulative counters at the run's end.

    ``None`` when no record carries ``training_resources``. Shown beside the score, never in it.
    """
    trained = [r for r in records if isinstance(r.get("training_resources"), Mapping)]
    if not trained:
        return None
    last = max(trained, key=lambda r: r["step"])["training_resources"]
    return {str(k): float(v) for k, v in last.items()}


def run_teacher(records: Sequence[Record], learner_kwargs: Mapping[str, object]) -> TeacherReport | None:
    """The teacher's part of a run: its name, its counters at the run's end, and whether it is an experiment.

    ``None`` when no record carries ``teacher_resources`` and the keywords name no teacher. A name
    that is not a published model's is shown as given: ``check`` is where it is refused.
    """
    compute = teacher_compute(records)
    name = learner_kwargs.get(TEACHER_KWARG)
    if compute is None and name is None:
        return None
    return {
        "model": None if name is None else str(name),
        "compute": compute or {},
        "experiment": experiment_of(records),
    }


def teacher_compute(records: Sequence[Record]) -> dict[str, float] | None:
    """A play's teacher counters at its end (its last ``teacher_resources``), ``None`` when it has none."""
    taught = [r for r in records if isinstance(r.get("teacher_resources"), Mapping)]
    if not taught:
        return None
    last = max(taught, key=lambda r: r["step"])["teacher_resources"]
    return {str(k): float(v) for k, v in last.items()}


def _teacher_lines(teacher: TeacherReport | None) -> list[str]:
    if teacher is None:
        return []
    counters = ", ".join(f"{k} {v:g}" for k, v in teacher["compute"].items()) or "none reported"
    lines = [
        f"teacher {teacher['model'] or '(unnamed)'}: training compute, apart from the student's "
        f"resources, unscored: {counters}"
    ]
    if teacher["experiment"] == UNCHARGED_TEACHER:
        lines.append(
            "EXPERIMENT: the teacher played instances itself with nothing charged; an upper bound on "
            "what a teacher can pass on, not a learner the benchmark verifies"
        )
    return lines


def _training_line(training: Mapping[str, float] | None) -> list[str]:
    if training is None:
        return []
    counters = ", ".join(f"{k} {v:g}" for k, v in training.items())
    return [f"training compute (weights updated between rounds; apart from resources, unscored): {counters}"]


def run_time(records: Sequence[Record]) -> float:
    """The run's time in its rounds: each round's elapsed time once (instances of a round overlap).

    Records written before rounds were timed give each round's longest instance instead.
    """
    rounds: dict[int, float] = {}
    for r in records:
        seconds = float(r.get("round_time", r.get("wall_time", 0.0)))
        rounds[r["round"]] = max(rounds.get(r["round"], 0.0), seconds)
    return sum(rounds.values())


def run_report(
    path: Path | str,
    meta: RunMeta,
    records: Sequence[Record],
    invalid_reasons: Sequence[str] = (),
) -> RunReport:
    """Everything ``continual-arc report`` shows of the run in ``path``, as JSON.

    Args:
        path: the run directory.
        meta: its ``meta.json``.
        records: its records.
        invalid_reasons: why each invalid submission was refused (from the trajectories).
    """
    summary = summary_json(summarize(records, meta))
    chosen = primary(records)
    errored = [(r["step"], r["error"]) for r in chosen if r["error"]]
    invalid = [a for r in chosen for a in r.get("actions", []) if a.get("invalid")]
    report: RunReport = {
        "run": str(path),
        "learner": meta["learner"],
        "summary": summary,
        "errored_steps": [step for step, _ in errored],
        "errors_by_type": _count(f"{e.get('type')} in {e.get('during')}" for _, e in errored),
        "ends": _count(r["end"] for r in chosen),
        "invalid_submissions": len(invalid),
        "invalid_steps": sorted({r["step"] for r in chosen if any(a.get("invalid") for a in r["actions"])}),
        "invalid_reasons": _count(invalid_reasons),
        "resources": run_resources(records, bool(meta.get("concurrent_users"))),
        "wall_time": run_time(records),
    }
    if errored:
        report["first_error"] = str(errored[0][1].get("message"))
    training = run_training(records)
    if training is not None:  # a learner that trains weights: its compute, beside the score
        report["training"] = training
    kwargs = meta["learner"].get("kwargs")
    teacher = run_teacher(records, kwargs if isinstance(kwargs, Mapping) else {})
    if teacher is not None:  # a learner with a teacher: its compute beside the score, never in it
        report["teacher"] = teacher
    # ARC-AGI-3's scorecard per phase (game runs only), kept out of summary.json: it is read from
    # the same records fields as the level score, which check already recomputes.
    cards = {phase: scorecard([r for r in chosen if r["phase"] == phase]) for phase in summary["phases"]}
    if any(card is not None for card in cards.values()):
        report["scorecard"] = {phase: card for phase, card in cards.items() if card is not None}
        report["scorecard_baseline"] = baseline_note(human_share(chosen))
    return report


def _count(values: Iterable[object]) -> dict[str, int]:
    out: dict[str, int] = {}
    for value in values:
        out[str(value)] = out.get(str(value), 0) + 1
    return dict(sorted(out.items()))


def _fault_lines(report: RunReport) -> list[str]:
    """The run's errored instances and invalid submissions: how many, where, and why."""
    lines: list[str] = []
    if report["errored_steps"]:
        shown = ", ".join(map(str, report["errored_steps"][:20]))
        lines.append(
            f"errored instances: {len(report['errored_steps'])} (steps {shown}): {report['errors_by_type']}"
        )
        if "first_error" in report:
            lines.append(f"first error: {report['first_error']}")
    else:
        lines.append("errored instances: 0")
    if report["invalid_submissions"]:
        reasons = "; ".join(f"{why} ({n})" for why, n in report["invalid_reasons"].items())
        lines.append(
            f"invalid submissions (charged as wrong): {report['invalid_submissions']} on "
            f"{len(report['invalid_steps'])} instance(s)" + (f": {reasons}" if reasons else "")
        )
    else:
        lines.append("invalid submissions: 0")
    return lines


def format_run(report: RunReport) -> str:
    """The text of ``continual-arc report``."""
    s = report["summary"]
    # A game run (arc3) shows ARC-AGI-3's mean level score beside U and P.
    games = any("level_score" in row for row in s["phases"].values())
    lines = [
        f"run {report['run']}",
        _protocol_line(s["protocol"]),
        f"learner: {report['learner'].get('class')} {json.dumps(report['learner'].get('kwargs'))}",
        f"config {s['config']}, seed {s['seed']}, {s['users']} user(s), "
        + (f"test {s['test']}" if s["test"] else f"order {s['order']}")
        + f"; {s['instances']} of {s['slots']} slots played"
        + ("" if s["complete"] else " (incomplete)"),
        "",
        f"{'phase':10} {'instances':>9} {'U':>7} {'P':>7} {'errored':>8}"
        + (f" {'level score':>12}" if games else ""),
    ]
    for phase, row in s["phases"].items():
        lines.append(
            f"{phase:10} {row['instances']:>9} {_fmt(row['budget_used']):>7} {_fmt(row['share_solved']):>7} "
            f"{row['errored']:>8}" + (f" {_fmt(row.get('level_score'), SHARE_DIGITS):>12}" if games else "")
        )
    cards = report.get("scorecard")
    if cards:
        shown = "  ".join(f"{phase} {_fmt(card, SHARE_DIGITS)}" for phase, card in cards.items())
        lines += [
            "",
            "ARC-AGI-3's scorecard (levels weighted by their index, baseline "
            f"{report.get('scorecard_baseline', baseline_note(None))}): {shown}",
        ]
    if any(len(users) > 1 for users in s["per_user"].values()):
        lines += ["", "per user (U / P):"]
        for phase, users in s["per_user"].items():
            cells = "  ".join(
                f"{u}: {_fmt(r['budget_used'], 1)}/{_fmt(r['share_solved'], 0)}" for u, r in users.items()
            )
            lines.append(f"  {phase:9} {cells}")
    lines += _diagnostic_lines(s.get("diagnostics"))
    a = s.get("addons")
    if a:
        counts = f"U {_fmt(a['budget_used'])}, P {_fmt(a['share_solved'])}, by plug-in {a['by_plugin']}"
        lines += ["", f"auxiliary episodes (plug-ins, outside every measure): {a['episodes']}, {counts}"]
    lines += ["", f"ends: {report['ends']}", *_fault_lines(report)]
    counters = ", ".join(f"{k} {v:g}" for k, v in report["resources"].items()) or "none reported"
    lines.append(f"resources: {counters}; time in rounds {report['wall_time']:.1f} s")
    lines += _training_line(report.get("training"))
    lines += _teacher_lines(report.get("teacher"))
    # Counters a learner may report (the baselines' model learners do): read, never required.
    mismatched = report["resources"].get("model_mismatch_calls", 0)
    if mismatched:
        lines.append(f"FLAG: {mismatched:g} call(s) answered by another model than the one asked for")
    cut = report["resources"].get("cut_replies", 0)
    if cut:
        lines.append(f"note: {cut:g} repl(ies) cut short by the tracking proxy (spend cap or size limit)")
    return "\n".join(lines)


def _diagnostic_lines(d: Diagnostics | None) -> list[str]:
    if not d:
        return []
    acq = d["acquisition_cost"]
    lines = [
        "",
        f"acquisition cost (first meetings): u {_fmt(acq['mean_charge'])} over {acq['instances']} tasks",
    ]
    cells = "  ".join(f"{k}: {_fmt(g['mean_charge'], 1)}" for k, g in d["cost_by_exposure"].items())
    lines.append(f"cost by exposure index: {cells}")
    cells = "  ".join(
        f"{k}: {_fmt(g['mean_charge'], 1)} ({g['instances']})" for k, g in d["retention_by_gap"].items()
    )
    lines.append(f"retention by gap (rounds: u (n)): {cells or 'no returns'}")
    curve = d["learning_curve"]
    if curve["rounds"]:
        marks = [0, len(curve["rounds"]) // 4, len(curve["rounds"]) // 2, 3 * len(curve["rounds"]) // 4, -1]
        cells = "  ".join(f"r{curve['rounds'][i]}: {_fmt(curve['moving'][i], 1)}" for i in marks)
        lines.append(f"learning curve (moving mean u over {curve['window']} rounds): {cells}")
    return lines


def format_estimate(e: Estimate, digits: int = SHARE_DIGITS, *, with_note: bool = False) -> str:
    """An estimate as ``value [low, high]``, or ``undefined (why)``.

    Args:
        e: the [`Estimate`][continual_arc.measure.bootstrap.Estimate].
        digits: decimals shown ([`SHARE_DIGITS`][continual_arc.measure.report.SHARE_DIGITS] for a share,
            [`POINT_DIGITS`][continual_arc.measure.report.POINT_DIGITS] for points).
        with_note: append the estimate's note (e.g. how many resamples were undefined), if any.
    """
    if e.value is None:
        return f"undefined ({e.note})"
    text = f"{e.value:.{digits}f}"
    if e.low is not None:
        text += f" [{e.low:.{digits}f}, {e.high:.{digits}f}]"
    return text + (f" ({e.note})" if with_note and e.note else "")


def format_level_score(side: Mapping[str, float | None]) -> str:
    """ARC-AGI-3's two scores of a side (a game test), else ``""``.

    ``"  level score 0.42, scorecard 0.37 (baseline the solver's plan)"``: the mean level score, then
    ARC-AGI-3's weighted scorecard and the baseline both were read against
    ([`baseline_note`][continual_arc.core.level_score.baseline_note]). A side computed before the
    scorecard was kept beside the level score shows the level score alone.
    """
    value = side.get("level_score")
    if value is None:
        return ""
    card = side.get("scorecard")
    if card is None:
        return f"  level score {value:.{SHARE_DIGITS}f}"
    note = baseline_note(side.get("human_baselines"))
    return f"  level score {value:.{SHARE_DIGITS}f}, scorecard {card:.{SHARE_DIGITS}f} (baseline {note})"


def format_transfer(c: TestComparison) -> str:
    """The text of ``continual-arc transfer``."""
    lines = [
        f"test {c.test or '(all phases)'}: {c.instances} instances over {c.tasks} tasks "
        f"(plays averaged: learner {c.plays['learner']}, reset {c.plays['reset']})",
        f"share saved  {format_estimate(c.share_saved, with_note=True)}",
        f"T (points)   {format_estimate(c.saving, POINT_DIGITS, with_note=True)}",
        f"learner      U {_fmt(c.learner['budget_used'])}  P {_fmt(c.learner['share_solved'])}"
        + format_level_score(c.learner),
        f"reset        U {_fmt(c.reset['budget_used'])}  P {_fmt(c.reset['share_solved'])}"
        + format_level_score(c.reset),
    ]
    for i, bare in enumerate(c.bare, 1):
        lines.append(f"bare model {i} U {_fmt(bare['budget_used'])}  P {_fmt(bare['share_solved'])}")
    if c.reset_below_bare:
        lines.append("FLAG: the reset plays below the bare model on these instances")
    return "\n".join(lines)


def format_learned(r: LearnedResult) -> str:
    """The text of ``continual-arc learned``."""
    lines = [
        f"share learned     {format_estimate(r.share_learned, with_note=True)}",
        f"learnable budget  {_fmt(r.learnable_budget)} points (U(reset) - U(perfect memory))",
        f"learner           U {_fmt(r.learner['budget_used'])}  P {_fmt(r.learner['share_solved'])}"
        + format_level_score(r.learner),
        f"reset             U {_fmt(r.reset['budget_used'])}  P {_fmt(r.reset['share_solved'])}"
        + format_level_score(r.reset),
        f"perfect memory    U {_fmt(r.perfect_memory)}",
        f"{r.instances} stream instances over {r.tasks} tasks",
    ]
    if r.matched_by_task_mean:
        lines.append(
            f"{r.matched_by_task_mean} instances the reset never met, read against its mean on the task"
        )
    note = tiny_budget_note(r.learnable_budget)
    return "\n".join(lines + ([note] if note else []))


TINY_LEARNABLE_BUDGET = 10.0
"""A learnable budget under this many points is tiny: one point of U moves the share learned by more
than 0.1 ([`tiny_budget_note`][continual_arc.measure.report.tiny_budget_note])."""


def tiny_budget_note(learnable_budget: float | None) -> str | None:
    """The sentence shown beside the share learned when the learnable budget is tiny, else ``None``.

    The share learned is ``(U(reset) - U(learner)) / learnable budget`` (docs/METRICS.md), so each
    point of U the learner saves or loses against its reset moves it by ``1 / learnable budget``.
    Under [`TINY_LEARNABLE_BUDGET`][continual_arc.measure.report.TINY_LEARNABLE_BUDGET] points that is more
    than 0.1 a point: a difference of a few points, within what one instance can cost, reads as a large share
    with a wide interval. A budget of 0 has its own note already (the share is undefined).
    """
    if learnable_budget is None or not 0 < learnable_budget < TINY_LEARNABLE_BUDGET:
        return None
    return (
        f"the learnable budget is tiny ({format_points(learnable_budget)} points, under "
        f"{format_points(TINY_LEARNABLE_BUDGET)}): each point of U the learner saves or loses against "
        f"its reset moves the share learned by {1 / learnable_budget:.2f}, so read the two U beside it"
    )
