"""The sweep stage: many protocols played on an engine (Ray, or a local pool), and the table of them all.

Modules: [`spec`][continual_arc.sweep.spec] (the TOML spec and the protocols it expands into),
[`units`][continual_arc.sweep.units] (each play of each protocol as a unit a worker runs, with its lock and
progress), [`engines`][continual_arc.sweep.engines] (Ray and the local pool),
[`driver`][continual_arc.sweep.driver] (planning, running, resuming), [`table`][continual_arc.sweep.table]
(rows pooled over seeds, Markdown, CSV and the plane), [`collect`][continual_arc.sweep.collect] (runs read
back for pooling).
"""
