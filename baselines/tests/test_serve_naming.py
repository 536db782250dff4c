"""The name of a model folder: the SHA-256 of its sorted file listing, whatever order the files came in."""

from __future__ import annotations

import hashlib
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from continual_arc_baselines.serve import ModelNotFound, folder_digest, resolve_model

NAMES = st.sampled_from(["config.json", "model.safetensors", "tokenizer.json", "sub/a.bin", "sub/b.txt", "z"])
FILES = st.dictionaries(NAMES, st.binary(max_size=64), min_size=1, max_size=6)


def listing_hash(files: dict[str, bytes]) -> str:
    lines = "".join(f"{name}\t{hashlib.sha256(files[name]).hexdigest()}\n" for name in sorted(files))
    return hashlib.sha256(lines.encode()).hexdigest()


@settings(max_examples=40, deadline=None)
@given(FILES, st.randoms())
def test_the_digest_hashes_the_sorted_listing(files: dict[str, bytes], rng: random.Random) -> None:
    order = sorted(files)
    rng.shuffle(order)
    with tempfile.TemporaryDirectory() as tmp:
        for name in order:  # written in a random order: the listing is sorted all the same
            (Path(tmp) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(tmp) / name).write_bytes(files[name])
        assert folder_digest(Path(tmp)) == listing_hash(files)


def test_a_folder_without_a_config_or_a_malformed_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFound, match=r"holds no config\.json"):
        resolve_model(str(tmp_path))
    for spec in ("just-a-name", "org/name", "org/name@", "a/b/c@123"):
        with pytest.raises(ModelNotFound, match="neither a model folder nor a repository"):
            resolve_model(spec)
