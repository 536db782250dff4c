"""The view stage: a local replay viewer of run, protocol and results directories.

Everything here only reads what it is given and never writes to it. [`loading`][continual_arc.view.loading]
reads a run directory back however much of it there is (a run cut short, missing files, an older format) and
says what is missing; [`catalog`][continual_arc.view.catalog] finds the runs and protocols under the paths
given and pairs runs whose instances line up; [`documents`][continual_arc.view.documents] and
[`replay`][continual_arc.view.replay] turn them into the JSON the page draws;
[`play`][continual_arc.view.play] serves fresh instances for a person to play; [`app`][continual_arc.view.app]
is the local web server (Starlette, the ``view`` extra) and [`export`][continual_arc.view.export] writes the
same pages as static files. The page itself is plain HTML, CSS and JavaScript in ``static/``.
"""
