"""The long-lived sandbox: the proxy is the only way out, and writes stay in the given folders."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from continual_arc.core.sandbox import ProxyBridge, start_sandboxed
from continual_arc_baselines.fake_server import FakeModelServer
from continual_arc_baselines.proxy import ProxyConfig, serve_proxy

PROBE = """
import socket, sys, urllib.request
port = int(sys.argv[1])
print("proxy", urllib.request.urlopen(f"http://127.0.0.1:{port}/continual-arc/usage", timeout=10).status)
for name, act in [
    ("write outside", lambda: open(sys.argv[2], "w")),
    ("other port", lambda: socket.create_connection(("127.0.0.1", port + 1), timeout=2)),
    ("read outside", lambda: open(sys.argv[3]).read()),
]:
    try:
        act()
        print(name, "allowed")
    except OSError:
        print(name, "refused")
open("inside.txt", "w").write("x")
"""


def test_a_sandboxed_program_reaches_the_proxy_and_nothing_else(tmp_path: Path) -> None:
    root = Path(tempfile.mkdtemp(prefix="carc-t-"))  # short: a Unix socket's path is short
    work, secret = root / "work", tmp_path / "secret.txt"
    work.mkdir()
    secret.write_text("not for the harness")
    (root / "probe.py").write_text(PROBE)
    with FakeModelServer([]) as fake, serve_proxy(ProxyConfig(upstream=fake.url, models=("m",))) as proxy:
        port = int(proxy.url.rsplit(":", 1)[1].split("/")[0])
        with ProxyBridge(root / "bridge.sock", "127.0.0.1", port) as bridge:
            python = getattr(sys, "_base_executable", sys.executable)
            argv = [python, "-I", str(root / "probe.py"), str(port), str(tmp_path / "out.txt"), str(secret)]
            process = start_sandboxed(
                argv,
                env={},
                cwd=work,
                read_dirs=[sys.base_prefix, str(root)],
                write_dirs=[work],
                port=port,
                bridge=bridge.path,
                log_dir=root / "log",
            )
            assert process.stop(30) == 0, (root / "log" / "stderr.txt").read_text()
    said = (root / "log" / "stdout.txt").read_text().splitlines()
    assert said[0] == "proxy 200"
    isolation = process.isolation()
    if isolation.get("landlock_fs"):
        assert "write outside refused" in said and "read outside refused" in said
    if isolation.get("network_namespace") or isolation.get("landlock_tcp"):
        assert "other port refused" in said
    assert (work / "inside.txt").exists() and not (tmp_path / "out.txt").exists()
