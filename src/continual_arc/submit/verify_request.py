"""A verification asked for by an issue: the form read, the learner installed, verified, signed, answered.

The *Verify my learner* issue form (``.github/ISSUE_TEMPLATE/verify.yml``) is rendered by GitHub
as Markdown, each field a ``### Label`` heading followed by its value (``_No response_`` when
left empty). [`parse_form`][continual_arc.submit.verify_request.parse_form] reads it into a
[`VerifyRequest`][continual_arc.submit.verify_request.VerifyRequest], refusing in one sentence a field that is
missing or malformed. [`serve_request`][continual_arc.submit.verify_request.serve_request] then does what the
workflow (``.github/workflows/verify.yml``) runs as one command: installs the learner's repository at its
commit with pip, runs ``continual-arc verify`` on the pack it is given (a path the workflow holds as a secret,
never named in what is posted), signs with the key it is given, and writes the comment to post: the numbers
and the standing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import ContinualArcError
from ..tracks.registry import use_pack
from .check import CheckNumbers, check_submission
from .signing import read_signing_key
from .standing import Standing, load_trusted

__all__ = [
    "FORM_FIELDS",
    "ServeOptions",
    "VerifyRequest",
    "VerifyRequestError",
    "comment",
    "install",
    "parse_form",
    "run_verify",
    "serve_request",
]

FORM_FIELDS = {
    "track": "Track",
    "repository": "Repository",
    "commit": "Commit",
    "learner": "Learner",
    "models": "Models",
    "budget": "Budget",
}
"""Each field of the request, by the label the issue form gives it."""

_COMMIT = re.compile(r"[0-9a-f]{40}")
_LEARNER = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")
_REPOSITORY = re.compile(r"(https://|file://)\S+")
_TRACKS = ("arc1", "arc2", "arc3")


class VerifyRequestError(ContinualArcError):
    """A request that cannot be served as written: a field missing or malformed, or an install that failed."""


@dataclass(frozen=True)
class VerifyRequest:
    """What an issue asks to verify.

    Attributes:
        track: the track (``arc1``, ``arc2`` or ``arc3``).
        repository: the learner's repository (an ``https://`` URL; ``file://`` for a local one).
        commit: the commit to install, 40 hex digits.
        learner: the learner's import path, ``module:Class``, built with no arguments.
        models: each model the learner calls, one a line, as the form lists them (``none``: none).
        budget: the budget for its model calls, whole US dollars (5 to 1,000).
    """

    track: str
    repository: str
    commit: str
    learner: str
    models: tuple[str, ...]
    budget: int


def _sections(body: str) -> dict[str, str]:
    """The form's fields by label: the text under each ``### Label`` heading, stripped."""
    out: dict[str, str] = {}
    label: str | None = None
    lines: list[str] = []
    for line in [*body.splitlines(), "### "]:
        if line.startswith("### "):
            if label is not None:
                text = "\n".join(lines).strip()
                out[label] = "" if text == "_No response_" else text
            label, lines = line[4:].strip(), []
        else:
            lines.append(line)
    return out


def parse_form(body: str) -> VerifyRequest:
    """The request an issue's body (GitHub's rendering of the form) makes.

    Raises:
        VerifyRequestError: a field is missing or malformed (one sentence naming it).
    """
    sections = _sections(body)
    values: dict[str, str] = {}
    for key, label in FORM_FIELDS.items():
        value = sections.get(label, "").strip().strip("`").strip()
        if not value:
            raise VerifyRequestError(f"the request's {label} is missing: fill in the form's {label} field")
        values[key] = value
    checks: Mapping[str, tuple[bool, str]] = {
        "track": (values["track"] in _TRACKS, f"one of {', '.join(_TRACKS)}"),
        "repository": (bool(_REPOSITORY.fullmatch(values["repository"])), "an https:// URL"),
        "commit": (bool(_COMMIT.fullmatch(values["commit"])), "a commit's 40 hexadecimal digits"),
        "learner": (bool(_LEARNER.fullmatch(values["learner"])), "an import path, module:Class"),
        "budget": (values["budget"].isdigit() and 5 <= int(values["budget"]) <= 1000,
                   "whole US dollars from 5 to 1000"),
    }  # fmt: skip
    for key, (ok, wanted) in checks.items():
        if not ok:
            raise VerifyRequestError(
                f"the request's {FORM_FIELDS[key]} is {values[key]!r}, but must be {wanted}"
            )
    models = tuple(m.strip("-* ").strip() for m in values["models"].splitlines() if m.strip("-* ").strip())
    return VerifyRequest(
        track=values["track"],
        repository=values["repository"],
        commit=values["commit"],
        learner=values["learner"],
        models=models,
        budget=int(values["budget"]),
    )


