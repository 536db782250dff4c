"""The names a learner sees for tasks: aliases of the real ids, salted per run directory.

The real task id is a lookup key (a learner could run the Re-ARC verifier named by it, or find a
held-out input among the public pairs), so the learner sees an alias instead: ``task-3f2a9c1e``
(style ``hash``) or a codename such as ``amber-falcon-3f2a`` (style ``names``), both derived from
the task id and the run directory's ``alias-salt``. The salt is created on first use and reused
when present, so a test played in a directory holding the stream's salt meets the stream's tasks
under the names it learnt them by.

The run itself has a name too, its ``run-id`` (`read_or_create_run_id`): drawn once in the run
directory and read back when the run resumes, so that a learner naming its run to an outside
service (the tracking proxy's spend cap) names the same run after a kill. A test's directory draws
its own: it is another run, never given the stream's.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

from ..core.errors import ContinualArcError

__all__ = [
    "ALIAS_STYLES",
    "RUN_ID_FILE",
    "SALT_FILE",
    "AliasCollisionError",
    "Aliases",
    "read_or_create_run_id",
    "read_or_create_salt",
]

SALT_FILE = "alias-salt"
"""The name of the salt file in a run directory."""

RUN_ID_FILE = "run-id"
"""The name of the file holding the run's id in a run directory."""

ALIAS_STYLES = ("hash", "names")
"""The alias styles."""

_ADJECTIVES = (
    "amber", "ashen", "azure", "bold", "brisk", "calm", "cedar", "clear", "copper", "coral", "crisp", "dawn",
    "deep", "dusky", "eager", "early", "ember", "fair", "fern", "fleet", "frost", "gentle", "gilded", "glad",
    "golden", "grand", "green", "hazel", "hidden", "hollow", "honest", "indigo", "ivory", "jade", "keen",
    "kind", "lively", "lucky", "lunar", "maple", "mellow", "misty", "noble", "north", "oaken", "olive",
    "pale", "quiet", "rapid", "royal", "ruby", "rustic", "sandy", "scarlet", "silent", "silver", "solar",
    "steady", "stone", "swift", "tidal", "umber", "velvet", "warm",
)  # fmt: skip
_NOUNS = (
    "anchor", "badger", "beacon", "birch", "bison", "brook", "canyon", "cedar", "comet", "crane", "delta",
    "dune", "eagle", "falcon", "fjord", "forge", "fox", "garnet", "glade", "harbor", "hawk", "heron",
    "island", "lantern", "lark", "ledger", "lynx", "marsh", "meadow", "mesa", "moth", "oriole", "otter",
    "owl", "pebble", "pine", "plover", "quarry", "raven", "reef", "ridge", "river", "robin", "saddle",
    "sparrow", "spruce", "summit", "swan", "thicket", "thistle", "tiger", "trail", "tundra", "valley",
    "vessel", "walnut", "willow", "wren", "yarrow", "zephyr", "acorn", "basalt", "cobalt", "dahlia",
)  # fmt: skip


class AliasCollisionError(ContinualArcError, RuntimeError):
    """Two tasks of one run got the same alias (odds about 1 in 10^5 per run with hash names)."""


def _read_or_draw(path: Path, digits: int) -> str:
    """The hex token in ``path``, or one of ``digits`` hex digits drawn and written there first.

    The file is created exclusively, so two processes starting in one directory share one token.

    Raises:
        ValueError: the file holds something else than hex digits.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        token = secrets.token_hex(digits // 2)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(token + "\n")
                handle.flush()
                os.fsync(handle.fileno())
    text = path.read_text().strip()
    if not text or any(c not in "0123456789abcdef" for c in text):
        raise ValueError(f"{path} does not hold hex digits; delete it to draw a new one")
    return text


def read_or_create_salt(run_dir: Path | str) -> str:
    """The run directory's salt: read from ``alias-salt``, or drawn and written there first."""
    return _read_or_draw(Path(run_dir) / SALT_FILE, 32)


def read_or_create_run_id(run_dir: Path | str) -> str:
    """The run's id: read from the run directory's ``run-id``, or drawn (16 hex digits) and written first."""
    return _read_or_draw(Path(run_dir) / RUN_ID_FILE, 16)


class Aliases:
    """The aliases of one run.

    Args:
        salt: the run directory's salt.
        style: ``hash`` (``task-3f2a9c1e``) or ``names`` (``amber-falcon-3f2a``).
    """

    def __init__(self, salt: str, style: str = "hash") -> None:
        if style not in ALIAS_STYLES:
            raise ValueError(f"unknown alias style {style!r}; known: {', '.join(ALIAS_STYLES)}")
        self.salt = salt
        self.style = style
        self._cache: dict[str, str] = {}

    def alias(self, task_id: str) -> str:
        """The name the learner sees for ``task_id``."""
        name = self._cache.get(task_id)
        if name is None:
            digest = hashlib.sha256(f"{self.salt}:{task_id}".encode()).digest()
            if self.style == "hash":
                name = "task-" + digest[:4].hex()
            else:
                name = f"{_ADJECTIVES[digest[0] % 64]}-{_NOUNS[digest[1] % 64]}-{digest[2:4].hex()}"
            self._cache[task_id] = name
        return name

    def check_unique(self, task_ids: Iterable[str]) -> None:
        """Refuse a run in which two tasks would share an alias.

        Raises:
            AliasCollisionError: naming both tasks and how to draw new names.
        """
        seen: dict[str, str] = {}
        for task_id in task_ids:
            name = self.alias(task_id)
            other = seen.setdefault(name, task_id)
            if other != task_id:
                raise AliasCollisionError(
                    f"tasks {other} and {task_id} share the alias {name}; "
                    f"delete {SALT_FILE} in an empty run directory to draw new names"
                )
