from __future__ import annotations

import json
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from continual_arc_baselines.fake_server import FakeModelServer, count_words

HTTP = httpx.Client(timeout=10)  # one client: building one per request costs a TLS context each time


def _chat(url: str, content: str = "hello there", **body: Any) -> httpx.Response:
    payload = {"model": "m", "messages": [{"role": "user", "content": content}], **body}
    return HTTP.post(f"{url}/chat/completions", json=payload)


def test_replies_follow_the_script_in_order_and_requests_are_recorded() -> None:
    with FakeModelServer(["first", "second reply", "third"]) as fake:
        texts = [_chat(fake.url).json()["choices"][0]["message"]["content"] for _ in range(3)]
        assert texts == ["first", "second reply", "third"]
        assert len(fake.requests) == 3
        assert fake.requests[0].body["messages"][0]["content"] == "hello there"
        assert fake.requests[0].path == "/v1/chat/completions"
        assert not fake.exhausted


def test_running_out_answers_500_saying_so() -> None:
    with FakeModelServer(["only"]) as fake:
        assert _chat(fake.url).status_code == 200
        assert not fake.exhausted
        reply = _chat(fake.url)
        assert reply.status_code == 500
        assert "ran out after 1 replies" in reply.json()["error"]["message"]
        assert fake.exhausted


def test_injected_statuses_and_headers() -> None:
    script = [{"status": 429, "error": "slow down", "headers": {"Retry-After": "7"}}, {"status": 503}, "fine"]
    with FakeModelServer(script) as fake:
        limited = _chat(fake.url)
        assert limited.status_code == 429
        assert limited.headers["retry-after"] == "7"
        assert limited.json()["error"]["message"] == "slow down"
        assert _chat(fake.url).status_code == 503
        assert _chat(fake.url).status_code == 200


def test_usage_counts_words_deterministically_and_can_be_overridden() -> None:
    script = [
        "one two three",
        {"text": "a b", "reasoning_tokens": 5, "cost": 0.25},
        {"text": "x", "usage": None},
    ]
    with FakeModelServer(script) as fake:
        usage = _chat(fake.url, "four words in here").json()["usage"]
        assert (usage["prompt_tokens"], usage["completion_tokens"]) == (4, 3)
        usage = _chat(fake.url, "two words").json()["usage"]
        assert usage["completion_tokens"] == 2 + 5
        assert usage["completion_tokens_details"]["reasoning_tokens"] == 5
        assert usage["cost"] == 0.25
        assert "usage" not in _chat(fake.url).json()
    assert count_words("  a\tb\nc  ") == 3


def test_a_callable_script_sees_each_request() -> None:
    seen: list[dict[str, Any]] = []

    def script(request: dict[str, Any]) -> str:
        seen.append(request)
        return f"echo {request['messages'][0]['content']}"

    with FakeModelServer(script) as fake:
        assert _chat(fake.url, "ping").json()["choices"][0]["message"]["content"] == "echo ping"
        assert _chat(fake.url, "pong").json()["choices"][0]["message"]["content"] == "echo pong"
    assert [r["messages"][0]["content"] for r in seen] == ["ping", "pong"]


def test_unknown_endpoints_get_404_and_are_recorded() -> None:
    with FakeModelServer(["unused"]) as fake:
        assert HTTP.post(f"{fake.url}/embeddings", json={}).status_code == 404
        assert HTTP.get(f"{fake.url}/models").json()["data"][0]["id"] == "fake-model"
        assert [r.path for r in fake.requests] == ["/v1/embeddings", "/v1/models"]
        assert fake.chat_requests == []


def test_the_stream_is_readable_by_the_openai_sdk_with_a_final_usage_chunk() -> None:
    with FakeModelServer(["streamed words come in pieces"]) as fake:
        client = openai.OpenAI(base_url=fake.url, api_key="none", max_retries=0)
        stream = client.chat.completions.create(
            model="m",
            messages=[{"role": "user", "content": "three word prompt"}],
            stream=True,
            stream_options={"include_usage": True},
        )
        chunks = list(stream)
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        assert text == "streamed words come in pieces"
        assert len([c for c in chunks if c.choices and c.choices[0].delta.content]) == 5
        assert chunks[-1].choices == []
        assert chunks[-1].usage is not None
        assert (chunks[-1].usage.prompt_tokens, chunks[-1].usage.completion_tokens) == (3, 5)
        assert all(c.usage is None for c in chunks[:-1])
        client.close()


def test_a_stream_without_include_usage_reports_no_usage() -> None:
    with FakeModelServer(["plain stream"]) as fake:
        client = openai.OpenAI(base_url=fake.url, api_key="none", max_retries=0)
        chunks = list(
            client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "hi"}], stream=True
            )
        )
        assert all(c.usage is None for c in chunks)
        assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "plain stream"
        client.close()


