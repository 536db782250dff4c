"""Ed25519 keys and signed statements: what vouches for a directory's files, and who vouches.

A **statement** is a JSON object saying what a signer did to a directory (verified it, stored it,
rebuilt it) and naming every file it covered with its SHA-256
([`file_digests`][continual_arc.submit.signing.file_digests]). It is signed over its canonical bytes
([`canonical`][continual_arc.submit.signing.canonical]: sorted keys, no spaces, UTF-8), behind a fixed prefix
so that no other message signed with the same key can pass for one. The signatures live in one file of the
directory, ``signature.json``: a list of entries, each a statement, the signer's key id and the signature, so
that a maintainer's signature and a reader's own ("rebuilt here") stand side by side. Reading what they are
worth is [`standing`][continual_arc.submit.standing]'s.

Keys: the private key is PKCS#8 PEM, written with mode 0600 and never inside a result directory or
a git work tree ([`new_key_pair`][continual_arc.submit.signing.new_key_pair]); the public key is one OpenSSH
line, ``ssh-ed25519 <base64> <name>``, so a key made by ``ssh-keygen -t ed25519`` serves too. A key's id is
the SHA-256 of its 32 raw bytes, in hex.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..core.errors import ContinualArcError
from ..core.files import RecordsError, atomic_write_json, read_json
from ..core.jsonable import as_json_object
from ..core.records import JSONObject, JSONValue

__all__ = [
    "ALGORITHM",
    "CONFIG_ENV",
    "SIGNATURE",
    "UNSIGNED_FOLDERS",
    "PublicKey",
    "Signed",
    "SigningError",
    "SigningKey",
    "canonical",
    "config_dir",
    "file_digests",
    "local_key",
    "new_key_pair",
    "read_public_key",
    "read_signatures",
    "read_signing_key",
    "sign_directory",
]

ALGORITHM = "ed25519"
"""The one signature algorithm statements are signed with."""

SIGNATURE = "signature.json"
"""The file of a directory that holds its signed statements."""

UNSIGNED_FOLDERS = ("work",)
"""Top-level folders no statement covers: a verification's working folders (each learner process's
folder, log and the fresh learner's state), large, and read by nothing that computes a number."""

CONFIG_ENV = "CONTINUAL_ARC_CONFIG"
"""Environment variable that overrides the user's configuration folder (where the local key lives)."""

_DOMAIN = b"continual-arc signed statement v1\n"
"""What every signed message starts with: a statement's signature is valid for nothing else."""

_RESULT_MARKERS = ("submission.json", "meta.json", "protocol.json", "verification.json", SIGNATURE)
"""Files whose folder is a result or a run: no private key is ever written in one, or below."""


class SigningError(ContinualArcError):
    """A key that cannot be read or written where asked, or a directory that cannot be signed."""


def config_dir() -> Path:
    """The user's configuration folder: ``$CONTINUAL_ARC_CONFIG``, else ``$XDG_CONFIG_HOME/continual-arc``.

    (``~/.config/continual-arc`` without either.) It holds the reader's local key, never a result.
    """
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME")
    return (Path(base).expanduser() if base else Path.home() / ".config") / "continual-arc"


@dataclass(frozen=True)
class PublicKey:
    """A named Ed25519 public key.

    Attributes:
        name: who holds it (a trusted key's file name, or the name its line gives).
        raw: its 32 bytes.
    """

    name: str
    raw: bytes

    @property
    def key_id(self) -> str:
        """The key's id: SHA-256 of its raw bytes, in hex."""
        return hashlib.sha256(self.raw).hexdigest()

    def line(self) -> str:
        """The key as one OpenSSH line (``ssh-ed25519 <base64> <name>``)."""
        key = Ed25519PublicKey.from_public_bytes(self.raw)
        text = key.public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
        return f"{text.decode()} {self.name}\n"

    def verifies(self, message: bytes, signature: bytes) -> bool:
        """Whether ``signature`` is this key's over ``message``."""
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(signature, message)
        except InvalidSignature:
            return False
        return True


@dataclass(frozen=True)
class SigningKey:
    """An Ed25519 private key, with the name its public key goes by and the file it was read from."""

    private: Ed25519PrivateKey
    name: str
    path: Path | None = None

    @property
    def public(self) -> PublicKey:
        """Its public key."""
        raw = self.private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return PublicKey(self.name, raw)

    def sign(self, message: bytes) -> bytes:
        """The signature of ``message``."""
        return self.private.sign(message)


