"""A slot's JSON form: every field, in declaration order, read back to the same slot."""

from __future__ import annotations

import dataclasses
import json

from hypothesis import given
from hypothesis import strategies as st

from continual_arc.stream.slots import Slot


@given(
    gap=st.none() | st.integers(0, 500),
    user_gap=st.none() | st.integers(0, 500),
    reset=st.booleans(),
    phase=st.sampled_from(["stream", "epilogue", "held-out", "seen"]),
)
def test_a_slots_json_is_every_field_in_order_and_reads_back(
    gap: int | None, user_gap: int | None, reset: bool, phase: str
) -> None:
    slot = Slot(3, 1, 2, phase, "task", 77, reset, 4, gap, 5, user_gap)
    as_json = slot.to_json()
    assert list(as_json) == [f.name for f in dataclasses.fields(Slot)]
    assert as_json == dataclasses.asdict(slot)
    assert Slot.from_json(json.loads(json.dumps(as_json)), 0) == slot
