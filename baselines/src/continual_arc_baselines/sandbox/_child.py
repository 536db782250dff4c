"""The sandbox's child process: it locks itself down, then runs a model-written program on grids.

The parent (`continual_arc_baselines.sandbox._run`) starts this file as a script with
``python -I -B _child.py CONFIG`` in an empty environment; it is never imported by the benchmark, and it
uses only the standard library. Before any model-written code runs it:

1. sets resource limits (address space, CPU time, file size, processes, open files, no core dumps);
2. leaves the host's network by entering a new network namespace (``unshare(CLONE_NEWNET)``, or with a
   new user namespace when it is not privileged);
3. restricts its file system with Landlock: read-only access to the interpreter's standard library, the
   allowed packages and the system's shared libraries, read-write access to its working folder, no
   right to execute anything, and (Landlock ABI 4 or later) no TCP connect or bind;
4. installs an audit hook refusing the same things at the Python level (a second layer, not a boundary).

It reports over the pipe named in the config, one JSON object a line: ``{"event": "ready", ...}`` with the
isolation in force, then ``{"event": "loaded"}`` or ``{"event": "load_error", "error": ...}``, then per
grid ``{"event": "grid", "index": i, "output": ...}`` or ``{..., "error": ...}``, then ``{"event": "done"}``.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import json
import os
import resource
import sys
import sysconfig
import traceback
from collections.abc import Callable
from typing import Any, TypeAlias, TypedDict

_MAX_REPLY = 16 * 1024  # a 30 x 30 grid is about 2 KB of JSON; anything larger cannot be one
_MAX_ERROR = 400
_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_SYSTEM_LIBRARIES = ("/usr/lib", "/lib", "/lib64", "/usr/lib64", "/usr/local/lib")
_LOADER_CACHE = "/etc/ld.so.cache"

# Landlock (linux/landlock.h): syscall numbers are the same on every architecture that has them.
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_REMOVE_DIR, _REMOVE_FILE, _MAKE_DIR, _MAKE_REG, _TRUNCATE = 1 << 4, 1 << 5, 1 << 7, 1 << 8, 1 << 14
_READ_ONLY = _READ_FILE | _READ_DIR
_READ_WRITE = _READ_ONLY | _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE_DIR | _MAKE_REG
_CLONE_NEWUSER, _CLONE_NEWNET, _PR_SET_NO_NEW_PRIVS = 0x10000000, 0x40000000, 38

_PROCESS_EVENTS = frozenset(
    {"os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "subprocess.Popen"}
    | {"os.kill", "os.killpg", "pty.spawn", "signal.pthread_kill"}
)
_REFUSED_PREFIXES = ("socket.", "ctypes.", "urllib.", "http.client.", "ftplib.", "smtplib.", "webbrowser.")
_REFUSED_IMPORTS = frozenset({"_posixsubprocess", "multiprocessing", "_multiprocessing"})
_WRITE_EVENTS = {
    "os.remove": (0,),
    "os.rmdir": (0,),
    "os.mkdir": (0,),
    "os.rename": (0, 1),
    "os.symlink": (0, 1),
    "os.link": (0, 1),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.truncate": (0,),
    "os.utime": (0,),
    "os.mkfifo": (0,),
    "os.mknod": (0,),
    "shutil.rmtree": (0,),
}
_READ_EVENTS = {"os.listdir": (0,), "os.scandir": (0,), "glob.glob": (0,)}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

_JSON: TypeAlias = "str | int | float | bool | list[_JSON] | dict[str, _JSON] | None"
_Message: TypeAlias = dict[str, _JSON]  # one line to the parent


class _Config(TypedDict):
    """What the parent (`_run.run_program`) writes into the config file this script is given."""

    source: str
    grids: list[list[list[int]]]
    memory_bytes: int
    cpu_seconds: int
    file_bytes: int
    packages: list[str]
    require_isolation: bool
    result_fd: int


class _Reporter:
    """Writes JSON lines to the result pipe."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def send(self, message: _Message) -> None:
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        while data:
            data = data[os.write(self.fd, data) :]


def _set_limits(config: _Config) -> None:
    for name in _THREAD_VARIABLES:  # one thread: no process-count surprises, fair use of a shared machine
        os.environ[name] = "1"
    limits = [
        (resource.RLIMIT_AS, config["memory_bytes"]),
        (resource.RLIMIT_CPU, config["cpu_seconds"]),
        (resource.RLIMIT_FSIZE, config["file_bytes"]),
        (resource.RLIMIT_NPROC, 0),
        (resource.RLIMIT_NOFILE, 64),
        (resource.RLIMIT_CORE, 0),
    ]
    for kind, soft in limits:
        hard = soft + 1 if kind == resource.RLIMIT_CPU else soft  # CPU: SIGXCPU first, SIGKILL a second later
        resource.setrlimit(kind, (soft, hard))


