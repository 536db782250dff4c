r"""Which open weights a name means, and the name records show for them.

A model is given as a local folder (``config.json``, weights and tokenizer files, as
``save_pretrained`` writes them) or as ``org/name@commit``, a repository at one commit already in
the local Hugging Face cache. Nothing is ever downloaded.

The name shown in requests, replies, records, submissions and ``check`` is

* ``org/name@commit`` for a cached repository, as given;
* ``local/<folder name>@sha256:<hex>`` for a folder, where ``<hex>`` is the SHA-256 of the list
  of its files: for every regular file under the folder, sorted by its path relative to the
  folder (``/``-separated), the line ``<relative path>\\t<sha256 of its bytes>\\n``. Renaming the
  folder changes only the readable part; changing, adding or removing any file changes the hash.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ModelNotFound", "ModelRef", "folder_digest", "resolve_model"]

_REPO_AT_COMMIT = re.compile(r"^([\w.-]+/[\w.-]+)@([0-9a-fA-F]{7,40}|[\w.-]+)$")
_CHUNK = 1 << 20


class ModelNotFound(ValueError):
    """The model is neither a local folder nor a repository at a commit in the local cache."""


@dataclass(frozen=True)
class ModelRef:
    """Where the weights are read from, and the name they are shown under.

    Attributes:
        name: the name records show (see the module docstring).
        source: what ``from_pretrained`` is given: the folder, or the repository ``org/name``.
        revision: the commit for a cached repository; ``None`` for a folder.
    """

    name: str
    source: str
    revision: str | None


def _file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def folder_digest(folder: Path) -> str:
    """The SHA-256 (hex) of a folder's files, as the module docstring describes."""
    files = sorted((p.relative_to(folder).as_posix(), p) for p in folder.rglob("*") if p.is_file())
    listing = "".join(f"{relative}\t{_file_hash(path)}\n" for relative, path in files)
    return hashlib.sha256(listing.encode()).hexdigest()


def resolve_model(spec: str) -> ModelRef:
    """The weights ``spec`` names: a folder holding ``config.json``, or ``org/name@commit``.

    Raises:
        ModelNotFound: ``spec`` is neither (a cached repository is checked when it is loaded).
    """
    folder = Path(spec).expanduser()
    if folder.is_dir():
        if not (folder / "config.json").is_file():
            raise ModelNotFound(f"the folder {spec} holds no config.json: it is not a transformers model")
        resolved = folder.resolve()
        return ModelRef(f"local/{resolved.name}@sha256:{folder_digest(resolved)}", str(resolved), None)
    match = _REPO_AT_COMMIT.match(spec)
    if match is None:
        raise ModelNotFound(
            f"{spec!r} is neither a model folder nor a repository at a commit (org/name@commit)"
        )
    return ModelRef(spec, match[1], match[2])
