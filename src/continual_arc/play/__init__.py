"""The play stage: a learner played over a schedule into a run directory that survives a crash.

Modules: [`learner`][continual_arc.play.learner] (the learner protocol),
[`aliases`][continual_arc.play.aliases] (the names a learner sees), [`plugins`][continual_arc.play.plugins],
[`plugin_manager`][continual_arc.play.plugin_manager] and
[`plugin_examples`][continual_arc.play.plugin_examples] (interventions that never touch the score),
[`episode`][continual_arc.play.episode] (one instance),
[`instance_record`][continual_arc.play.instance_record] (its record and trajectory),
[`session`][continual_arc.play.session] (one round, top to bottom),
[`auxiliary`][continual_arc.play.auxiliary] (the extra episodes plug-ins ask for),
[`commit`][continual_arc.play.commit] and [`rundir`][continual_arc.play.rundir] (the run directory),
[`meta`][continual_arc.play.meta], [`resume`][continual_arc.play.resume],
[`options`][continual_arc.play.options] and [`runner`][continual_arc.play.runner]
([`run`][continual_arc.play.runner.run]), and, for learner authors,
[`toy_learners`][continual_arc.play.toy_learners] and [`check_learner`][continual_arc.play.check_learner].
"""
