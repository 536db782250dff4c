"""A result's standing, from a signature only: verified, reproduced, or reported with the reason.

The numbers of a result are checked from its files ([`check`][continual_arc.submit.check]); its standing
cannot be, since any file can be written by hand. So a directory is *verified* or *reproduced* only when
``signature.json`` holds a statement ([`signing`][continual_arc.submit.signing]) that

* is signed by a key the reader trusts ([`load_trusted`][continual_arc.submit.standing.load_trusted]: the
  repository's ``trusted-keys/``, the reader's local key, and the keys given with ``--trust``), and verifies;
* names exactly the files present, each with its SHA-256: a file changed or added since signing
  is named, and so is one missing, unless the statement says the directory was stored without it
  (``stored``: the files a stored copy keeps, trajectories left behind), which makes it *records
  only*;
* says it was verified on a rule pack (``verified``) or rerun from code on public tasks
  (``reproduced``).

Anything else is *reported*, with one sentence saying why.
[`standing_of`][continual_arc.submit.standing.standing_of] reads nothing but the directory and the keys:
``verification.json`` is one of the files a statement covers, and is believed only through it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from ..core.records import JSONValue
from .signing import (
    SIGNATURE,
    PublicKey,
    Signed,
    SigningError,
    canonical,
    config_dir,
    file_digests,
    read_public_key,
    read_signatures,
)

__all__ = [
    "LOCAL_PUBLIC_KEY",
    "TRUSTED_FOLDER",
    "Standing",
    "StandingKind",
    "TrustedKeys",
    "load_trusted",
    "standing_json",
    "standing_of",
]

TRUSTED_FOLDER = Path(__file__).resolve().parents[3] / "trusted-keys"
"""The repository's trusted keys: one ``NAME.pub`` per verifier, its name the file's stem."""

LOCAL_PUBLIC_KEY = "local-key.pub"
"""The reader's own public key in the configuration folder (`local_key`)."""


class StandingKind(StrEnum):
    """What a result stands as."""

    VERIFIED = "verified"
    REPRODUCED = "reproduced"
    REPORTED = "reported"


_RANK = {StandingKind.VERIFIED: 2, StandingKind.REPRODUCED: 1, StandingKind.REPORTED: 0}


@dataclass(frozen=True)
class Standing:
    """A directory's standing and the one sentence that says why.

    Attributes:
        kind: verified, reproduced or reported.
        reason: one sentence: what signed it, or why it stands as reported.
        signer: the trusted key's name (``None`` unless verified or reproduced).
        records_only: stored without its trajectories, as the signed statement allows.
        learner_code: the digest of the learner's code the signed statement names (its
            ``sources_sha256``, as a run's fingerprint gives it), when it names one.
    """

    kind: StandingKind
    reason: str
    signer: str | None = None
    records_only: bool = False
    learner_code: str | None = None


def standing_json(standing: Standing) -> dict[str, JSONValue]:
    """A standing as JSON (what ``check --json`` prints)."""
    return {
        "kind": str(standing.kind),
        "reason": standing.reason,
        "signer": standing.signer,
        "records_only": standing.records_only,
        "learner_code": standing.learner_code,
    }


@dataclass(frozen=True)
class TrustedKeys:
    """The public keys whose signatures give a standing, by key id."""

    keys: tuple[PublicKey, ...] = ()

    def find(self, key_id: str) -> PublicKey | None:
        """The trusted key with this id, or ``None``."""
        return next((key for key in self.keys if key.key_id == key_id), None)

    def with_keys(self, keys: Sequence[PublicKey]) -> TrustedKeys:
        """These keys and ``keys`` (a key already here is not added twice)."""
        known = {key.key_id for key in self.keys}
        return TrustedKeys(self.keys + tuple(k for k in keys if k.key_id not in known))


