"""Whether the model a reply names is the model that was asked for."""

from __future__ import annotations

import re

__all__ = ["same_model"]

# A dated or numbered snapshot of the model asked for: ``gpt-4o-2024-08-06``, ``claude-x-20250514``.
_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{4,8})")


def _bare(name: str) -> str:
    # Providers and routers differ on the vendor prefix (``openai/gpt-5`` answered as ``gpt-5``).
    return name.strip().rsplit("/", 1)[-1].lower()


def same_model(asked: str, named: str | None) -> bool:
    """Whether a reply naming ``named`` comes from the model ``asked``.

    A reply naming no model (``None`` or empty) is no evidence against it. The same name, with or
    without a vendor prefix, or a dated snapshot of it (``gpt-4o`` answered
    as ``gpt-4o-2024-08-06``), is the same model; any other name is not.
    """
    if not named:
        return True
    asked_bare, named_bare = _bare(asked), _bare(named)
    if named_bare == asked_bare:
        return True
    rest = named_bare.removeprefix(asked_bare)
    return rest != named_bare and _SNAPSHOT.fullmatch(rest) is not None
