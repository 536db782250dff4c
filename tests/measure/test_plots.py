"""Plots: each file drawn once, and pixel for pixel what plain matplotlib draws."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from continual_arc.measure import plots

plots.load_matplotlib()  # the Agg backend, as every plot of the package draws with

import matplotlib.pyplot as plt  # noqa: E402  # after the backend is chosen


def _figure() -> Any:
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1, 2, 3], [3, 1, 2, 0], label="a line")
    ax.bar([0.5, 1.5], [1, 2], label="bars")
    ax.set_title("A title that tight_layout must make room for")
    ax.set_xlabel("x")
    ax.legend(fontsize=8)
    return fig


def test_each_file_is_drawn_once(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    draws: list[str] = []
    real_draw = Figure.draw

    def counted(self: Figure, renderer: Any) -> None:
        draws.append(type(renderer).__name__)
        real_draw(self, renderer)

    monkeypatch.setattr(Figure, "draw", counted)
    paths = plots._save(_figure(), tmp_path, "one")
    assert [p.name for p in paths] == ["one.png", "one.svg"]
    assert len(draws) == 2  # one for the PNG, one for the SVG: no unseen layout draws


def test_the_png_is_what_plain_matplotlib_draws(tmp_path: Path) -> None:
    plots._save(_figure(), tmp_path, "ours")
    plain = _figure()
    plain.tight_layout()
    plain.savefig(tmp_path / "plain.png", dpi=130)  # tight_layout's engine left in place
    plt.close(plain)
    assert (tmp_path / "ours.png").read_bytes() == (tmp_path / "plain.png").read_bytes()


def test_the_charges_bars_are_the_pixels_of_plain_bars(tmp_path: Path) -> None:
    xs, heights = list(range(40)), [float((7 * k) % 101) for k in range(40)]
    colours = ["#e0a030" if k % 3 else "#1f5fa8" for k in range(40)]
    for name in ("ours", "plain"):
        fig, ax = plt.subplots(figsize=(6, 3))
        if name == "ours":
            plots._flat_bars(ax, xs, heights, colours)
        else:
            ax.bar(xs, heights, color=colours, width=0.85)
        ax.set_ylim(0, 105)
        fig.savefig(tmp_path / f"{name}.png", dpi=130)
        plt.close(fig)
    assert (tmp_path / "ours.png").read_bytes() == (tmp_path / "plain.png").read_bytes()
