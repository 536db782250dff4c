"""The learners of Continual-ARC, built on the core package ``continual_arc`` (never the reverse)."""

__version__ = "0.1.0"
