"""The play stage: a learner played over a schedule into a run directory that survives a crash.

Modules: :mod:`~.learner` (the learner protocol), :mod:`~.aliases` (the names a learner sees),
:mod:`~.plugins`, :mod:`~.plugin_manager` and :mod:`~.plugin_examples` (interventions that never
touch the score), :mod:`~.episode` (one instance), :mod:`~.instance_record` (its record and
trajectory), :mod:`~.session` (one round, top to bottom), :mod:`~.auxiliary` (the extra episodes
plug-ins ask for), :mod:`~.commit` and :mod:`~.rundir` (the run directory), :mod:`~.meta`,
:mod:`~.resume`, :mod:`~.options` and :mod:`~.runner` (:func:`~.runner.run`), and, for learner
authors, :mod:`~.toy_learners` and :mod:`~.check_learner`.
"""
