"""The measure stage: pure functions over records.

The budget used and share solved, a run's summary, the stream's diagnostics, the share saved and T
on a frozen test, the share learned over the stream, the flags on the reset reference, the
bootstrap over tasks behind every interval, reports in words, and plots.

Modules: :mod:`~.budget`, :mod:`~.summary`, :mod:`~.diagnostics`, :mod:`~.bootstrap`,
:mod:`~.compare`, :mod:`~.reset_flags`, :mod:`~.report`, :mod:`~.plots`. Nothing here reads a run
directory or plays anything.
"""
