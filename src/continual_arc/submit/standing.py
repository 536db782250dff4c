"""The standing of a result directory: verified, reproduced or reported, and why.

STAND-IN, REPLACED AT MERGE: the ``signing`` branch owns this module and writes the real one (a
standing computed from a signed statement by a trusted key over exactly the files present). This
file has exactly its public interface so that the leaderboard, ``check`` and ``view`` are built
against it; its body tells nothing it cannot tell without a signature: every directory is
[REPORTED][continual_arc.submit.standing.StandingKind.REPORTED], unsigned, and marked records only
when its plays hold no trajectories.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

__all__ = ["Standing", "StandingKind", "TrustedKeys", "load_trusted", "standing_of"]


class StandingKind(StrEnum):
    """What a result is: rerun on rules nobody outside has seen, rerun on public tasks, or a claim."""

    VERIFIED = "verified"
    REPRODUCED = "reproduced"
    REPORTED = "reported"


@dataclass(frozen=True)
class Standing:
    """The standing of one result directory.

    Attributes:
        kind: verified, reproduced or reported.
        reason: one sentence saying why.
        signer: the name of the trusted key that signed it (``None`` when nothing trusted did).
        records_only: the directory holds no trajectories.
        learner_code: the digest of the learner's code the signed statement names.
    """

    kind: StandingKind
    reason: str
    signer: str | None = None
    records_only: bool = False
    learner_code: str | None = None


@dataclass(frozen=True)
class TrustedKeys:
    """The public keys a reader trusts, by name (the stand-in reads none of them)."""

    paths: tuple[Path, ...] = ()


def load_trusted(extra: Sequence[Path] = ()) -> TrustedKeys:
    """The keys trusted: the repository's folder of verifiers and each ``--trust KEY`` given."""
    return TrustedKeys(tuple(Path(p) for p in extra))


def _records_only(directory: Path) -> bool:
    """Whether no play under ``directory`` holds trajectories (an ``i/`` folder)."""
    plays = [meta.parent for meta in directory.glob("*/meta.json")]
    return bool(plays) and not any((play / "i").is_dir() for play in plays)


def standing_of(directory: Path, trusted: TrustedKeys) -> Standing:
    """The standing of a result directory: here, always reported and unsigned (see the module)."""
    del trusted  # the stand-in checks no signature
    return Standing(
        StandingKind.REPORTED,
        "unsigned: no signed statement by a trusted key covers it",
        records_only=_records_only(Path(directory)),
    )
