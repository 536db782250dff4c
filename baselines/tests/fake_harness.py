"""A scripted stand-in for an agent harness (standard library only), for the SystemLearner's tests.

It does what a real harness does, minimally: it sends the task to the model at OPENAI_BASE_URL
with two function tools, ``terminal`` (run a shell command) and ``write_file``, runs every tool
call the model makes, sends the results back, and stops when a reply makes no tool call. It keeps
nothing but what the model writes into its workspace (the working folder), and reads the
workspace's notes into its first message, as a harness's memory would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

TOOLS = [
    {"type": "function", "function": {"name": "terminal", "parameters": {"type": "object"}}},
    {"type": "function", "function": {"name": "write_file", "parameters": {"type": "object"}}},
]


def _post(body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        os.environ["OPENAI_BASE_URL"] + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer placeholder"},
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        result: dict[str, Any] = json.loads(reply.read())
    return result


def _run(call: dict[str, Any]) -> str:
    name, args = call["function"]["name"], json.loads(call["function"]["arguments"] or "{}")
    if name == "terminal":
        done = subprocess.run(args["command"], shell=True, capture_output=True, text=True, timeout=60)
        return done.stdout + done.stderr
    if name == "write_file":
        path = Path(args["path"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(args["content"])
        return f"wrote {path}"
    return f"no tool named {name}"


def main() -> int:
    """Play the task in the file named on the command line until the model stops calling tools."""
    prompt = Path(sys.argv[1]).read_text()
    notes = sorted(Path("notes").glob("*.md")) if Path("notes").is_dir() else []
    memory = "".join(f"Your note {p.name}: {p.read_text()}\n" for p in notes)
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a fake harness.\n" + memory}]
    messages.append({"role": "user", "content": prompt})
    for _ in range(40):
        reply = _post({"model": os.environ["MODEL"], "messages": messages, "tools": TOOLS})
        message = reply["choices"][0]["message"]
        messages.append(message)
        if not message.get("tool_calls"):
            return 0
        for call in message["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": _run(call)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
