"""The command line's reference, written from the argparse parsers themselves (never by hand).

A MkDocs hook (``hooks:`` in ``mkdocs.yml``): a page holding ``<!-- cli-reference: PROG -->`` gets
that line replaced by the reference of ``continual-arc`` or ``continual-arc-baselines``, every
command and subcommand with its usage, description and options, walked from
``continual_arc.cli.build_parser`` and ``continual_arc_baselines.cli.build_parser``. So a
flag added to a parser is in the site at the next build, and a flag removed is gone from it.

Usage as a script: ``python scripts/cli_reference.py [continual-arc|continual-arc-baselines]``
prints the Markdown.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from typing import Any

PROGS = ("continual-arc", "continual-arc-baselines")
MARKER = re.compile(r"<!-- cli-reference: (\S+) -->")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def commands(prog: str) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every command of ``prog`` that takes arguments, as (its full name, its own parser), in help order."""
    if prog == "continual-arc":
        from continual_arc.cli import build_parser

        # The root parser loads one command's module in full (the others by their help line only):
        # each command, and each subcommand of a group, is read from the root parser built for it.
        for name, placeholder in _subcommands(build_parser()).items():
            group = _subcommands(placeholder)
            if not group:
                yield from _walk(f"{prog} {name}", _subcommands(build_parser(name))[name])
            for sub_name in group:
                built = _subcommands(_subcommands(build_parser(f"{name} {sub_name}"))[name])
                yield from _walk(f"{prog} {name} {sub_name}", built[sub_name])
    elif prog == "continual-arc-baselines":
        from continual_arc_baselines.cli import build_parser as build_baselines

        for name, sub in _subcommands(build_baselines()).items():
            yield from _walk(f"{prog} {name}", sub)
    else:
        raise ValueError(f"unknown program {prog!r}; known: {', '.join(PROGS)}")


def _walk(name: str, parser: argparse.ArgumentParser) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    nested = _subcommands(parser)
    if not nested:
        yield name, parser
    for sub_name, sub in nested.items():
        yield from _walk(f"{name} {sub_name}", sub)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _default(action: argparse.Action) -> str:
    if action.default in (None, argparse.SUPPRESS) or isinstance(action, argparse._StoreTrueAction):
        return ""
    if isinstance(action.default, list | tuple):
        return " ".join(str(v) for v in action.default)
    return str(action.default)


def _help(action: argparse.Action) -> str:
    text = action.help or ""
    if "%(" in text:  # argparse's own substitutions, as --help prints them
        params: dict[str, Any] = {**vars(action), "prog": "", "default": action.default}
        text = text % params
    return text


def _options(parser: argparse.ArgumentParser) -> list[str]:
    rows = ["| argument | what it does | default |", "|---|---|---|"]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
            continue
        formatter = parser._get_formatter()  # the metavars as --help prints them: {a,b}, X [X ...]
        if action.option_strings:
            names = ", ".join(action.option_strings)
            if action.nargs != 0:
                metavar = formatter._get_default_metavar_for_optional(action)
                names = f"{names} {formatter._format_args(action, metavar)}"
        else:
            names = formatter._format_args(action, formatter._get_default_metavar_for_positional(action))
        rows.append(f"| `{_cell(names)}` | {_cell(_help(action))} | {_cell(_default(action))} |")
    return rows if len(rows) > 2 else []


def markdown(prog: str) -> str:
    """The reference of ``prog``: a section per command, with its usage and a table of its arguments."""
    out: list[str] = []
    for name, parser in commands(prog):
        parser.prog = name
        out += [f"## `{name}`", ""]
        if parser.description:
            out += [" ".join(parser.description.split()), ""]
        usage = " ".join(parser.format_usage().removeprefix("usage: ").split())
        out += ["```text", usage, "```", ""]
        out += [*_options(parser), ""]
    return "\n".join(out)


def on_page_markdown(page_markdown: str, **_: object) -> str:
    """MkDocs hook: replace each ``<!-- cli-reference: PROG -->`` line with PROG's reference."""
    return MARKER.sub(lambda match: markdown(match.group(1)), page_markdown)


def main() -> None:
    """Print the reference of the program named on the command line (default ``continual-arc``)."""
    print(markdown(sys.argv[1] if len(sys.argv) > 1 else PROGS[0]))


if __name__ == "__main__":
    main()