def _libc() -> ctypes.CDLL:
    # ctypes stays loaded (imported above, before the lockdown): numpy imports it, and a fresh import
    # after the lockdown would be refused. Calling through it is refused by the audit hook, and
    # Landlock does not depend on it once applied.
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def _isolate_network(libc: ctypes.CDLL) -> bool:
    """Enter a new network namespace (only a down loopback in it); whether that worked."""
    if libc.unshare(_CLONE_NEWNET) == 0:
        return True
    # Unprivileged users may still create a user namespace, and a network namespace inside it.
    return bool(libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNET) == 0)


def _landlock_abi(libc: ctypes.CDLL) -> int:
    version = libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return max(int(version), 0)


def _handled_fs(abi: int) -> int:
    handled = (1 << 13) - 1  # ABI 1
    if abi >= 2:
        handled |= 1 << 13  # refer
    if abi >= 3:
        handled |= _TRUNCATE
    if abi >= 5:
        handled |= 1 << 15  # ioctl on devices
    return handled


def _landlock(libc: ctypes.CDLL, places: _Places, work: str) -> tuple[bool, bool]:
    """Restrict this process with Landlock; whether the file system and TCP are now restricted."""
    abi = _landlock_abi(libc)
    if abi < 1:
        return False, False

    class RulesetAttr(ctypes.Structure):
        _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

    handled = _handled_fs(abi)
    # Scoping (ABI 6) keeps signals and abstract unix sockets inside the sandbox.
    attr = RulesetAttr(handled, 3 if abi >= 4 else 0, 3 if abi >= 6 else 0)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    ruleset = libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        return False, False
    rules = [(path, _READ_ONLY) for path in places.read_dirs] + [(path, _READ_FILE) for path in places.files]
    rules += [(path, _READ_DIR) for path in places.list_dirs]
    rules.append((work, _READ_WRITE | (_TRUNCATE if abi >= 3 else 0)))
    for path, allowed in rules:
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue
        rule = PathBeneath(allowed & handled, fd)
        libc.syscall(
            _SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(1), ctypes.byref(rule), ctypes.c_uint32(0)
        )
        os.close(fd)
    libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    done = libc.syscall(_SYS_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) == 0
    os.close(ruleset)
    return done, done and abi >= 4


_SITE_DIRS = frozenset({"site-packages", "dist-packages"})


