"""The view stage: a local replay viewer of run, protocol and results directories.

Everything here only reads what it is given and never writes to it. :mod:`~.loading` reads a run
directory back however much of it there is (a run cut short, missing files, an older format) and
says what is missing; :mod:`~.catalog` finds the runs and protocols under the paths given and
pairs runs whose instances line up; :mod:`~.documents` and :mod:`~.replay` turn them into the
JSON the page draws; :mod:`~.play` serves fresh instances for a person to play; :mod:`~.app` is
the local web server (Starlette, the ``view`` extra) and :mod:`~.export` writes the same pages as
static files. The page itself is plain HTML, CSS and JavaScript in ``static/``.
"""
