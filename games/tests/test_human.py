"""Human action counts beside the games: keyed by a level's SHA-256, read as the upper median."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

pytest.importorskip("arcengine")  # the games install only beside the engine, on Python 3.12

from continual_arc_games import human
from continual_arc_games.base import Level
from continual_arc_games.human import (
    HumanFileError,
    human_actions,
    level_key,
    read_human_file,
    record_human_actions,
)

LEVEL = Level.make("ice-slide", [[1, 1, 1], [1, 2, 1], [1, 3, 1], [1, 1, 1]])
OTHER = Level.make("ice-slide", [[1, 1, 1], [1, 3, 1], [1, 2, 1], [1, 1, 1]])


def test_a_level_is_keyed_by_the_sha256_of_its_canonical_json() -> None:
    text = '{"game":"ice-slide","grid":[[1,1,1],[1,2,1],[1,3,1],[1,1,1]],"params":{}}'
    assert level_key(LEVEL) == hashlib.sha256(text.encode()).hexdigest()
    assert level_key(LEVEL) != level_key(OTHER)


def test_the_baseline_is_the_upper_median_of_the_plays_recorded(tmp_path: Path) -> None:
    path = tmp_path / "human_actions.json"
    assert human_actions(LEVEL, read_human_file(path)) is None  # no file: no human baseline
    for count in (14, 11, 19):
        record_human_actions(LEVEL, count, path)
    record_human_actions(OTHER, 7, path)
    counts = read_human_file(path)
    assert human_actions(LEVEL, counts) == 14  # 11, 14, 19: the middle one
    record_human_actions(LEVEL, 30, path)
    assert human_actions(LEVEL, read_human_file(path)) == 19  # 11, 14, 19, 30: the upper of the two
    assert human_actions(OTHER, read_human_file(path)) == 7
    written = json.loads(path.read_text())
    assert written["levels"][level_key(OTHER)] == {"game": "ice-slide", "actions": [7]}


def test_the_shipped_file_is_read_when_no_counts_are_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "shipped.json"
    record_human_actions(LEVEL, 5, path)
    monkeypatch.setattr(human, "HUMAN_FILE", path)
    assert human_actions(LEVEL) == 5 and human_actions(OTHER) is None


def test_the_shipped_file_is_a_valid_counts_file() -> None:
    assert isinstance(read_human_file(), dict)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        '{"format": 2, "levels": {}}',
        '{"format": 1}',
        '{"format": 1, "levels": {"k": {"actions": []}}}',
        '{"format": 1, "levels": {"k": {"actions": [0]}}}',
        '{"format": 1, "levels": {"k": {"actions": [true]}}}',
    ],
)
def test_a_malformed_counts_file_is_refused_with_its_path(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(HumanFileError, match=r"bad\.json"):
        read_human_file(path)


def test_a_play_of_no_action_is_not_recorded(tmp_path: Path) -> None:
    path = tmp_path / "human_actions.json"
    with pytest.raises(ValueError, match="positive"):
        record_human_actions(LEVEL, 0, path)
    assert not path.exists()
