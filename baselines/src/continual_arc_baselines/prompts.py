"""The prompts the model-backed learners send, and how their replies are read.

Every prompt says the rules of the instance (what a grid is, what is asked, what it costs), shows
the demonstrations held and the test input as grids, and lists the verdicts so far (answers
already judged wrong). Grids are written one row per line, colours separated by spaces, under a
header giving their size::

    input (2x3):
    0 1 2
    3 0 0

Three conversations use them:

* the **program writer** (`program_messages`): the model writes ``transform(grid)`` in
  Python; the follow-ups (`program_missing`, `program_failed`,
  `program_mismatch`, `program_failed_test`, `program_repeats_wrong`) tell it why
  a program was not kept;
* the **answer writer** of the floors (`answer_messages`): the model answers with the grid;
  the follow-ups are `answer_unreadable` and `answer_repeats_wrong`;
* the **bare model** (`bare_messages`): one conversation per instance, the verdict on each
  answer given as a reply (`bare_verdict`).

Replies are read by `extract_program` and `parse_grid`. Nothing here names a task,
a dataset or a solver: the prompts carry only what the instance showed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from continual_arc.grids import Grid, InvalidGridError, Pair, validate_grid

__all__ = [
    "Message",
    "answer_messages",
    "answer_repeats_wrong",
    "answer_unreadable",
    "bare_messages",
    "bare_verdict",
    "extract_program",
    "grid_text",
    "parse_grid",
    "program_failed",
    "program_failed_test",
    "program_messages",
    "program_mismatch",
    "program_missing",
    "program_repeats_wrong",
]

Message = dict[str, str]
"""One chat message: ``{"role": ..., "content": ...}``."""

_ERROR_CHARS = 800  # an error shown back to the model: enough for its last lines, not a flood

_PUZZLE = """\
This is a grid puzzle. A grid is a rectangle of cells, at most 30 by 30, each holding a colour \
numbered 0 to 9. Grids are written one row per line, with the colours separated by spaces, under \
a header giving their size as rows x columns. One hidden rule turns every input grid of the \
puzzle into its output grid. You are shown demonstrations of the rule (inputs with their \
outputs) and a test input; what is wanted is the test input's output.

Each demonstration the player asks for costs 1 point, and so does each wrong answer; a right \
answer ends the puzzle."""

_PROGRAM_TASK = """\
Your job is to write the rule as a Python program. Define a function `transform(grid)` that \
takes a grid as a list of lists of int and returns its output grid the same way. The program is \
first run on every demonstration input, which costs nothing: its answer to the test input is \
submitted only if it reproduces every demonstration output exactly. It runs on its own with the \
Python standard library and numpy, without files or network, for at most {limit:g} seconds per \
grid.

Reply with the whole program in one ```python code block. Keep any explanation short."""

_ANSWER_TASK = """\
Reply with the output grid of the test input in one ```grid block: one row per line, colours \
separated by spaces. Only that block is read."""

_BARE_TASK = """\
Reply with the output grid of the test input in one ```grid block: one row per line, colours \
separated by spaces. Only that block is read. If the answer is wrong you will be told, and you may \
answer again, up to {attempts} answers in all."""


def grid_text(grid: Grid) -> str:
    """A grid as text: one row per line, colours separated by spaces."""
    return "\n".join(" ".join(str(cell) for cell in row) for row in grid)


def _block(label: str, grid: Grid) -> str:
    return f"{label} ({len(grid)}x{len(grid[0])}):\n{grid_text(grid)}"


def _shown(demos: Sequence[Pair], test_input: Grid) -> str:
    parts = [
        f"Demonstration {n}\n{_block('input', a)}\n{_block('output', b)}"
        for n, (a, b) in enumerate(demos, start=1)
    ]
    parts.append(_block("Test input", test_input))
    return "\n\n".join(parts)


def _verdicts(wrong: Sequence[Grid], programs: bool) -> str:
    if not wrong:
        return ""
    shown = "\n\n".join(_block(f"wrong answer {n}", g) for n, g in enumerate(wrong, start=1))
    tail = (
        "A program giving one of these reproduces the demonstrations but is not the hidden rule: "
        "find another rule that fits every demonstration."
        if programs
        else "Do not give any of them again."
    )
    return f"\n\nThese answers to the test input were judged wrong:\n\n{shown}\n\n{tail}"


def _conversation(system: str, demos: Sequence[Pair], test_input: Grid, verdicts: str) -> list[Message]:
    user = f"{_shown(demos, test_input)}{verdicts}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def program_messages(
    demos: Sequence[Pair], test_input: Grid, wrong: Sequence[Grid] = (), *, time_limit: float = 5.0
) -> list[Message]:
    """The program writer's opening messages.

    Args:
        demos: the demonstrations held, in order.
        test_input: the instance's input.
        wrong: predictions already judged wrong on this instance.
        time_limit: the sandbox's seconds per grid, told to the model.
    """
    system = f"{_PUZZLE}\n\n{_PROGRAM_TASK.format(limit=time_limit)}"
    return _conversation(system, demos, test_input, _verdicts(wrong, programs=True))


def program_missing() -> str:
    """The follow-up when a reply holds no program defining ``transform``."""
    return (
        "Your reply holds no ```python block defining transform(grid). "
        "Reply with the whole program in one such block."
    )


def _clip(text: str) -> str:
    return text if len(text) <= _ERROR_CHARS else "..." + text[-_ERROR_CHARS:]


