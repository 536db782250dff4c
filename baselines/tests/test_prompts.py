from __future__ import annotations

import random

import pytest

from continual_arc.core.grids import Grid
from continual_arc_baselines import prompts

A: Grid = ((0, 1, 2), (3, 0, 0))
B: Grid = ((2, 1, 0), (0, 0, 3))
TEST: Grid = ((5, 5), (0, 7))
WRONG: Grid = ((9, 9), (9, 9))


def _random_grid(rng: random.Random) -> Grid:
    h, w = rng.randint(1, 30), rng.randint(1, 30)
    return tuple(tuple(rng.randint(0, 9) for _ in range(w)) for _ in range(h))


def test_grid_text_is_rows_of_spaced_colours_and_reads_back() -> None:
    assert prompts.grid_text(A) == "0 1 2\n3 0 0"
    rng = random.Random(7)
    for _ in range(50):
        grid = _random_grid(rng)
        assert prompts.parse_grid(f"```grid\n{prompts.grid_text(grid)}\n```") == grid
        assert prompts.parse_grid(prompts.grid_text(grid)) == grid


def test_the_program_prompt_states_the_rules_the_grids_and_the_verdicts() -> None:
    system, user = prompts.program_messages([(A, B)], TEST, [WRONG], time_limit=2.5)
    assert (system["role"], user["role"]) == ("system", "user")
    for phrase in ("transform(grid)", "costs 1 point", "wrong answer", "2.5 seconds", "```python", "numpy"):
        assert phrase in system["content"]
    text = user["content"]
    assert "Demonstration 1\ninput (2x3):\n0 1 2\n3 0 0\noutput (2x3):\n2 1 0\n0 0 3" in text
    assert "Test input (2x2):\n5 5\n0 7" in text
    assert "judged wrong" in text and "wrong answer 1 (2x2):\n9 9\n9 9" in text
    assert "another rule" in text
    assert text.index("Demonstration 1") < text.index("Test input") < text.index("judged wrong")


def test_without_verdicts_no_wrong_answers_are_mentioned() -> None:
    _, user = prompts.program_messages([(A, B), (B, A)], TEST)
    assert "judged wrong" not in user["content"]
    assert "Demonstration 2" in user["content"]


def test_the_answer_and_bare_prompts_ask_for_a_grid_block() -> None:
    system, user = prompts.answer_messages([(A, B)], TEST, [WRONG])
    assert "```grid" in system["content"] and "transform" not in system["content"]
    assert "Do not give any of them again" in user["content"]
    system, user = prompts.bare_messages([(A, B)], TEST, attempts=8)
    assert "up to 8 answers" in system["content"] and "judged wrong" not in user["content"]


def test_the_follow_ups_say_what_went_wrong() -> None:
    assert "no ```python block" in prompts.program_missing()
    failed = prompts.program_failed(2, "ZeroDivisionError: division by zero (line 3)")
    assert "demonstration 2" in failed and "ZeroDivisionError" in failed
    mismatch = prompts.program_mismatch(1, A, B)
    assert "it returned (2x3):\n0 1 2" in mismatch and "expected (2x3):\n2 1 0" in mismatch
    assert "test input" in prompts.program_failed_test("time limit")
    assert "already judged wrong" in prompts.program_repeats_wrong()
    assert "already judged wrong" in prompts.answer_repeats_wrong()
    assert "```grid" in prompts.answer_unreadable()
    long_error = prompts.program_failed(1, "x" * 10_000)
    assert len(long_error) < 1_000  # a flood of output is clipped, not sent back


def test_the_bare_verdict_gives_the_reason_and_the_answers_left() -> None:
    assert prompts.bare_verdict(None, 3) == (
        "Wrong: that is not the output of the test input. You have 3 answers left. "
        "Reply with another output grid."
    )
    verdict = prompts.bare_verdict("invalid grid: grid has no rows", 1)
    assert "not a valid grid: invalid grid: grid has no rows" in verdict and "1 answer left" in verdict


@pytest.mark.parametrize(
    ("reply", "grid"),
    [
        ("Here it is:\n```grid\n1 2\n3 4\n```\nDone.", ((1, 2), (3, 4))),
        ("```\n[[1, 2], [3, 4]]\n```", ((1, 2), (3, 4))),
        ("The answer is [[1,2],[3,4]].", ((1, 2), (3, 4))),
        ("```grid\n12\n34\n```", ((1, 2), (3, 4))),
        ("```grid\n1,2\n3,4\n```", ((1, 2), (3, 4))),
        ("```grid\n|1|2|\n|3|4|\n```", ((1, 2), (3, 4))),
        ("first guess\n```grid\n0 0\n```\nno, rather\n```grid\n5\n6\n```", ((5,), (6,))),
        ("Reasoning about rows.\n\n7 7 7\n0 0 0\n", ((7, 7, 7), (0, 0, 0))),
        ("```grid\n1 2\n3 4", ((1, 2), (3, 4))),  # a fence left open at the end
        ("```grid\n1 2\n3\n```", None),  # ragged
        ("```grid\n1 12\n3 4\n```", None),  # a colour past 9
        ("I cannot tell.", None),
        ("", None),
    ],
)
def test_parse_grid_reads_answers_robustly(reply: str, grid: Grid | None) -> None:
    assert prompts.parse_grid(reply) == grid


def test_a_grid_block_wins_over_rows_quoted_in_prose() -> None:
    reply = "The test input\n5 5\n0 7\nbecomes\n```grid\n7 0\n5 5\n```\nas shown."
    assert prompts.parse_grid(reply) == ((7, 0), (5, 5))


@pytest.mark.parametrize(
    ("reply", "program"),
    [
        ("```python\ndef transform(grid):\n    return grid\n```", "def transform(grid):\n    return grid\n"),
        (
            "```python\nimport numpy\n```\nthen\n```py\ndef transform(g):\n    return g\n```",
            "def transform(g):\n    return g\n",
        ),
        ("def transform(grid):\n    return grid", "def transform(grid):\n    return grid\n"),
        ("```python\ndef transform(grid):\n    return grid", "def transform(grid):\n    return grid\n"),
        ("```python\nprint('no function')\n```", None),
        ("I would flip it.", None),
    ],
)
def test_extract_program_takes_the_block_defining_transform(reply: str, program: str | None) -> None:
    assert prompts.extract_program(reply) == program
