"""The data stage: the pinned sources of each track, and what is drawn from them.

The pinned sources, the data directory, ``data status`` and ``data fetch``, seeded and verified
draws from the task generators, and the screens that admit a generator to a pool.

Modules: :mod:`~.pinned` (the pinned packages, checked by hash), :mod:`~.directory` (the cache
directory), :mod:`~.rearc` (Re-ARC draws), :mod:`~.screen` (the screens, committed in ``screens/``),
:mod:`~.status` (``data status`` and ``data fetch``).
"""