def program_failed(demo: int, error: str) -> str:
    """The follow-up when a program fails on demonstration number ``demo`` (1-based)."""
    return (
        f"Your program failed on demonstration {demo}: {_clip(error)}\n\n"
        "Correct it and reply with the whole program."
    )


def program_mismatch(demo: int, got: Grid, want: Grid) -> str:
    """The follow-up when a program's output on demonstration number ``demo`` is not its output."""
    return (
        f"Your program's output for demonstration {demo} is not the expected one.\n\n"
        f"{_block('it returned', got)}\n\n{_block('expected', want)}\n\n"
        "Correct it and reply with the whole program."
    )


def program_failed_test(error: str) -> str:
    """The follow-up when a program fits every demonstration but fails on the test input."""
    return (
        f"Your program reproduces every demonstration but failed on the test input: {_clip(error)}\n\n"
        "Correct it and reply with the whole program."
    )


def program_repeats_wrong() -> str:
    """The follow-up when a fitting program's answer is one already judged wrong."""
    return (
        "Your program reproduces every demonstration, but its answer to the test input is one "
        "already judged wrong, so the hidden rule is another. Reply with a program for a different "
        "rule that still fits every demonstration."
    )


def answer_messages(demos: Sequence[Pair], test_input: Grid, wrong: Sequence[Grid] = ()) -> list[Message]:
    """The answer writer's opening messages (the floors): the model answers with the grid."""
    system = f"{_PUZZLE}\n\n{_ANSWER_TASK}"
    return _conversation(system, demos, test_input, _verdicts(wrong, programs=False))


def answer_unreadable() -> str:
    """The follow-up when no grid can be read in a reply."""
    return (
        "No grid could be read in your reply. Reply with the output grid in one ```grid block: "
        "one row per line, colours 0 to 9 separated by spaces, every row the same length."
    )


def answer_repeats_wrong() -> str:
    """The follow-up when an answer is one already judged wrong."""
    return "That answer was already judged wrong. Reply with a different output grid."


def bare_messages(demos: Sequence[Pair], test_input: Grid, attempts: int) -> list[Message]:
    """The bare model's opening messages; ``attempts`` is the most answers it may give."""
    system = f"{_PUZZLE}\n\n{_BARE_TASK.format(attempts=attempts)}"
    return _conversation(system, demos, test_input, "")


def bare_verdict(invalid: str | None, attempts_left: int) -> str:
    """The reply to a wrong answer: the verdict, why it was invalid if it was, the answers left."""
    why = f" It is not a valid grid: {invalid}." if invalid else ""
    return (
        f"Wrong: that is not the output of the test input.{why} You have {attempts_left} "
        f"answer{'s' if attempts_left != 1 else ''} left. Reply with another output grid."
    )


# -- reading replies ---------------------------------------------------------------------------------

_FENCE = re.compile(r"```[ \t]*([\w+.-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_ROW = re.compile(r"^[\s\[\]|,]*\d(?:[\s,|]*\d)*[\s\[\]|,]*$")
_JSON_GRID = re.compile(r"\[\s*\[[\d\s,\[\]]*\]\s*\]")


def _fenced(text: str) -> list[str]:
    """The bodies of the fenced blocks in ``text``, in order (one left open runs to the end)."""
    return [match.group(2) for match in _FENCE.finditer(text)]


def extract_program(text: str) -> str | None:
    """The program in a reply: the last code block defining ``transform``, else ``None``.

    A reply with no code block at all counts as the program if it defines ``transform`` (some
    models drop the fence); a block left open at the end of the reply is read to the end.
    """
    blocks = _fenced(text)
    for body in reversed(blocks):
        if re.search(r"^\s*def\s+transform\s*\(", body, re.MULTILINE):
            return body.strip("\n") + "\n"
    if not blocks and re.search(r"^def\s+transform\s*\(", text, re.MULTILINE):
        return text.strip("\n") + "\n"
    return None


def _row_cells(line: str) -> list[int]:
    tokens = [t for t in re.split(r"[\s,|\[\]]+", line) if t]
    if len(tokens) == 1 and len(tokens[0]) > 1:
        tokens = list(tokens[0])  # rows written without separators: "0120"
    return [int(t) for t in tokens]


def _last_rows(text: str) -> Grid | None:
    """The last run of consecutive row-like lines in ``text``, as a grid."""
    runs: list[list[str]] = [[]]
    for line in text.splitlines():
        if _ROW.match(line) and line.strip():
            runs[-1].append(line)
        elif runs[-1]:
            runs.append([])
    for run in reversed([r for r in runs if r]):
        try:
            return validate_grid([_row_cells(line) for line in run])
        except (InvalidGridError, ValueError):
            continue
    return None


def _json_grid(text: str) -> Grid | None:
    for match in reversed(_JSON_GRID.findall(text)):
        try:
            return validate_grid(json.loads(match))
        except (InvalidGridError, ValueError):
            continue
    return None


def parse_grid(text: str) -> Grid | None:
    """The answer grid in a reply, or ``None`` when none can be read.

    Tried in order, the last match winning within each: fenced blocks (rows of digits, or a JSON
    list of lists), then a JSON list of lists anywhere, then the last run of lines that hold only
    digits and separators. Rows may separate colours with spaces, commas or nothing.
    """
    for body in reversed(_fenced(text)):
        grid = _json_grid(body) if "[" in body else None
        grid = grid or _last_rows(body)
        if grid is not None:
            return grid
    return _json_grid(text) or _last_rows(text)
