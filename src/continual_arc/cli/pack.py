"""``continual-arc pack check DIR`` and ``pack manifest DIR``: a rule pack screened, checked, pinned."""

from __future__ import annotations

import argparse
import json

from ..data.pack import load_pack, write_manifest
from ..data.pack_check import NOVELTY_DRAWS, SCREEN_DRAWS, PackReport, check_pack
from ..data.pack_disguise import DISGUISE_PAIRS
from ..tracks.pack import pack_config, pack_split, track_name

__all__ = ["COMMANDS", "add_commands", "format_report"]

COMMANDS = ("pack",)
"""The top-level commands this module adds."""


def format_report(report: PackReport) -> str:
    """The check's verdict on every rule, then the pack's."""
    public = ", ".join(f"{count} {kind}" for kind, count in sorted(report.public.items()))
    lines = [
        f"pack {report.pack['pack']} version {report.pack['version']}, "
        f"manifest sha256 {report.pack['manifest_sha256']}",
        f"checked against {public} public tasks; screened over {SCREEN_DRAWS} draws, "
        f"{NOVELTY_DRAWS} draws compared with the public pairs, the first {DISGUISE_PAIRS} run through "
        f"{report.verifiers} public Re-ARC verifiers",
    ]
    for rule in report.rules:
        lines.append(f"  {rule.rule:24} {'ok' if rule.ok else 'REFUSED'}")
        lines += [f"    {problem}" for problem in rule.problems]
    refused = sum(not rule.ok for rule in report.rules)
    lines.append(
        f"every one of the {len(report.rules)} rules passes"
        if report.ok
        else f"{refused} of {len(report.rules)} rules refused: the pack cannot serve a track as it is"
    )
    return "\n".join(lines)


def _check(args: argparse.Namespace) -> int:
    pack = load_pack(args.dir)
    report = check_pack(pack)
    if args.json:
        rules = {r.rule: {"ok": r.ok, "problems": list(r.problems), "screen": r.screen} for r in report.rules}
        print(
            json.dumps(
                {
                    "pack": report.pack,
                    "public": report.public,
                    "verifiers": report.verifiers,
                    "ok": report.ok,
                    "rules": rules,
                },
                indent=1,
                sort_keys=True,
            )
        )
        return 0 if report.ok else 1
    print(format_report(report))
    if report.ok:
        streamed, held = pack_split(pack, tuple(sorted(pack.rules)))
        config = pack_config(track_name(pack.name), len(streamed), len(held))
        print(
            f"configuration {config.name}: {config.stream_tasks} rules streamed over "
            f"{config.stream_tasks * config.supply} instances, {config.held_out} held out, "
            f"a seen test of {config.seen_size}"
        )
    return 0 if report.ok else 1


def _manifest(args: argparse.Namespace) -> int:
    path = write_manifest(args.dir)
    print(f"wrote {path}")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pack`` and its subcommands to the root parser."""
    p = sub.add_parser("pack", help="rule packs: check one, or write its manifest")
    group = p.add_subparsers(dest="pack_command", required=True, metavar="SUBCOMMAND")
    check = group.add_parser("check", help="screen every rule and check it against every public ARC task")
    check.add_argument("dir", help="the pack's folder (manifest.json and rules/)")
    check.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    check.set_defaults(func=_check)
    manifest = group.add_parser("manifest", help="write the manifest of the pack's rule files (their sha256)")
    manifest.add_argument("dir", help="the pack's folder")
    manifest.set_defaults(func=_manifest)
