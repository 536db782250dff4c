"""``continual-arc first-sight``: one instance of each of a track's public tasks, wiped before each."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..core.learner_ref import LearnerRef
from ..core.records import Phase
from ..play.learner import learner_slug
from ..protocol.first_sight import play_first_sight
from ..protocol.play import default_learner
from ..tracks.registry import get_config
from .common import ProgressBar, add_run_options, json_arg, print_json, run_options
from .configs import config_name

__all__ = ["COMMANDS", "add_commands"]

COMMANDS = ("first-sight",)
"""The top-level commands this module adds."""


def _first_sight(args: argparse.Namespace) -> int:
    config = config_name(args.config)
    resolved = get_config(config)  # once, here at the edge
    learner = args.learner or default_learner(resolved)
    kwargs = json_arg(args.learner_kwargs, "--learner-kwargs")
    out = Path(args.out or f"out/first-sight-{learner_slug(learner, kwargs)}-{config}-seed{args.seed}")
    result = play_first_sight(
        resolved,
        LearnerRef(learner, kwargs),
        out,
        seed=args.seed,
        options=run_options(args),
        progress=ProgressBar("first sight"),
    )
    if args.json:
        print_json(result.to_json())
        return 0
    print(f"{learner} at first sight on {config} (one instance of each public task, wiped before each)")
    for part, label in (
        ("pool", "pool tasks"),
        (Phase.HELD_OUT, "held-out tasks"),
        ("all", "all public tasks"),
    ):
        p = result.parts[part]
        share = "-" if p["share_solved"] is None else f"{p['share_solved']:.1f} %"
        used = "-" if p["budget_used"] is None else f"{p['budget_used']:.1f}"
        print(f"  {label:17} solved {p['solved']:>4} of {p['tasks']:<4} share solved {share:>7}   U {used}")
    print(f"written to {out}")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``first-sight`` to the root parser."""
    p = sub.add_parser(
        "first-sight", help="one instance of each of a track's public tasks, wiped before each"
    )
    p.add_argument("--config", default="arc1", help="configuration (default arc1: the track's whole pool)")
    p.add_argument("--learner", help="module:Class (default: the model-free program library)")
    p.add_argument("--learner-kwargs", help="keyword arguments of the learner, as a JSON object")
    p.add_argument("--seed", type=int, default=0, help="the seed of the instances drawn (default 0)")
    p.add_argument("--out", help="the run directory (default out/first-sight-LEARNER-CONFIG-seedS)")
    add_run_options(p, only=("instance_time_limit",))
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_first_sight)
