"""Continual-ARC: a continual-learning benchmark on ARC-AGI puzzles."""

__version__ = "0.1.0"