def _library_dirs() -> list[str]:
    """The folders of the C library and the dynamic loader, where shared libraries such as libstdc++ live."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps if "/" in line}
    except OSError:
        return [d for d in _SYSTEM_LIBRARIES if os.path.isdir(d)]
    names = ("libc.so", "libc-", "ld-linux", "ld-musl")
    return sorted({os.path.dirname(p) for p in paths if os.path.basename(p).startswith(names)})


class _Places:
    """Where the program may look: folders to read, folders only to list, single files, the import path.

    The standard library is readable entry by entry, leaving out its ``site-packages``: on a system
    Python that is where every installed package lives, the benchmark's data included.
    """

    def __init__(self, packages: list[str]) -> None:
        stdlib = os.path.realpath(sysconfig.get_path("stdlib"))
        entries = [os.path.join(stdlib, e) for e in sorted(os.listdir(stdlib)) if e not in _SITE_DIRS]
        dirs = [e for e in entries if os.path.isdir(e)]
        self.files = [os.path.realpath(e) for e in entries if not os.path.isdir(e)] + [_LOADER_CACHE]
        self.list_dirs = [stdlib]
        self.search = [
            p for p in sys.path if p and _under(os.path.realpath(p), (stdlib,)) and not _is_site(p)
        ]
        for name in packages:
            spec = importlib.util.find_spec(name)
            for location in list(spec.submodule_search_locations or []) if spec else []:
                site = os.path.dirname(location)
                dirs += [location, os.path.join(site, name + ".libs")]  # wheels keep shared libraries there
                if site not in self.search:
                    self.search.append(site)  # listed, so that imports find the package; not read
                    self.list_dirs.append(os.path.realpath(site))
        self.read_dirs = sorted({os.path.realpath(d) for d in dirs + _library_dirs()})


def _is_site(path: str) -> bool:
    return any(part in _SITE_DIRS for part in path.split(os.sep))


def _under(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == root or path.startswith(root + os.sep) for root in roots)


# Any: an audit event's arguments are whatever the event passes (a path, a descriptor, flags),
# as sys.addaudithook types them; the hook reads each by the event's documented signature.
def _make_hook(places: _Places, work: str) -> Callable[[str, tuple[Any, ...]], None]:
    """An audit hook refusing processes, network, native calls and files outside the allowed places."""
    write_roots = (work,)
    readable = (*places.read_dirs, work)
    files = frozenset(places.files)
    listable = frozenset(places.list_dirs)

    def resolve(value: Any) -> str | None:
        if isinstance(value, int) or value is None:
            return None  # an already open descriptor: it was checked when it was opened
        return os.path.realpath(os.fsdecode(value))

    def check(path: Any, roots: tuple[str, ...], event: str) -> None:
        resolved = resolve(path)
        if resolved is not None and not _under(resolved, roots):
            raise PermissionError(f"sandbox: {event} of {resolved} is not allowed")

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            mode, flags = args[1] or "", args[2] or 0
            writes = any(c in mode for c in "wax+") or bool(flags & _WRITE_FLAGS)
            if writes or resolve(args[0]) not in files:
                check(args[0], write_roots if writes else readable, "open")
        elif event in _PROCESS_EVENTS or event.startswith(_REFUSED_PREFIXES):
            raise PermissionError(f"sandbox: {event} is not allowed")
        elif event == "import" and args[0].split(".")[0] in _REFUSED_IMPORTS:
            raise PermissionError(f"sandbox: importing {args[0]} is not allowed")
        elif event in _WRITE_EVENTS:
            for i in _WRITE_EVENTS[event]:
                check(args[i], write_roots, event)
        elif event in _READ_EVENTS:
            path = resolve(args[0] if args[0] is not None else ".")
            if path not in listable:
                check(path, readable, event)

    return hook


def _lock_down(config: _Config) -> _Message:
    """Apply every restriction; the isolation in force, as sent in the ``ready`` event."""
    work = os.path.realpath(os.getcwd())
    places = _Places(config["packages"])
    namespace = filesystem = tcp = False
    try:
        libc = _libc()
        namespace = _isolate_network(libc)
        filesystem, tcp = _landlock(libc, places, work)
    except (OSError, AttributeError):
        pass  # no usable C library calls here: the result says which isolation is missing
    _set_limits(config)
    sys.path[:] = places.search
    sys.addaudithook(_make_hook(places, work))
    return {"event": "ready", "network_namespace": namespace, "landlock_fs": filesystem, "landlock_tcp": tcp}


def _describe(error: BaseException, memory_bytes: int) -> str:
    if isinstance(error, MemoryError):
        return f"MemoryError: out of memory (limit {memory_bytes >> 20} MiB)"
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    lines = [f.lineno for f in traceback.extract_tb(error.__traceback__) if f.filename == "<program>"]
    if lines:
        text += f" (line {lines[-1]})"
    return text[:_MAX_ERROR]


def _as_json(value: object) -> _JSON:
    """A value json cannot write (an array, a NumPy integer), as its ``tolist`` or ``__index__`` gives it."""
    for method in ("tolist", "__index__"):
        if hasattr(value, method):
            converted: _JSON = getattr(value, method)()
            return converted
    raise TypeError(f"a {type(value).__name__} is not a grid cell")


def _run_grid(transform: Callable[..., object], grid: list[list[int]], memory_bytes: int) -> _Message:
    try:
        output = transform([list(row) for row in grid])
        text = json.dumps(output, default=_as_json)
    except BaseException as error:  # the program's failure, whatever it is, is a result
        return {"error": _describe(error, memory_bytes)}
    if len(text) > _MAX_REPLY:
        return {"error": f"the output is {len(text)} characters of JSON, too large to be a grid"}
    return {"output": json.loads(text)}


def _flush_outputs() -> None:
    for stream in (sys.stdout, sys.stderr):
        # A failure here is the file-size limit: the parent sees it in the file's size.
        with contextlib.suppress(OSError, ValueError):
            stream.flush()


def _run(config: _Config, reporter: _Reporter) -> None:
    namespace: dict[str, object] = {"__name__": "__program__"}  # the program's globals, whatever it defines
    memory = config["memory_bytes"]
    try:
        exec(compile(config["source"], "<program>", "exec"), namespace)
    except BaseException as error:  # a program that fails to load is a result, not a crash
        reporter.send({"event": "load_error", "error": _describe(error, memory)})
        return
    transform = namespace.get("transform")
    if not callable(transform):
        reporter.send({"event": "load_error", "error": "the program defines no transform(grid) function"})
        return
    reporter.send({"event": "loaded"})
    for index, grid in enumerate(config["grids"]):
        reporter.send({"event": "grid", "index": index, **_run_grid(transform, grid, memory)})
        _flush_outputs()


def main() -> None:
    """Read the config named on the command line, lock down, run the program, report, exit."""
    config_path = sys.argv[1]
    with open(config_path, encoding="utf-8") as file:
        config: _Config = json.load(file)
    os.remove(config_path)  # the program has no business reading its own inputs from disk
    reporter = _Reporter(config["result_fd"])
    ready = _lock_down(config)
    reporter.send(ready)
    missing = [
        k for k in ("network_namespace", "landlock_fs") if config["require_isolation"] and not ready[k]
    ]
    if missing and not (missing == ["network_namespace"] and ready["landlock_tcp"]):
        reporter.send({"event": "refused", "error": f"kernel isolation is required but missing: {missing}"})
    else:
        _run(config, reporter)
    reporter.send({"event": "done"})
    _flush_outputs()
    os._exit(0)  # skip the program's atexit handlers and finalizers


if __name__ == "__main__":
    main()
