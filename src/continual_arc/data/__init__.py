"""The data stage: the pinned sources of each track, and what is drawn from them.

The pinned sources, the data directory, ``data status`` and ``data fetch``, seeded and verified
draws from the task generators, and the screens that admit a generator to a pool.

Modules: [`pinned`][continual_arc.data.pinned] (the pinned packages, checked by hash),
[`directory`][continual_arc.data.directory] (the cache directory), [`rearc`][continual_arc.data.rearc] (Re-ARC
draws), [`screen`][continual_arc.data.screen] (the screens, committed in ``screens/``),
[`status`][continual_arc.data.status] (``data status`` and ``data fetch``).
"""
