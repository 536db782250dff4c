"""The ``arc`` command a harness runs to act on its instance (standard library only).

The learner writes a small ``arc`` launcher into each instance's ``bin`` folder that runs this file
with the socket to talk to. It is never imported: the harness's own shell runs it, inside the
harness's sandbox, with whatever Python the machine has.

    arc demo                 buy one more demonstration (costs 1)
    arc submit '[[1,2],[3,4]]'   submit an answer grid as JSON rows (a wrong one costs 1)
    arc submit --file PATH   the same, the grid read from a JSON file
    arc give-up              end the instance unsolved
    arc show                 the instance again: input, demonstrations bought, answers so far

It prints the environment's answer and exits 0; 2 for a malformed command.
"""

from __future__ import annotations

import json
import socket
import sys

_USAGE = (
    "usage: arc demo | arc submit '<grid as JSON rows>' | arc submit --file PATH | arc give-up | arc show"
)


def _request(argv: list[str]) -> dict[str, str] | None:
    if len(argv) == 1 and argv[0] in ("demo", "give-up", "show"):
        return {"tool": argv[0]}
    if len(argv) >= 2 and argv[0] == "submit":
        text = " ".join(argv[1:])
        if argv[1] == "--file" and len(argv) == 3:
            with open(argv[2], encoding="utf-8") as file:
                text = file.read()
        return {"tool": "submit", "grid": text}
    return None


def main() -> int:
    """Send one request to the learner and print its answer."""
    path, argv = sys.argv[1], sys.argv[2:]
    request = _request(argv)
    if request is None:
        print(_USAGE, file=sys.stderr)
        return 2
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        conn.sendall((json.dumps(request) + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
    print(json.loads(data)["text"] if data else "the environment did not answer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
