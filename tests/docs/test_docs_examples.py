"""Every example in the documentation runs: its Python blocks execute, its commands parse.

The Python blocks of a page run in order, in one namespace and a folder of their own, the way a
reader would paste them. Three HTML comments (invisible on the site) steer a page:

* ``<!-- example: skip REASON -->`` on the line before a block: the block is not run, for REASON
  (it needs a model endpoint, the network, a long run);
* ``<!-- example: page PATH -->``: PATH's blocks (relative to docs/) run first, so that a guide may
  use the learner another guide wrote;
* ``<!-- example: setup ARGS -->``: ``continual-arc ARGS`` runs in the page's folder before its
  blocks, on a small configuration where the page names the canonical one.

Every ``continual-arc`` and ``continual-arc-baselines`` command in a ``bash`` block is parsed by its
own parser (a ``for`` loop's body once per value), so that a page naming a flag the parser does not
have fails here.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from continual_arc.cli import build_parser, command_of
from continual_arc.cli import main as cli_main
from continual_arc_baselines.cli import build_parser as build_baselines_parser

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", ROOT / "baselines" / "README.md", *sorted(DOCS.rglob("*.md"))]
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", flags=re.S | re.M)
PARSERS: dict[str, Callable[[str | None], argparse.ArgumentParser]] = {
    "continual-arc": build_parser,
    "continual-arc-baselines": lambda _: build_baselines_parser(),
    "arc-baselines": lambda _: build_baselines_parser(),
}
"""The programs whose commands the pages show, each with its parser (given the command, for the core's)."""
DIRECTIVE = re.compile(r"<!-- example: (skip|page|setup) ?(.*?) -->")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its language, its code, its line, and why it is skipped if it is."""

    language: str
    code: str
    line: int
    skip: str | None


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of ``page``, in order."""
    text = page.read_text()
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        skip = DIRECTIVE.fullmatch(before.strip())
        reason = skip.group(2) if skip and skip.group(1) == "skip" else None
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(match.group(1), match.group(2), line, reason))
    return found


def directives(page: Path, kind: str) -> list[str]:
    """The arguments of every ``<!-- example: KIND ... -->`` comment of ``page``."""
    return [arg for k, arg in DIRECTIVE.findall(page.read_text()) if k == kind]


def _label(page: Path) -> str:
    return str(page.relative_to(ROOT)) if page.is_relative_to(ROOT) else str(page)


def run_page(page: Path, namespace: dict[str, object]) -> list[str]:
    """Run ``page``'s Python blocks (after the pages it names) in ``namespace``; why any was skipped."""
    skipped = []
    for other in directives(page, "page"):
        skipped += run_page(DOCS / other, namespace)
    for args in directives(page, "setup"):
        with contextlib.redirect_stdout(io.StringIO()):
            assert cli_main(shlex.split(args)) == 0, f"{_label(page)}: setup `continual-arc {args}` failed"
    for block in blocks(page):
        if block.language != "python":
            continue
        if block.skip is not None:
            skipped.append(f"{_label(page)}:{block.line}: {block.skip}")
            continue
        code = compile(block.code, f"{_label(page)}:{block.line}", "exec")
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, namespace)
    return skipped


PYTHON_PAGES = [p for p in PAGES if any(b.language == "python" for b in blocks(p))]


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=_label)
def test_the_python_examples_of_a_page_run(
    page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": f"docs_example_{page.stem}"}
    skipped = run_page(page, namespace)
    if skipped and len(skipped) == sum(b.language == "python" for b in blocks(page)):
        pytest.skip("; ".join(skipped))


def _expanded(code: str) -> list[str]:
    """A bash block's lines, continuations joined, a ``for X in a b`` loop's body once per value."""
    lines = code.replace("\\\n", " ").splitlines()
    loops = (re.fullmatch(r"for (\w+) in (.*?); do", line.strip()) for line in lines)
    loop = next((match for match in loops if match), None)
    if loop is None:
        return lines
    name, values = loop.group(1), loop.group(2).split()
    return [line.replace(f"${name}", value) for line in lines for value in values]


def test_a_broken_example_fails_and_a_skipped_one_says_why(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- example: skip it needs a model -->\n```python\nraise SystemExit(1)\n```\n\n"
        "```python\nvalue = 6 * 7\n```\n\n```python\nassert value == 41, value\n```\n"
    )
    namespace: dict[str, object] = {}
    with pytest.raises(AssertionError, match="42"):
        run_page(page, namespace)
    assert namespace["value"] == 42
    page.write_text("<!-- example: skip it needs a model -->\n```python\nraise SystemExit(1)\n```\n")
    assert run_page(page, {}) == [f"{page}:2: it needs a model"]


def commands(page: Path) -> list[tuple[int, str, list[str]]]:
    """Every command of ``page``'s bash blocks that a parser here reads: (its block's line, program, args)."""
    found = []
    for block in blocks(page):
        if block.language != "bash":
            continue
        for line in _expanded(block.code):
            for part in re.split(r"&&|&|;|\|", line):
                words = shlex.split(part, comments=True)
                prog = Path(words[0]).name if words else ""
                if prog in PARSERS:
                    found.append((block.line, prog, words[1:]))
    return found


COMMANDS = [(page, line, prog, argv) for page in PAGES for line, prog, argv in commands(page)]


def test_the_pages_hold_commands_to_check() -> None:
    assert len(COMMANDS) > 50
    named = {argv[0] for _, _, prog, argv in COMMANDS if prog == "continual-arc"}
    assert {"protocol", "run", "sweep", "verify", "check", "view", "pack"} <= named


@pytest.mark.parametrize(
    ("page", "line", "prog", "argv"), COMMANDS, ids=[f"{_label(p)}:{n}" for p, n, _, _ in COMMANDS]
)
def test_every_command_of_the_guides_parses(page: Path, line: int, prog: str, argv: list[str]) -> None:
    command = command_of(argv)  # a group's subcommand by its path (``data fetch``), as main reads it
    with contextlib.redirect_stderr(io.StringIO()) as err, contextlib.redirect_stdout(io.StringIO()):
        try:
            PARSERS[prog](command).parse_args(argv)
        except SystemExit as exit_:
            if exit_.code != 0:  # --help exits 0
                pytest.fail(f"{_label(page)}:{line}: `{prog} {shlex.join(argv)}`: {err.getvalue()}")
