"""What a harness is told: the task in its own terms, and each variant's instruction."""

from __future__ import annotations

from continual_arc.env import LearnerObservation

from ..prompts import grid_text

__all__ = ["KEEP_ONE_PROGRAM", "STORE_REQUEST", "task_prompt"]

STORE_REQUEST = (
    "If anything from this instance could help you the next time you meet this task or another one, "
    "save it now with your own tools for keeping notes, memories or skills."
)
"""Added to every verdict in the ``asked_to_store`` variant."""

KEEP_ONE_PROGRAM = (
    "Keep one tested program per task. Before anything else, look in your workspace for a program "
    "saved under this task's name; if there is one, run it on the test input and submit its output. "
    "When you solve a task, save the Python program that produced the right answer, tested against "
    "every demonstration you hold, under the task's name, replacing any older one."
)
"""Added to the task in the ``keep_one_program`` variant."""


def task_prompt(obs: LearnerObservation, instructions: str = "", arc: str = "arc") -> str:
    """The task for one instance: its name, the test input, the rules and the ``arc`` command.

    ``arc`` is the command's absolute path: a harness's shell tool may not keep the ``PATH`` it
    was started with.
    """
    grid = obs.input
    parts = [
        f"Solve one instance of the ARC task named {obs.task_id}. A task is a hidden rule that turns an "
        "input grid into an output grid; a grid is rows of colours 0-9. Find the output for this test "
        f"input ({len(grid)}x{len(grid[0])}):",
        grid_text(grid),
        f"You act on the instance only by running the shell command {arc}:\n"
        f"  {arc} demo    buy one demonstration: another input with its output (costs 1)\n"
        f"  {arc} submit '[[0,1],[2,3]]'    submit your answer as JSON rows (a wrong answer costs 1)\n"
        f"  {arc} submit --file PATH    submit the grid in a JSON file\n"
        f"  {arc} give-up    end the instance unsolved\n"
        f"  {arc} show    show this task again",
        f"You may buy up to {obs.demo_cap} demonstrations and make up to {obs.attempt_cap} wrong "
        "answers. A right answer ends the instance. An instance left unsolved costs the whole budget "
        f"({obs.attempt_cap + obs.demo_cap}), however it ends, so spend only what helps you solve it.",
    ]
    if instructions:
        parts.append(instructions)
    return "\n\n".join(parts)
