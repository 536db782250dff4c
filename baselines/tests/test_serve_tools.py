"""Tool calls on open weights: content parts joined for the template, ``<tool_call>`` blocks read back."""

from __future__ import annotations

import json

from continual_arc_baselines.serve.tools import plain_messages, read_tool_calls


def test_content_parts_are_joined_into_text() -> None:
    messages = [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]
    assert plain_messages(messages) == [{"role": "user", "content": "a\nb"}]
    assert plain_messages([{"role": "user", "content": "c"}]) == [{"role": "user", "content": "c"}]


def test_well_formed_calls_become_tool_calls_and_the_rest_stays_text() -> None:
    reply = (
        'Let me look.\n<tool_call>\n{"name": "arc", "arguments": {"cmd": "demos"}}\n</tool_call>\n'
        '<tool_call>{"name": "shell", "arguments": "{\\"x\\": 1}"}</tool_call>'
    )
    text, calls = read_tool_calls(reply)
    assert text == "Let me look."
    assert [c.function.name for c in calls] == ["arc", "shell"]
    assert [json.loads(c.function.arguments) for c in calls] == [{"cmd": "demos"}, {"x": 1}]
    assert len({c.id for c in calls}) == 2 and all(c.type == "function" for c in calls)
    assert read_tool_calls(reply)[1] == calls  # the same reply, the same ids


def test_a_malformed_block_is_left_as_text() -> None:
    for reply in ("<tool_call>not json</tool_call>", '<tool_call>{"arguments": {}}</tool_call>', "no calls"):
        assert read_tool_calls(reply) == (reply, [])