def read_public_key(path: Path | str, name: str | None = None) -> PublicKey:
    """A public key from its OpenSSH line, named ``name``, else by the line's comment, else the file's stem.

    Raises:
        SigningError: the file is missing, or is not one Ed25519 public key.
    """
    path = Path(path)
    try:
        text = path.read_text().strip()
    except OSError as err:
        raise SigningError(f"{path}: cannot read the public key ({err.strerror})") from None
    parts = text.split(None, 2)
    try:
        key = serialization.load_ssh_public_key(" ".join(parts[:2]).encode())
    except (ValueError, IndexError, UnsupportedAlgorithm):
        raise SigningError(
            f"{path} is not an Ed25519 public key (one line: ssh-ed25519 <base64> <name>)"
        ) from None
    if not isinstance(key, Ed25519PublicKey):
        raise SigningError(f"{path} is not an Ed25519 public key: statements are signed with Ed25519 only")
    comment = parts[2].strip() if len(parts) > 2 else ""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return PublicKey(name or comment or path.name.removesuffix(".pub"), raw)


def read_signing_key(path: Path | str) -> SigningKey:
    """A private key (PKCS#8 PEM, or OpenSSH's format), named as the public key beside it names it.

    Raises:
        SigningError: the file is missing, or is not an unencrypted Ed25519 private key.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise SigningError(f"{path}: cannot read the private key ({err.strerror})") from None
    ssh = data.lstrip().startswith(b"-----BEGIN OPENSSH")
    try:
        key: object = (
            serialization.load_ssh_private_key(data, password=None)
            if ssh
            else serialization.load_pem_private_key(data, password=None)
        )
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise SigningError(
            f"{path} is not an unencrypted Ed25519 private key (continual-arc keys new makes one)"
        ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningError(f"{path} is not an Ed25519 private key: statements are signed with Ed25519 only")
    beside = path.with_name(path.name + ".pub")
    name = read_public_key(beside).name if beside.is_file() else path.name
    return SigningKey(key, name, path.absolute())


def _refused_folder(folder: Path) -> str | None:
    """Why no private key may be written in ``folder`` (a result, a run, a git work tree), or ``None``."""
    for parent in (folder, *folder.parents):
        if (parent / ".git").exists():
            return f"{parent} is a git work tree, and a private key never enters a repository"
        found = next((m for m in _RESULT_MARKERS if (parent / m).is_file()), None)
        if found is not None:
            return f"{parent} holds {found}, and a private key never enters a result directory"
    return None


def new_key_pair(path: Path | str, name: str) -> PublicKey:
    """Make a key pair: the private key at ``path`` (mode 0600), its public key at ``path.pub``.

    Raises:
        SigningError: ``path`` exists (a key is never overwritten), or lies inside a result
            directory or a git work tree.
    """
    path = Path(path).expanduser().absolute()
    refused = _refused_folder(path.parent)
    if refused is not None:
        raise SigningError(f"refusing to write a private key at {path}: {refused}; choose a folder outside")
    if path.exists() or path.with_name(path.name + ".pub").exists():
        raise SigningError(f"{path} (or its .pub) exists: a key is never overwritten; choose another path")
    path.parent.mkdir(parents=True, exist_ok=True)
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never readable by others, even briefly
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
    public = SigningKey(private, name).public
    path.with_name(path.name + ".pub").write_text(public.line())
    return public


def local_key() -> SigningKey:
    """The reader's own key (``<config>/local-key``), made on first need: what signs "rebuilt here"."""
    path = config_dir() / "local-key"
    if not path.is_file():
        new_key_pair(path, "rebuilt here")
    return read_signing_key(path)


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _files(directory: Path) -> Iterator[Path]:
    for current, dirs, files in os.walk(directory, followlinks=False):
        here = Path(current)
        if here == directory:
            dirs[:] = [d for d in dirs if d not in UNSIGNED_FOLDERS]
            files = [f for f in files if f != SIGNATURE]
        dirs.sort()
        for name in sorted(files):
            yield here / name
        # a link to a folder is listed as a file (os.walk does not enter it): its target is never read
        yield from (here / d for d in dirs if (here / d).is_symlink())