def test_the_command_line_serves_a_script_file(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(["from the file", {"status": 429}]))
    code = "from continual_arc_baselines.cli import main; raise SystemExit(main())"
    process = subprocess.Popen(
        [sys.executable, "-c", code, "fake-server", "--script", str(script), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = line.strip().rsplit(" ", 1)[-1]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/v1"), line
        assert _chat(url).json()["choices"][0]["message"]["content"] == "from the file"
        assert _chat(url).status_code == 429
        assert _chat(url).status_code == 500
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_command_line_rejects_a_script_that_is_not_a_list(tmp_path: Path) -> None:
    from continual_arc_baselines.cli import main

    script = tmp_path / "script.json"
    script.write_text(json.dumps({"replies": []}))
    assert main(["fake-server", "--script", str(script), "--port", "0"]) == 2
    with pytest.raises(SystemExit):
        main(["fake-server"])


def test_tool_calls_are_served_plain_and_streamed_and_counted() -> None:
    call = {"name": "terminal", "arguments": {"command": "arc demo"}}
    with FakeModelServer([{"tool_calls": [call]}, {"text": "ok", "tool_calls": [call]}]) as fake:
        body = _chat(fake.url, "one two").json()
        choice = body["choices"][0]
        assert choice["finish_reason"] == "tool_calls"
        function = choice["message"]["tool_calls"][0]["function"]
        assert (function["name"], json.loads(function["arguments"])) == ("terminal", {"command": "arc demo"})
        assert body["usage"]["completion_tokens"] == 1 + 3  # the name, and the arguments' JSON words
        client = openai.OpenAI(base_url=fake.url, api_key="x")
        chunks = list(
            client.chat.completions.create(
                model="m",
                messages=[{"role": "user", "content": "hi"}],
                stream=True,
                stream_options={"include_usage": True},
            )
        )
        deltas = [c.choices[0].delta for c in chunks if c.choices and c.choices[0].delta.tool_calls]
        assert deltas[0].tool_calls[0].function.name == "terminal"
        assert [u["completion_tokens"] for u in fake.served if u] == [4, 5]


def test_made_up_tool_call_ids_differ_between_turns_and_repeat_for_the_same_request() -> None:
    # Harnesses drop a tool call whose id they have already seen (Hermes Agent does before every
    # request): ids repeated across a conversation's turns hide every later call from its history.
    call = {"name": "terminal", "arguments": {"command": "arc demo"}}
    with FakeModelServer(lambda body: {"tool_calls": [call, call]}) as fake:
        first = _chat(fake.url, "turn one").json()["choices"][0]["message"]["tool_calls"]
        second = _chat(fake.url, "turn one and two").json()["choices"][0]["message"]["tool_calls"]
        again = _chat(fake.url, "turn one").json()["choices"][0]["message"]["tool_calls"]
    ids = [c["id"] for c in first + second]
    assert len(set(ids)) == 4
    assert [c["id"] for c in again] == [c["id"] for c in first]


def test_faults_a_hang_answers_nothing_and_a_malformed_reply_is_not_json() -> None:
    with FakeModelServer([{"hang": 0.2}, {"malformed": True}, "three more words"]) as fake:
        with pytest.raises(httpx.RemoteProtocolError):
            _chat(fake.url)
        broken = _chat(fake.url)
        assert broken.status_code == 200
        with pytest.raises(json.JSONDecodeError):
            broken.json()
        assert _chat(fake.url).status_code == 200
        assert len(fake.usage_reported) == 1  # the hang and the malformed reply reported none
        assert fake.reported("completion_tokens") == 3


def test_a_client_that_hangs_up_mid_stream_leaves_no_traceback(capfd: pytest.CaptureFixture[str]) -> None:
    reply = {"text": " ".join(["word"] * 40), "chunk_delay": 0.02}
    with FakeModelServer([reply, "after"]) as fake:
        host, port = fake.url.split("//")[1].split("/")[0].split(":")
        body = json.dumps({"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]})
        head = "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        with socket.create_connection((host, int(port))) as client:
            client.sendall(f"{head}Content-Length: {len(body)}\r\n\r\n{body}".encode())
            assert client.recv(64).startswith(b"HTTP/1.1 200")
            # Close with a reset, as a killed process does.
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        time.sleep(0.5)  # the server writes its next chunks into the closed connection
        assert _chat(fake.url).json()["choices"][0]["message"]["content"] == "after"
    assert "Traceback" not in capfd.readouterr().err
