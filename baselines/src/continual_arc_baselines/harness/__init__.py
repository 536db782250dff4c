"""Agent harnesses as learners: the workspace, the ``arc`` tool channel and `SystemLearner`."""