def file_digests(directory: Path | str) -> dict[str, str]:
    """Every file under ``directory`` (its POSIX path under it) with its SHA-256, sorted by path.

    ``signature.json`` and the folders of [`UNSIGNED_FOLDERS`][continual_arc.submit.signing.UNSIGNED_FOLDERS]
    are left out; a symbolic link is listed by what it points to (``link:<target>``), never followed.
    """
    directory = Path(directory)
    out: dict[str, str] = {}
    for path in _files(directory):
        name = path.relative_to(directory).as_posix()
        out[name] = f"link:{os.readlink(path)}" if path.is_symlink() else _digest(path)
    return dict(sorted(out.items()))


def canonical(statement: Mapping[str, JSONValue]) -> bytes:
    """The bytes a statement is signed over: the domain prefix, then its JSON with sorted keys, no spaces."""
    text = json.dumps(statement, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return _DOMAIN + text.encode()


@dataclass(frozen=True)
class Signed:
    """One entry of ``signature.json``: a statement, who signed it, and the signature.

    Attributes:
        statement: what the signer states (a JSON object).
        key_id: the signer's key id ([`PublicKey.key_id`][continual_arc.submit.signing.PublicKey.key_id]).
        signer: the name the signer gave its key (said, not vouched for: the trusted key's name counts).
        signature: the Ed25519 signature over [`canonical`][continual_arc.submit.signing.canonical] of the
            statement.
    """

    statement: JSONObject
    key_id: str
    signer: str
    signature: bytes

    def to_json(self) -> JSONObject:
        """The entry as ``signature.json`` holds it."""
        return {
            "statement": self.statement,
            "algorithm": ALGORITHM,
            "key_id": self.key_id,
            "signer": self.signer,
            "signature": base64.b64encode(self.signature).decode(),
        }


def read_signatures(directory: Path | str) -> list[Signed]:
    """The signed statements of a directory (none without ``signature.json``).

    Raises:
        SigningError: ``signature.json`` is there but is not a list of signed statements.
    """
    path = Path(directory) / SIGNATURE
    try:
        value = read_json(path)
    except FileNotFoundError:
        return []
    except RecordsError as err:
        raise SigningError(str(err)) from None
    entries = value.get("signatures") if isinstance(value, dict) else None
    if not isinstance(entries, list):
        raise SigningError(f"{path}: not a list of signatures")
    out: list[Signed] = []
    for entry in entries:
        ok = isinstance(entry, dict) and entry.get("algorithm") == ALGORITHM
        statement = entry.get("statement") if isinstance(entry, dict) else None
        if not ok or not isinstance(statement, dict) or not isinstance(entry, dict):
            raise SigningError(f"{path}: an entry is not an {ALGORITHM} signature over a statement")
        try:
            signature = base64.b64decode(str(entry.get("signature")), validate=True)
        except ValueError:
            raise SigningError(f"{path}: a signature is not base64") from None
        out.append(Signed(statement, str(entry.get("key_id")), str(entry.get("signer")), signature))
    return out


def sign_directory(directory: Path | str, statement: Mapping[str, JSONValue], key: SigningKey) -> Signed:
    """Sign ``statement`` about ``directory`` and keep it in its ``signature.json``.

    An earlier signature by the same key is replaced; others are kept.

    Raises:
        SigningError: the private key lies inside ``directory`` (it would be covered, and shipped).
    """
    directory = Path(directory)
    if key.path is not None and directory.resolve() in key.path.resolve().parents:
        raise SigningError(
            f"the private key {key.path} lies inside {directory}, which would ship it: keep keys outside"
        )
    statement = as_json_object(statement)  # plain JSON: what a reader reads back
    signed = Signed(statement, key.public.key_id, key.name, key.sign(canonical(statement)))
    try:
        kept = [s for s in read_signatures(directory) if s.key_id != signed.key_id]
    except SigningError:
        kept = []  # a malformed file is replaced: nothing in it could vouch for anything
    entries: list[JSONValue] = [s.to_json() for s in (*kept, signed)]
    atomic_write_json(directory / SIGNATURE, {"format": 1, "signatures": entries})
    return signed
