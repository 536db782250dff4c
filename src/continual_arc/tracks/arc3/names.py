"""The arc3 track's configuration names: a leaf both the package and its track module import.

Kept apart so that [`track`][continual_arc.tracks.arc3.track] need not import its own package (which imports
it back, lazily, once the engine is known to be installed).
"""

from __future__ import annotations

__all__ = ["CONFIG_NAMES"]

CONFIG_NAMES = ("arc3", "arc3-smoke")
"""The track's configurations: its canonical one and its smoke one."""