@dataclass(frozen=True)
class ServeOptions:
    """How to serve a request.

    Attributes:
        pack: the rule pack's folder (held by the verifier, a secret of the workflow).
        key: the private key that signs (a secret of the workflow).
        out: the verification's directory.
        comment: where the comment to post is written (Markdown).
        python: the Python whose environment the learner is installed into and verified in.
        target: install the learner into this folder instead (``pip --target``), put on its path.
        pip_args: more arguments to ``pip install`` (an index, ``--no-deps``, ...).
        seed: the verification's seed (``None``: drawn).
        resamples: bootstrap resamples of the numbers.
    """

    pack: Path
    key: Path
    out: Path
    comment: Path
    python: Path = field(default_factory=lambda: Path(sys.executable))
    target: Path | None = None
    pip_args: Sequence[str] = ()
    seed: int | None = None
    resamples: int = 10_000


def _run(command: Sequence[str], env: Mapping[str, str], what: str) -> None:
    done = subprocess.run(list(command), env=dict(env), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [line.strip() for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        # the line that says why: pip's and Python's own errors, else the last one
        said = [line for line in lines if line.lower().startswith(("error", "continual-arc: error"))]
        raise VerifyRequestError(
            f"{what} failed (exit {done.returncode}): {(said or lines or ['no output'])[-1]}"
        )


def _env(options: ServeOptions) -> dict[str, str]:
    env = dict(os.environ)
    if options.target is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(options.target), env.get("PYTHONPATH")) if p)
    return env


def install(request: VerifyRequest, options: ServeOptions) -> None:
    """``pip install git+REPOSITORY@COMMIT`` into the given Python (or ``--target`` folder).

    Raises:
        VerifyRequestError: pip failed (its last line says why).
    """
    command = [str(options.python), "-m", "pip", "install", "--quiet", *options.pip_args]
    if options.target is not None:
        command += ["--target", str(options.target)]
    command.append(f"git+{request.repository}@{request.commit}")
    _run(command, _env(options), f"installing {request.repository} at {request.commit}")


def run_verify(request: VerifyRequest, options: ServeOptions) -> None:
    """``continual-arc verify`` on the pack, signed, in the Python the learner was installed into."""
    command = [str(options.python), "-m", "continual_arc.cli", "verify", "--learner", request.learner,
               "--pack", str(options.pack), "--out", str(options.out), "--sign-with", str(options.key),
               "--repository", request.repository, "--commit", request.commit,
               "--resamples", str(options.resamples)]  # fmt: skip
    if options.seed is not None:
        command += ["--seed", str(options.seed)]
    _run(command, _env(options), f"verifying {request.learner}")


def comment(
    request: VerifyRequest, numbers: CheckNumbers | None, standing: Standing, problems: Sequence[str]
) -> str:
    """The comment posted on the issue: the learner, the plane, the share learned, its standing."""
    lines = [
        f"**{request.learner}** from {request.repository} at `{request.commit}`, "
        f"on a private pack of {request.track}'s kind",
        "",
        f"Standing: **{standing.kind}** ({standing.reason}).",
    ]
    if standing.learner_code:
        lines.append(f"Learner code (sources SHA-256, read by the verifier): `{standing.learner_code}`.")
    if numbers is not None:
        lines += ["", "| test | share saved | 95% interval | T (points) | learner U / P | reset U / P |",
                  "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
        for test in ("seen", "held-out"):
            c = numbers[test]
            saved, t = c.share_saved, c.saving
            lines.append(
                f"| {test} | {_n(saved.value)} | {_n(saved.low)} to {_n(saved.high)} | "
                f"{_n(t.value, 0)} | {_side(c.learner)} | {_side(c.reset)} |"
            )
        learned = numbers.get("learned")
        if learned:
            s = learned.share_learned
            lines += [
                "",
                f"Share learned over the stream: {_n(s.value)} ({_n(s.low)} to {_n(s.high)}).",
            ]
    if problems:
        lines += ["", f"The checker found {len(problems)} problem(s); the first: {problems[0]}"]
    return "\n".join(lines) + "\n"


def _n(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _side(side: Mapping[str, float | None]) -> str:
    return f"{_n(side.get('budget_used'), 0)} / {_n(side.get('share_solved'))}"


def serve_request(body: str, options: ServeOptions) -> str:
    """Serve an issue's request: parse, install, verify on the pack, sign, and write the comment.

    Returns:
        The comment, also written to ``options.comment``.

    Raises:
        VerifyRequestError: the form is malformed, or the install or the verification failed.
    """
    request = parse_form(body)
    install(request, options)
    run_verify(request, options)
    key = read_signing_key(options.key)
    use_pack(options.pack)
    from_pack = check_submission(
        options.out, resamples=options.resamples, trusted=load_trusted().with_keys([key.public])
    )
    assert from_pack.standing is not None  # check_submission always reads it
    text = comment(request, from_pack.numbers, from_pack.standing, from_pack.problems)
    options.comment.parent.mkdir(parents=True, exist_ok=True)
    options.comment.write_text(text)
    return text
