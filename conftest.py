"""Settings shared by every test folder (tests/, baselines/tests/, games/tests/).

Hypothesis's timing checks are switched off: a test here asserts values, never speed (speed is
measured by the scripts in benchmarks/), and on a loaded two-core machine a deadline of 200 ms or
the slow-generation health check fails tests whose values are right.
"""

from hypothesis import HealthCheck, settings

settings.register_profile("continual-arc", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("continual-arc")
