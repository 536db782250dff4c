"""The launcher's private root and unprivileged user (standard library only).

``_launch.py`` runs as a file (``python -I -S``), so it loads this module by path; the remote
learner imports `give` from it as a module. In a mount namespace of the program's own,
`enter_private_root` builds a new root on a tmpfs that holds only what the program may use:
the folders it may read (bound read-only), its working folder (bound read-write at a fixed path, so
that nothing in the path tells one play from another), a ``/dev`` with the few devices a program
needs, a private ``/tmp`` and ``/dev/shm``, and a ``/proc`` of its own PID namespace (where no
parent is visible). Then it pivots into that root. A pathname Unix socket outside is not in the
tree, so it cannot be reached; an abstract one belongs to the host's network namespace, which the
program has left.

`drop_privileges` makes a root launcher's program ``nobody`` with no capabilities.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
from collections.abc import Sequence
from typing import Any

_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_MS_NOATIME, _MS_NODIRATIME, _MS_RELATIME = 1024, 2048, 1 << 21
_ST_RELATIME = 4096
_MNT_DETACH = 2
CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWUSER = 0x00020000, 0x20000000, 0x10000000
_PR_CAPBSET_DROP = 24
_SYS_CAPSET = {"x86_64": 126, "aarch64": 91, "riscv64": 91, "ppc64le": 184, "s390x": 185, "i686": 185}
NOBODY = 65534
"""The user and group a root launcher's program runs as (Debian's ``nobody`` and ``nogroup``)."""

_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217, "i686": 217}
DEVICES = ("null", "zero", "full", "random", "urandom")
"""The device files the program gets: what ordinary programs (Python among them) open."""
_SCRATCH = f"mode=1777,size={256 << 20}"  # /tmp and /dev/shm hold files in memory: cap each as one file


def _mount(
    libc: ctypes.CDLL, source: str | None, target: str, fstype: str | None, flags: int, data: str = ""
) -> None:
    def raw(text: str | None) -> bytes | None:
        return None if text is None else os.fsencode(text)

    if libc.mount(raw(source), raw(target), raw(fstype), ctypes.c_ulong(flags), raw(data or None)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount on {target}: {os.strerror(err)}")


def _kept_flags(path: str) -> int:
    """The flags a read-only remount must repeat (in a user namespace the kernel locks them)."""
    found = os.statvfs(path).f_flag
    kept = found & (_MS_NOSUID | _MS_NODEV | _MS_NOEXEC | _MS_NOATIME | _MS_NODIRATIME)
    return kept | (_MS_RELATIME if found & _ST_RELATIME else 0)


def _bind(libc: ctypes.CDLL, root: str, source: str, inside: str, *, writable: bool) -> None:
    """``source`` seen at ``inside`` in the new root (a symbolic link is made again as a link)."""
    target = root + inside
    if os.path.islink(source):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.lexists(target):
            os.symlink(os.readlink(source), target)
        return
    if not os.path.exists(source):
        return
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "a", encoding="utf-8"):
            pass
    _mount(libc, source, target, None, _MS_BIND | _MS_REC)
    if not writable:
        _mount(libc, None, target, None, _MS_BIND | _MS_REMOUNT | _MS_RDONLY | _kept_flags(target))


def _outermost(paths: Sequence[str]) -> list[str]:
    """The paths with every one inside another dropped: a recursive bind shows those already."""
    kept: list[str] = []
    for path in sorted(dict.fromkeys(paths), key=lambda p: (p.count("/"), p)):
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept


def _devices(libc: ctypes.CDLL, root: str) -> None:
    dev = root + "/dev"
    os.makedirs(dev, exist_ok=True)
    _mount(libc, "tmpfs", dev, "tmpfs", _MS_NOSUID | _MS_NOEXEC, "mode=755,size=64k")
    for name in DEVICES:
        if os.path.exists(f"/dev/{name}"):
            _bind(libc, root, f"/dev/{name}", f"/dev/{name}", writable=True)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):  # fmt: skip
        os.symlink(target, f"{dev}/{name}")
    os.makedirs(dev + "/shm")
    _mount(libc, "tmpfs", dev + "/shm", "tmpfs", _MS_NOSUID | _MS_NODEV, _SCRATCH)


def _pivot(libc: ctypes.CDLL, root: str) -> None:
    """Make ``root`` the root and let go of the old one (``pivot_root(".", ".")``, then detach)."""
    number = _PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise OSError(0, f"no pivot_root number known for {platform.machine()}")
    os.chdir(root)
    if libc.syscall(ctypes.c_long(number), b".", b".") != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"pivot_root: {os.strerror(err)}")
    if libc.umount2(b".", ctypes.c_int(_MNT_DETACH)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"detaching the old root: {os.strerror(err)}")
    os.chdir("/")


def enter_private_root(libc: ctypes.CDLL, config: dict[str, Any]) -> dict[str, object]:
    """Build the new root and pivot into it; what was put in force.

    ``config["scratch"]`` is an empty folder of the launcher's (its log folder) to build the root
    on; ``config["read_dirs"]`` are bound read-only at their own paths and ``config["binds"]``
    (``[host, inside]`` pairs) read-write; ``config["empty"]``, when given, is an empty read-only
    folder at ``empty["inside"]`` (a tmpfs, so that nothing in the tree names the host's folder).
    On any refusal the program stays in the host's tree,
    and the report says ``private_root: false`` (Landlock still confines it).
    """
    if libc.unshare(ctypes.c_int(CLONE_NEWNS)) != 0:
        return {"private_root": False, "proc": False}
    root = config["scratch"]
    try:
        _mount(libc, None, "/", None, _MS_REC | _MS_PRIVATE)
        _mount(libc, "tmpfs", root, "tmpfs", _MS_NOSUID | _MS_NODEV, "mode=755,size=1m")
        _devices(libc, root)
        # /tmp first: a folder under the host's /tmp that the program may use is bound inside it
        os.makedirs(root + "/tmp", exist_ok=True)
        _mount(libc, "tmpfs", root + "/tmp", "tmpfs", _MS_NOSUID | _MS_NODEV, _SCRATCH)
        for path in _outermost(config["read_dirs"]):
            _bind(libc, root, path, path, writable=False)
        for host, inside in config["binds"]:
            _bind(libc, root, host, inside, writable=True)
        empty = config.get("empty")
        if empty:  # an empty folder at a fixed path: a tmpfs of its own, read-only, naming no host folder
            os.makedirs(root + empty["inside"], exist_ok=True)
            flags = _MS_NOSUID | _MS_NODEV | _MS_NOEXEC
            _mount(libc, "tmpfs", root + empty["inside"], "tmpfs", flags | _MS_RDONLY, "mode=755,size=4k")
        os.makedirs(root + "/proc", exist_ok=True)
        proc = True
        try:
            _mount(libc, "proc", root + "/proc", "proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC)
        except OSError:
            proc = False  # no /proc at all rather than the host's, which shows every process
        _pivot(libc, root)
    except OSError as err:
        return {"private_root": False, "proc": False, "private_root_error": str(err)}
    with contextlib.suppress(OSError):  # the new root's own folders stay as built
        _mount(libc, None, "/", None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV)
    return {"private_root": True, "proc": proc}


def give(folder: str, uid: int, gid: int) -> None:
    """``folder`` and everything in it to ``uid``:``gid`` (links themselves, never what they name)."""
    os.lchown(folder, uid, gid)
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            os.lchown(os.path.join(top, name), uid, gid)


def _clear_capabilities(libc: ctypes.CDLL) -> None:
    """Empty the effective, permitted and inheritable sets (``capset`` with version 3's two words)."""

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [
            ("effective", ctypes.c_uint32),
            ("permitted", ctypes.c_uint32),
            ("inheritable", ctypes.c_uint32),
        ]

    words = (Data * 2)()
    libc.syscall(
        ctypes.c_long(_SYS_CAPSET.get(platform.machine(), 126)), ctypes.byref(Header(0x20080522, 0)), words
    )


def drop_privileges(libc: ctypes.CDLL, writable: Sequence[str]) -> dict[str, object]:
    """The program runs with no capability, and as ``nobody`` (owning ``writable``) under root.

    Run by a user other than root, the program keeps that user, in a user namespace mapping it to
    itself; the capabilities the launcher held there (to mount) are dropped all the same.
    """
    if os.getuid() == 0 and os.geteuid() == 0:
        for folder in writable:
            give(folder, NOBODY, NOBODY)
    for cap in range(64):  # the bounding set: no later program can gain one back
        libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
    if os.getuid() == 0 and os.geteuid() == 0:
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(NOBODY, NOBODY, NOBODY)
    _clear_capabilities(libc)
    return {"uid": os.getuid(), "capabilities": _effective_capabilities()}


def _effective_capabilities() -> int | None:
    """The calling process's effective capabilities as a bit mask (``None`` without ``/proc``)."""
    try:
        with open("/proc/self/status", encoding="utf-8") as status:
            for line in status:
                if line.startswith("CapEff:"):
                    return int(line.split()[1], 16)
    except OSError:
        return None
    return None


def own_user(libc: ctypes.CDLL) -> bool:
    """A user namespace mapping the caller's user and group to themselves (for a user not root)."""
    uid, gid = os.geteuid(), os.getegid()
    if libc.unshare(ctypes.c_int(CLONE_NEWUSER)) != 0:
        return False
    try:
        for name, text in (
            ("uid_map", f"{uid} {uid} 1"),
            ("setgroups", "deny"),
            ("gid_map", f"{gid} {gid} 1"),
        ):
            with open(f"/proc/self/{name}", "w", encoding="ascii") as file:
                file.write(text)
    except OSError:
        return False
    return True
