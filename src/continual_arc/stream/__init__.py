"""The stream stage: the schedules built from a track's configuration.

The stream process, the users' tasks, instance seeds, and the schedules (streams, the reset's
stream, the two frozen tests), saved and checked as files.

Modules: :mod:`~.process` (the stream process and its orders), :mod:`~.users` (the nested task
order, the held-out tasks, users per track), :mod:`~.seeds` (instance seeds), :mod:`~.slots`
(slots and their exposure metadata), :mod:`~.rows` (the rows of each kind of schedule),
:mod:`~.protocol_block` (canonical or not), :mod:`~.schedule` (the :class:`Schedule` and its file).
"""
