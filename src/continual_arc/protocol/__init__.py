"""The protocol stage: a track's whole canonical protocol in one call, and the plane it lands on.

The stream, the two frozen tests from its end, and the reset on each.

Modules: [`plays`][continual_arc.protocol.plays] (the six plays and their schedules),
[`play`][continual_arc.protocol.play] (playing them, in parallel processes where the learner allows),
[`plane`][continual_arc.protocol.plane] (a protocol directory's place on the plane),
[`conclude`][continual_arc.protocol.conclude] (``protocol.json``, the plots and ``submission.json``).
"""
