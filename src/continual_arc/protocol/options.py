"""How a protocol is played: where, in how many processes, with which run options.

What it plays is [`ProtocolSpec`][continual_arc.protocol.spec.ProtocolSpec]'s; the two travel side by side
(``play_protocol(spec, options)``), so that the same spec can be played in other ways (a sweep's units, a
verifier) without copying it into another carrier.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..play.options import RunOptions
from .plays import ProtocolError
from .progress import ProtocolProgress

__all__ = ["ProtocolOptions"]


@dataclass(frozen=True)
class ProtocolOptions:
    """How to play a protocol.

    Attributes:
        out: the protocol directory.
        jobs: plays run at once, each in a process of its own (1: all in this process).
        run: how every play is played (alias style, users served at once, time limit, fail-fast);
            each play sets ``resume``, the learner's spec and progress itself, and a protocol
            takes no plug-ins.
        resamples: bootstrap resamples of the final numbers.
        plots: draw the plane and the stream's plots into ``plots/``.
        progress: where the whole protocol's progress goes, every few seconds (``None``: nowhere).
        notes: where a sentence for the user goes (what a resumed protocol resumes).
        play_lines: each play also prints its own progress lines (several processes share stderr).
        floor: copy the track's floor on each test in beside the plays, played once into the data
            directory's cache ([continual_arc.protocol.floor][]); without it the floor flag says
            the floor was not played.
    """

    out: Path
    jobs: int = 1
    run: RunOptions = field(default_factory=RunOptions)
    resamples: int = 10_000
    plots: bool = True
    progress: Callable[[ProtocolProgress], None] | None = None
    notes: Callable[[str], None] | None = None
    play_lines: bool = True
    floor: bool = True

    def __post_init__(self) -> None:
        if self.run.plugins:
            raise ProtocolError("a protocol plays no plug-ins: play them with continual-arc run")
