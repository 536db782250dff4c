"""Start a long-lived program (an agent harness, a learner) locked down: no network but the proxy.

It writes only in its own folders. Standard library only; started as
``python -I -S _launch.py CONFIG`` (``process.py`` imports only its ``_pipe``). Its standard
streams are passed on to the program as they are, so a program driven over pipes is driven
through it unchanged.

Before it replaces itself with the program it:

1. enters a new network namespace and brings its loopback up; a relay process, forked before the
   lockdown, listens there on ``127.0.0.1:<port>`` and carries every connection to a Unix socket
   that the parent bridges to the tracking proxy, so the proxy is the only address the program
   can reach (a pathname Unix socket crosses network namespaces, TCP does not); with no proxy
   (``port`` null) there is no relay, and the program reaches no address at all;
2. restricts its file system with Landlock: read and execute in the allowed folders (the system's,
   the harness's installation, the interpreter of the ``arc`` command), read, write and execute in
   its own folders, nothing elsewhere; with Landlock ABI 4 or later, TCP connections only to the
   proxy's port;
3. sets ``no_new_privs`` and no core dumps, caps the size of a file it writes and, when given,
   the CPU seconds and the private memory it may use (hard limits the program cannot raise).

With ``isolate`` (what ``verify`` asks for every learner process) it also, before Landlock:

4. forks the program into a PID namespace of its own (the launcher waits outside), so that every
   process it starts dies with it and no process outside is visible;
5. builds a private root (``_root.py``): only the folders it may read, its working folder at a
   fixed path, a few device files, a private ``/tmp`` and ``/dev/shm``, its own ``/proc``, and
   (``empty``) an empty read-only folder at a fixed path that a variable of its environment names;
6. runs it as ``nobody`` with no capabilities when the launcher is root (a user not root keeps
   its user, in a user namespace of its own).

What was in force is written to the ``report`` file as JSON before the program starts. Where the
kernel refuses namespaces or Landlock, the program runs without them and the report says so; with
no namespace it reaches the proxy's own port directly.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import importlib.util
import json
import os
import resource
import signal
import socket
import struct
import sys
import threading
from types import ModuleType
from typing import Any

_CLONE_NEWUSER, _CLONE_NEWNET, _PR_SET_NO_NEW_PRIVS, _PR_SET_PDEATHSIG = 0x10000000, 0x40000000, 38, 1
_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_EXECUTE, _READ_FILE, _READ_DIR = 1 << 0, 1 << 2, 1 << 3
_CONNECT_TCP = 1 << 1
_PID_MAX = "/proc/sys/kernel/pid_max"


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, _SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, _SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | _IFF_UP))


def _own_network(libc: ctypes.CDLL) -> bool:
    """A new network namespace with its loopback up; whether that worked."""
    if libc.unshare(_CLONE_NEWNET) != 0 and libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) != 0:
        return False
    try:
        _loopback_up()
    except OSError:
        return False
    return True


def _pipe(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


def _carry(conn: socket.socket, bridge: str) -> None:
    with contextlib.suppress(OSError), conn, socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as upstream:
        upstream.connect(bridge)
        back = threading.Thread(target=_pipe, args=(upstream, conn), daemon=True)
        back.start()
        _pipe(conn, upstream)
        back.join()


def _start_relay(libc: ctypes.CDLL, port: int, bridge: str) -> None:
    """Fork the relay; return once it listens (it closes its end of a pipe when it does)."""
    ready_r, ready_w = os.pipe()
    if os.fork() == 0:
        os.close(ready_r)
        try:
            _relay(libc, port, bridge, ready_w)
        finally:
            os._exit(0)
    os.close(ready_w)
    os.read(ready_r, 1)
    os.close(ready_r)


def _relay(libc: ctypes.CDLL, port: int, bridge: str, ready: int) -> None:
    """Listen on the namespace's loopback and carry each connection to the bridge.

    When the program (the parent, once it has exec'd) ends, the kernel kills the relay too.
    """
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(64)
    os.close(ready)
    while True:
        conn, _ = server.accept()
        threading.Thread(target=_carry, args=(conn, bridge), daemon=True).start()


def _add_rule(libc: ctypes.CDLL, ruleset: int, path: str, allowed: int, handled: int) -> None:
    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    rule = PathBeneath(allowed & handled, fd)
    flags = ctypes.c_uint32(0)
    libc.syscall(_SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(1), ctypes.byref(rule), flags)
    os.close(fd)


def _add_port(libc: ctypes.CDLL, ruleset: int, port: int) -> None:
    class NetPort(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed", ctypes.c_uint64), ("port", ctypes.c_uint64)]

    rule = NetPort(_CONNECT_TCP, port)
    flags = ctypes.c_uint32(0)
    libc.syscall(_SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(2), ctypes.byref(rule), flags)


def _landlock(libc: ctypes.CDLL, config: dict[str, Any]) -> tuple[bool, bool]:
    """Restrict files (and TCP connections, ABI 4+); whether each restriction is in force."""
    abi = max(int(libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))), 0)
    if abi < 1:
        return False, False

    class RulesetAttr(ctypes.Structure):
        _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]

    handled = (1 << 13) - 1 | (1 << 13 if abi >= 2 else 0) | (1 << 14 if abi >= 3 else 0)
    net = _CONNECT_TCP if abi >= 4 else 0
    attr = RulesetAttr(handled, net, 0)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    ruleset = libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        return False, False
    for path in config["read_dirs"]:
        _add_rule(libc, ruleset, path, _READ_FILE | _READ_DIR | _EXECUTE, handled)
    for path in config["write_dirs"]:
        _add_rule(libc, ruleset, path, handled, handled)
    if net and config["port"] is not None:  # no proxy: the ruleset allows no TCP port at all
        _add_port(libc, ruleset, int(config["port"]))
    libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    done = libc.syscall(_SYS_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) == 0
    os.close(ruleset)
    return done, done and bool(net)


def _load_root_module() -> ModuleType:
    """``_root.py`` beside this file: the launcher runs as a file (``-I``), not as the package."""
    spec = importlib.util.spec_from_file_location(
        "_carc_root", os.path.join(os.path.dirname(__file__), "_root.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _wait_for(child: int) -> None:
    """The launcher outside the PID namespace: hold no pipe of the program's, wait, exit as it did."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)  # the program's reader sees the end of its output when the program ends
    os.close(null)
    _, status = os.waitpid(child, 0)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


def _isolate(libc: ctypes.CDLL, root: ModuleType, pid_max: int | None) -> tuple[bool, bool]:
    """A PID namespace whose first process, the one that returns here, is the program.

    When it ends, the kernel kills every process left in the namespace (a daemon it started with a
    new session among them). The launcher waits outside; if the launcher is killed, so is it.
    With ``pid_max``, the namespace's own ``pid_max`` (a kernel of 6.14 or later) bounds how many
    processes it can hold: whether that held is the second value.
    """
    pid_namespace: bool = libc.unshare(ctypes.c_int(root.CLONE_NEWPID)) == 0
    child = os.fork()
    if child != 0:
        _wait_for(child)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    capped = False
    if pid_namespace and pid_max is not None:
        # Written through the host's /proc, it is this namespace's value: the kernel reads the writer's.
        with contextlib.suppress(OSError), open(_PID_MAX, "w", encoding="ascii") as file:
            file.write(str(pid_max))
        with (
            contextlib.suppress(OSError, ValueError),
            open("/proc/sys/kernel/pid_max", encoding="ascii") as file,
        ):
            capped = int(file.read()) == pid_max
    return pid_namespace, capped


def _inside(config: dict[str, Any], path: str) -> str:
    """Where a host folder of the program's is seen from inside its private root."""
    return next((inside for host, inside in config["binds"] if host == path), path)


def lockdown(config: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """Put every layer of ``config`` in force on this process and write the report.

    Returns the working folder and environment the program is to start with (as it sees them).
    With ``isolate``, the caller is the first process of a new PID namespace (the process that
    called this waits outside for it, and never returns).
    """
    libc = _libc()
    isolate = bool(config.get("isolate"))
    root = _load_root_module() if isolate else None
    user_namespace = root.own_user(libc) if root is not None and os.geteuid() != 0 else False
    namespace = _own_network(libc)
    if namespace and config["port"] is not None:
        _start_relay(libc, int(config["port"]), config["bridge"])  # before the mounts: it reaches the bridge
    report_file = open(config["report"], "w", encoding="utf-8")  # noqa: SIM115 -- before the lockdown
    private: dict[str, Any] = {}
    if root is not None:
        pid_namespace, capped = _isolate(libc, root, config.get("pid_max"))
        private = {"pid_namespace": pid_namespace, "pid_max": capped, "user_namespace": user_namespace}
        private.update(root.enter_private_root(libc, config))
    moved = bool(private.get("private_root"))
    cwd = _inside(config, config["cwd"]) if moved else config["cwd"]
    write_dirs = [_inside(config, d) for d in config["write_dirs"]] if moved else config["write_dirs"]
    if moved:
        write_dirs += ["/tmp", "/dev/shm"]
    env = {**config["env"]}
    read_dirs = list(config["read_dirs"])
    empty = config.get("empty")
    if empty:  # its fixed path in the private root; without one, the host's empty folder
        env[empty["env"]] = empty["inside"] if moved else empty["host"]
        read_dirs.append(env[empty["env"]])
    files, tcp = _landlock(libc, {**config, "read_dirs": read_dirs, "write_dirs": write_dirs})
    if root is not None:
        owned = [_inside(config, host) if moved else host for host, _ in config["binds"]]
        private.update(root.drop_privileges(libc, owned))
    libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (config["file_bytes"], config["file_bytes"]))
    memory = config.get("memory_bytes")
    if memory is not None:  # its private writable memory (heap, anonymous maps, stacks): RLIMIT_DATA
        resource.setrlimit(resource.RLIMIT_DATA, (int(memory), int(memory)))
    cpu = config.get("cpu_seconds")
    if cpu is not None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cpu), int(cpu)))
    report = {
        "network_namespace": namespace,
        "landlock_fs": files,
        "landlock_tcp": tcp,
        "proxy_port": config["port"],
        "cpu_seconds": cpu,
        "file_bytes": config["file_bytes"],
        "memory_bytes": memory,
        **private,
    }
    with report_file:
        json.dump(report, report_file)
    os.chdir(cwd)
    return cwd, {**env, **dict.fromkeys(config.get("home_env", ()), cwd)}


def main() -> None:
    """Read the config, lock down, report, and become the program."""
    with open(sys.argv[1], encoding="utf-8") as file:
        config = json.load(file)
    _, env = lockdown(config)
    os.execve(config["argv"][0], config["argv"], env)


if __name__ == "__main__":
    main()
