"""The stream stage: the schedules built from a track's configuration.

The stream process, the users' tasks, instance seeds, and the schedules (streams, the reset's
stream, the two frozen tests), saved and checked as files.

Modules: [`process`][continual_arc.stream.process] (the stream process and its orders),
[`users`][continual_arc.stream.users] (the nested task order, the held-out tasks, users per track),
[`seeds`][continual_arc.stream.seeds] (instance seeds), [`slots`][continual_arc.stream.slots] (slots and their
exposure metadata), [`rows`][continual_arc.stream.rows] (the rows of each kind of schedule),
[`protocol_block`][continual_arc.stream.protocol_block] (canonical or not),
[`schedule`][continual_arc.stream.schedule] (the `Schedule` and its file).
"""
