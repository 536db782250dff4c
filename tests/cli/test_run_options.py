"""One set of run options, parsed alike by ``run`` and ``protocol`` into one RunOptions."""

from __future__ import annotations

from continual_arc.cli import build_parser
from continual_arc.cli.common import run_options
from continual_arc.play.options import RunOptions

FLAGS = ["--alias-style", "names", "--max-concurrent", "3", "--fail-fast", "--instance-time-limit", "2.5"]
EXPECTED = RunOptions(alias_style="names", max_concurrent=3, fail_fast=True, instance_time_limit=2.5)


def test_run_and_protocol_take_the_same_flags_into_the_same_options() -> None:
    run = build_parser("run").parse_args(
        ["run", "--learner", "m:C", "--schedule", "s.json", "--out", "o", *FLAGS]
    )
    protocol = build_parser("protocol").parse_args(["protocol", *FLAGS])
    assert run_options(run) == run_options(protocol) == EXPECTED


def test_the_defaults_are_the_runners() -> None:
    protocol = build_parser("protocol").parse_args(["protocol"])
    assert run_options(protocol) == RunOptions()


def test_first_sight_takes_only_the_time_limit() -> None:
    args = build_parser("first-sight").parse_args(["first-sight", "--instance-time-limit", "4"])
    assert run_options(args) == RunOptions(instance_time_limit=4.0)
