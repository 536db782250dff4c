"""The submit stage: a submitted result checked by recomputing everything it claims.

Modules: [`check_run`][continual_arc.submit.check_run] (the checks of one run directory),
[`check`][continual_arc.submit.check] (a submission's runs against each other, and the leaderboard's numbers).
"""
