"""The text encoding of frames, and the pictures of levels."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("arcengine")  # the arc3 track needs Python 3.12 and the engine

from continual_arc_games import GAMES
from continual_arc_games.render import frame_to_rgb, save_level_png
from continual_arc_games.session import Session, decode_frame, encode_frame


def test_known_encodings() -> None:
    assert encode_frame(np.full((64, 64), 5)) == "f1:f4096"
    frame = np.full((64, 64), 5, dtype=np.uint8)
    frame[0, :] = 0
    frame[63, 63] = 15
    assert encode_frame(frame) == "f1:a64f4031p"
    frame[1, 0] = 10  # a single cell is written without a count
    assert encode_frame(frame) == "f1:a64kf4030p"


# Frames as runs of colours, so that the round trip meets long runs, single cells and row wraps.
_runs = st.lists(st.tuples(st.integers(0, 15), st.integers(1, 700)), min_size=1, max_size=60)


@given(_runs)
@settings(max_examples=150, deadline=None)
def test_round_trip(runs: list[tuple[int, int]]) -> None:
    flat = np.concatenate([np.full(n, colour, dtype=np.uint8) for colour, n in runs])
    flat = np.resize(flat, 64 * 64)  # repeats or cuts to exactly 4096 cells
    frame = flat.reshape(64, 64)
    text = encode_frame(frame)
    assert np.array_equal(decode_frame(text), frame)
    assert encode_frame(frame.astype(np.int8)) == text  # the engine's own dtype encodes the same
    changes = int(np.count_nonzero(flat[1:] != flat[:-1]))
    assert sum(ch.isalpha() for ch in text[3:]) == changes + 1  # one letter per maximal run


def test_real_first_frames_round_trip() -> None:
    for spec in GAMES.values():
        frame = Session(spec, spec.generate(random.Random(3), spec.max_difficulty)).frame
        assert np.array_equal(decode_frame(encode_frame(frame)), frame)


@pytest.mark.parametrize(
    "text", ["", "a4096", "f1:a4095", "f1:a4097", "f1:q4096", "f1:a04096", "f1:a4096-", "f1:"]
)
def test_malformed_encodings_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        decode_frame(text)


def test_malformed_frames_are_refused() -> None:
    with pytest.raises(ValueError):
        encode_frame(np.zeros((64, 63)))
    with pytest.raises(ValueError):
        encode_frame(np.full((64, 64), 16))
    with pytest.raises(ValueError):
        encode_frame(np.full((64, 64), -1))


def test_frame_to_rgb_uses_the_arc3_palette_and_crisp_squares() -> None:
    frame = np.zeros((64, 64), dtype=np.uint8)
    frame[0, 1] = 9
    frame[1, 0] = 5
    rgb = frame_to_rgb(frame, pixel=3)
    assert rgb.shape == (192, 192, 3) and rgb.dtype == np.uint8
    assert (rgb[0:3, 3:6] == (0x1E, 0x93, 0xFF)).all()  # blue, a 3x3 square
    assert (rgb[3:6, 0:3] == 0).all()  # black
    assert (rgb[0:3, 0:3] == 255).all()  # white
    with pytest.raises(ValueError):
        frame_to_rgb(np.full((2, 2), 16))


def test_save_level_png_writes_the_first_frame(tmp_path: Path) -> None:
    plt = pytest.importorskip("matplotlib.pyplot")
    spec = GAMES["push-blocks"]
    level = spec.generate(random.Random(0), 0)
    path = save_level_png(spec, level, tmp_path / "level.png", pixel=4)
    image = plt.imread(path)
    assert image.shape[:2] == (256, 256)
    expected = frame_to_rgb(Session(spec, level).frame, 4) / 255.0
    assert np.allclose(image[:, :, :3], expected, atol=1 / 255)
