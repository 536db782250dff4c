"""The tracks stage: one module per track, and one immutable registry of them.

Each track declares its task sources, its pool, its held-out tasks, its configurations and the
environment its instances are played in.

Modules: [`sources`][continual_arc.tracks.sources] (task sources and instances),
[`grid_env`][continual_arc.tracks.grid_env] (the environment of a grid instance),
[`track`][continual_arc.tracks.track] (what a track is), [`arc1`][continual_arc.tracks.arc1],
[`arc2`][continual_arc.tracks.arc2] and [`toy`][continual_arc.tracks.toy] (the tracks),
[`registry`][continual_arc.tracks.registry] (every track and configuration by name).
"""
