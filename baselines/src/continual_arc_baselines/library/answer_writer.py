"""The direct-answer writer of the prompting floors: the model answers with the output grid.

There is no program to check, so nothing is tested against the demonstrations: each call of
`DirectAnswerWriter.write` shows the model the demonstrations held, the test input and the
answers already judged wrong (`answer_messages`), reads a
grid out of its reply (`parse_grid`) and returns it as the
one "program" of the result. A reply with no readable grid, or one repeating a wrong answer, is
answered with why and asked again, up to ``tries`` calls. `DirectAnswerWriter.run` returns
``None``: an answer is not a program and cannot be run on another input.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from continual_arc.grids import Grid, to_json

from .. import prompts
from .model_session import ModelSession
from .writer import WriteRequest, WriterResult, WrittenProgram

__all__ = ["DirectAnswerWriter"]


class DirectAnswerWriter:
    """Asks a model for the test input's output grid.

    Args:
        session: the learner's model session (calls, limits, counts and transcripts).

    Attributes:
        name: ``answer``: what it writes are answers, not programs.
    """

    name = "answer"

    def __init__(self, session: ModelSession) -> None:
        self.session = session
        self.writes = 0
        self.unreadable = 0

    def write(self, request: WriteRequest) -> WriterResult:
        """One answer, or none after ``tries`` replies with no new readable grid (or the call limit).

        Raises:
            ModelRefusedError: the endpoint refused the call outright.
            ModelCallError: a call failed after the client's retries.
        """
        self.writes += 1
        messages = prompts.answer_messages(request.demos, request.test_input, request.wrong)
        calls = 0
        for _ in range(self.session.settings.tries):
            reply = self.session.chat(messages, request.instance)
            if reply is None:
                return WriterResult((), calls, "the instance's call limit is reached")
            calls += 1
            grid = prompts.parse_grid(reply)
            if grid is not None and grid not in request.wrong:
                text = "answer " + json.dumps(to_json(grid), separators=(",", ":"))
                return WriterResult((WrittenProgram(text, grid, 0.0),), calls)
            self.unreadable += grid is None
            follow_up = prompts.answer_unreadable() if grid is None else prompts.answer_repeats_wrong()
            messages = [
                *messages,
                {"role": "assistant", "content": reply},
                {"role": "user", "content": follow_up},
            ]
        return WriterResult((), calls, f"no new readable answer in {calls} replies")

    def run(self, text: str, grid: Grid, instance: str) -> Grid | None:
        """An answer cannot be run on another input: always ``None``."""
        return None

    def resume(self, counts: Mapping[str, float]) -> None:
        """Continue a resumed run's counters from ``counts`` (its last record's `resources`)."""
        self.writes = int(counts.get("writes", 0))
        self.unreadable = int(counts.get("unreadable_replies", 0))

    def resources(self) -> dict[str, float]:
        """The session's cumulative model counts, with the writes and unreadable replies."""
        return {
            **self.session.totals(),
            "writes": float(self.writes),
            "unreadable_replies": float(self.unreadable),
        }
