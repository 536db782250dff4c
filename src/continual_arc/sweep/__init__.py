"""The sweep stage: many protocols played on an engine (Ray, or a local pool), and the table of them all.

Modules: :mod:`~.spec` (the TOML spec and the protocols it expands into), :mod:`~.units` (each
play of each protocol as a unit a worker runs, with its lock and progress), :mod:`~.engines` (Ray
and the local pool), :mod:`~.driver` (planning, running, resuming), :mod:`~.table` (rows pooled
over seeds, Markdown, CSV and the plane), :mod:`~.collect` (runs read back for pooling).
"""