def load_trusted(
    extra: Sequence[Path] = (), *, folder: Path | None = TRUSTED_FOLDER, local: bool = True
) -> TrustedKeys:
    """The keys a reader trusts: the repository's folder, the local key, and ``extra`` (``--trust``).

    Args:
        extra: public key files the reader trusts besides (each an OpenSSH line).
        folder: the folder of trusted ``NAME.pub`` files (``None``: none).
        local: trust the reader's own local key too (what signs "rebuilt here"), when it exists.

    Raises:
        SigningError: a key file that is not an Ed25519 public key.
    """
    keys: list[PublicKey] = []
    if folder is not None and folder.is_dir():
        keys += [read_public_key(path, path.stem) for path in sorted(folder.glob("*.pub"))]
    own = config_dir() / LOCAL_PUBLIC_KEY
    if local and own.is_file():
        keys.append(read_public_key(own))
    keys += [read_public_key(Path(path)) for path in extra]
    return TrustedKeys().with_keys(keys)


def _files_problem(statement: Mapping[str, JSONValue], present: Mapping[str, str]) -> tuple[str | None, bool]:
    """Why the files present are not the ones the statement names (``None``: they are), and records only."""
    files = statement.get("files")
    if not isinstance(files, dict):
        return "its statement names no files", False
    stored = statement.get("stored")
    kept = set(stored) if isinstance(stored, list) else None
    changed = [name for name in present if name in files and files[name] != present[name]]
    added = [name for name in present if name not in files]
    missing = [name for name in files if name not in present and (kept is None or name in kept)]
    for found, what in ((changed, "changed since it was signed"), (added, "was added after signing"),
                        (missing, "is missing since it was signed")):  # fmt: skip
        if found:
            more = f" (and {len(found) - 1} other file(s))" if len(found) > 1 else ""
            return f"{found[0]} {what}{more}", False
    # records only: a stored copy (a rebuilt one keeps none of its trajectories either)
    return None, kept is not None and (
        statement.get("kind") == "rebuild" or any(n not in present for n in files)
    )


def _code(statement: Mapping[str, JSONValue]) -> str | None:
    learner = statement.get("learner")
    code = learner.get("code") if isinstance(learner, dict) else None
    digest = code.get("sources_sha256") if isinstance(code, dict) else None
    return str(digest) if digest else None


def _entry(signed: Signed, trusted: TrustedKeys, present: Mapping[str, str]) -> tuple[Standing, bool]:
    """The standing one signed statement gives, and whether its key is trusted."""
    key = trusted.find(signed.key_id)
    if key is None:
        reason = f"signed by a key this reader does not trust ({signed.signer!r}, id {signed.key_id[:16]})"
        return Standing(StandingKind.REPORTED, reason), False
    if not key.verifies(canonical(signed.statement), signed.signature):
        reason = f"the signature by {key.name} does not match its statement: the statement was edited"
        return Standing(StandingKind.REPORTED, reason), True
    problem, records_only = _files_problem(signed.statement, present)
    if problem is not None:
        return Standing(StandingKind.REPORTED, f"{problem} (signed by {key.name})"), True
    mode = signed.statement.get("mode")
    if mode not in (StandingKind.VERIFIED, StandingKind.REPRODUCED):
        return Standing(StandingKind.REPORTED, f"signed by {key.name}, whose statement claims no rerun"), True
    kind = StandingKind(str(mode))
    how = {"verify": "a verify rerun", "store": "a stored run", "rebuild": "rebuilt, every record equal"}
    what = how.get(str(signed.statement.get("kind")), "signed")
    stored = ", stored without its trajectories" if records_only else ""
    reason = f"{kind} by {key.name} ({what}), signed over every file{stored}"
    return Standing(kind, reason, key.name, records_only, _code(signed.statement)), True


def standing_of(directory: Path, trusted: TrustedKeys) -> Standing:
    """The standing of a directory: the best its trusted, valid signatures over its files give.

    A directory without ``signature.json`` is *reported* (unsigned), whatever else it holds.
    """
    directory = Path(directory)
    try:
        signatures = read_signatures(directory)
    except SigningError as err:
        return Standing(StandingKind.REPORTED, f"{SIGNATURE} is unreadable ({err})")
    if not signatures:
        marker = directory / "verification.json"
        why = (
            ": its verification.json is signed by nobody, so it vouches for nothing"
            if marker.exists()
            else ""
        )
        return Standing(StandingKind.REPORTED, f"unsigned{why}")
    present = file_digests(directory)
    found = [_entry(signed, trusted, present) for signed in signatures]
    # the best standing; among reported ones, a trusted key's reason (a file changed) before an unknown key's
    best = max(found, key=lambda f: (_RANK[f[0].kind], f[1]))
    return best[0]
