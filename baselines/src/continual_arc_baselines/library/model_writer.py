"""The model program writer: a model writes Python, the sandbox checks it against the demonstrations.

Each call of `ModelProgramWriter.write` asks the model for one program defining
``transform(grid)`` (`program_messages`), runs it in the
sandbox on every demonstration held and on the test input, and returns it only if it reproduces
every demonstration output exactly and gives a valid answer not already judged wrong. Otherwise
the model is told why (the error, or its output beside the expected one) and asked again, in the
same conversation, up to ``tries`` calls. A program that loops, crashes, prints too much or
returns something that is not a grid is one more reply not kept, never an error of the run.

`ModelProgramWriter.run` runs a kept program's source again, in the sandbox, on a fresh input:
this is how the program library answers a returning task with no model call at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from continual_arc.grids import Grid

from .. import prompts
from ..sandbox import run_program
from .model_session import ModelSession
from .writer import WriteRequest, WriterResult, WrittenProgram

__all__ = ["ModelProgramWriter"]


@dataclass(frozen=True)
class _Verdict:
    """What the sandbox made of one reply: the program if it is kept, else what to tell the model."""

    program: WrittenProgram | None
    feedback: str


class ModelProgramWriter:
    """Asks a model for Python programs and keeps only those that reproduce every demonstration.

    Args:
        session: the learner's model session (calls, limits, counts and transcripts).

    Attributes:
        name: ``python``, the language of the programs (saved with the library).
    """

    name = "python"

    def __init__(self, session: ModelSession) -> None:
        self.session = session
        self.writes = 0
        self.sandbox_runs = 0
        self.programs_kept = 0

    def write(self, request: WriteRequest) -> WriterResult:
        """One fitting program, or none after ``tries`` replies that did not fit (or the call limit).

        Raises:
            ModelRefusedError: the endpoint refused the call outright.
            ModelCallError: a call failed after the client's retries.
        """
        self.writes += 1
        settings = self.session.settings
        messages = prompts.program_messages(
            request.demos, request.test_input, request.wrong, time_limit=settings.program_time_limit
        )
        calls = 0
        for _ in range(settings.tries):
            reply = self.session.chat(messages, request.instance)
            if reply is None:
                return WriterResult((), calls, "the instance's call limit is reached")
            calls += 1
            verdict = self._check(prompts.extract_program(reply), request)
            if verdict.program is not None:
                self.programs_kept += 1
                return WriterResult((verdict.program,), calls)
            messages = [
                *messages,
                {"role": "assistant", "content": reply},
                {"role": "user", "content": verdict.feedback},
            ]
        return WriterResult((), calls, f"no program fitted in {calls} replies")

    def _check(self, source: str | None, request: WriteRequest) -> _Verdict:
        """Run ``source`` on the demonstrations and the test input; keep it only if it fits them all."""
        if source is None:
            return _Verdict(None, prompts.program_missing())
        settings = self.session.settings
        inputs = [a for a, _ in request.demos] + [request.test_input]
        result = run_program(
            source, inputs, time_limit=settings.program_time_limit, memory_mb=settings.program_memory_mb
        )
        self.sandbox_runs += 1
        for n, ((_, want), got, error) in enumerate(
            zip(request.demos, result.outputs, result.errors, strict=False), start=1
        ):
            if got is None:
                return _Verdict(None, prompts.program_failed(n, error or "no output"))
            if got != want:
                return _Verdict(None, prompts.program_mismatch(n, got, want))
        answer = result.outputs[-1]
        if answer is None:
            return _Verdict(None, prompts.program_failed_test(result.errors[-1] or "no output"))
        if answer in request.wrong:
            return _Verdict(None, prompts.program_repeats_wrong())
        # Shorter programs first, should the learner ever be offered several.
        return _Verdict(WrittenProgram(source, answer, float(len(source))), "")

    def run(self, text: str, grid: Grid, instance: str) -> Grid | None:
        """Run a kept program on a fresh input in the sandbox (``None`` if it fails there)."""
        settings = self.session.settings
        result = run_program(
            text, [grid], time_limit=settings.program_time_limit, memory_mb=settings.program_memory_mb
        )
        self.sandbox_runs += 1
        return result.outputs[0]

    def resume(self, counts: Mapping[str, float]) -> None:
        """Continue a resumed run's counters from ``counts`` (its last record's `resources`)."""
        self.writes = int(counts.get("writes", 0))
        self.sandbox_runs = int(counts.get("sandbox_runs", 0))
        self.programs_kept = int(counts.get("programs_fitted", 0))

    def resources(self) -> dict[str, float]:
        """The session's cumulative model counts, with the writes and sandbox runs."""
        return {
            **self.session.totals(),
            "writes": float(self.writes),
            "sandbox_runs": float(self.sandbox_runs),
            "programs_fitted": float(self.programs_kept),
        }
