"""A scripted stand-in for an agent harness (standard library only), for the SystemLearner's tests.

It does what a real harness does, minimally: it sends the task to the model at OPENAI_BASE_URL
with two function tools, ``terminal`` (run a shell command) and ``write_file``, runs every tool
call the model makes, sends the results back, and stops when a reply makes no tool call. It keeps
nothing but what the model writes into its workspace (the working folder), and reads the
workspace's notes into its first message, as a harness's memory would.

It takes its task three ways: a prompt file named on the command line, with ``OPENAI_BASE_URL``
and ``MODEL`` in its environment (``FakeHarnessLearner``); or, installed in place of a real
harness (``harness_rig.fake_install``), Hermes's command line (``hermes -z PROMPT``, the model in
``$HERMES_HOME/config.yaml``) or OpenClaw's (``node openclaw.mjs agent ... --message-file FILE``,
the model in ``$OPENCLAW_CONFIG_PATH``), so that the real adapters' launches drive it.
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


def _task(args: list[str]) -> tuple[str, str, str]:
    """The prompt, the OpenAI base URL and the model, from whichever command line this is."""
    if args[:1] == ["-z"]:  # hermes -z PROMPT
        model = json.loads((Path(os.environ["HERMES_HOME"]) / "config.yaml").read_text())["model"]
        return args[1], model["base_url"], model["default"]
    if "--message-file" in args:  # node openclaw.mjs agent --local ... --message-file FILE
        config = json.loads(Path(os.environ["OPENCLAW_CONFIG_PATH"]).read_text())
        provider = next(iter(config["models"]["providers"].values()))
        prompt = Path(args[args.index("--message-file") + 1]).read_text()
        return prompt, provider["baseUrl"], provider["models"][0]["id"]
    return Path(args[0]).read_text(), os.environ["OPENAI_BASE_URL"], os.environ["MODEL"]


def _post(base_url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base_url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer placeholder"},
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        result: dict[str, Any] = json.loads(reply.read())
    return result


def _run(call: dict[str, Any]) -> str:
    name, args = call["function"]["name"], json.loads(call["function"]["arguments"] or "{}")
    if name in ("terminal", "exec"):  # Hermes's shell tool and OpenClaw's
        done = subprocess.run(args["command"], shell=True, capture_output=True, text=True, timeout=60)
        return done.stdout + done.stderr
    if name in ("write_file", "write"):
        path = Path(args["path"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(args["content"])
        return f"wrote {path}"
    return f"no tool named {name}"


def main() -> int:
    """Play the task given on the command line until the model stops calling tools."""
    prompt, base_url, model = _task(sys.argv[1:])
    notes = sorted(Path("notes").glob("*.md")) if Path("notes").is_dir() else []
    memory = "".join(f"Your note {p.name}: {p.read_text()}\n" for p in notes)
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a fake harness.\n" + memory}]
    messages.append({"role": "user", "content": prompt})
    for _ in range(40):
        reply = _post(base_url, {"model": model, "messages": messages, "tools": TOOLS})
        message = reply["choices"][0]["message"]
        messages.append(message)
        if not message.get("tool_calls"):
            return 0
        for call in message["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": _run(call)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
