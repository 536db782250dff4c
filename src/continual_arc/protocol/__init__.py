"""The protocol stage: a track's whole canonical protocol in one call, and the plane it lands on.

The stream, the two frozen tests from its end, and the reset on each.

Modules: :mod:`~.plays` (the six plays and their schedules), :mod:`~.play` (playing them, in
parallel processes where the learner allows), :mod:`~.plane` (a protocol directory's place on the
plane), :mod:`~.conclude` (``protocol.json``, the plots and ``submission.json``).
"""
