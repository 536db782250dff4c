"""The measure stage: pure functions over records.

The budget used and share solved, a run's summary, the stream's diagnostics, the share saved and T
on a frozen test, the share learned over the stream, the flags on the reset reference, the
bootstrap over tasks behind every interval, reports in words, and plots.

Modules: [`budget`][continual_arc.measure.budget], [`summary`][continual_arc.measure.summary],
[`diagnostics`][continual_arc.measure.diagnostics], [`bootstrap`][continual_arc.measure.bootstrap],
[`compare`][continual_arc.measure.compare], [`reset_flags`][continual_arc.measure.reset_flags],
[`report`][continual_arc.measure.report], [`plots`][continual_arc.measure.plots]. Nothing here reads a run
directory or plays anything.
"""
