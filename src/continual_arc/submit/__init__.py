"""The submit stage: a submitted result checked by recomputing everything it claims.

Modules: :mod:`~.check_run` (the checks of one run directory), :mod:`~.check` (a submission's runs
against each other, and the leaderboard's numbers).
"""
