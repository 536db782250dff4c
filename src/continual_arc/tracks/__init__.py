"""The tracks stage: one module per track, and one immutable registry of them.

Each track declares its task sources, its pool, its held-out tasks, its configurations and the
environment its instances are played in.

Modules: :mod:`~.sources` (task sources and instances), :mod:`~.grid_env` (the environment of a
grid instance), :mod:`~.track` (what a track is), :mod:`~.arc1`, :mod:`~.arc2` and :mod:`~.toy` (the tracks),
:mod:`~.registry` (every track and configuration by name).
"""
