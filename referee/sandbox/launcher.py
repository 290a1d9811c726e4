"""The ``unshare`` fallback's launcher: builds a bot's file system view inside its new namespaces, then runs it.

Run by ``unshare --user --map-root-user --mount --net ...`` as root of the
bot's own user namespace, with the interpreter's ``-I -S`` (the standard
library only: this file imports nothing of the arena)::

    python -I -S launcher.py SPEC_JSON COMMAND...

SPEC_JSON is a ``referee.sandbox.layout.Layout`` as JSON, plus ``tmp_bytes``
(the size of each private tmpfs), ``loopback`` (bring ``lo`` up: a relay
listens on it) and ``seccomp`` (the filter, in hex; empty for none). The
steps are those of bubblewrap's options, in the same order, done with the
mount system calls:

1. open every path to give back (O_PATH), while the machine's view is there;
2. make every mount read-only, recursively (``mount_setattr``, Linux 5.12+);
3. mount the private tmpfs, bind the kept folders back read-only, cover the
   hidden ones, bind the named files, the readable folders, the seat's socket
   and the writable folders (from the open descriptors, so covering a path
   loses nothing);
4. check the result: the root and the working folder must be read-only;
5. bind the still copies over /proc's machine-wide counters (``masks``);
   install the seccomp filter given (``seccomp``: referee/sandbox/seccomp.py);
6. change to the working folder and exec COMMAND (prlimit, setpriv, the bot).

Any failure ends it with status 125 and one line on stderr that starts with
``arena sandbox:``: the bot never runs in a half-made sandbox.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import socket
import struct
import sys

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_BIND = 4096
MS_REC = 16384
AT_FDCWD = -100
AT_RECURSIVE = 0x8000
MOUNT_ATTR_RDONLY = 1
SYS_MOUNT_SETATTR = 442  # the same number on every architecture (a syscall added after 5.1)
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 1
PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2

_libc = ctypes.CDLL(None, use_errno=True)


class _MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


class SetupError(Exception):
    pass


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise SetupError(f"{what}: {os.strerror(errno)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(
        _libc.mount(
            None if source is None else source.encode(),
            target.encode(),
            None if fstype is None else fstype.encode(),
            ctypes.c_ulong(flags),
            None if data is None else data.encode(),
        ),
        f"mount {target}",
    )


def _read_only(path: str, *, recursive: bool) -> None:
    attr = _MountAttr(MOUNT_ATTR_RDONLY, 0, 0, 0)
    flags = AT_RECURSIVE if recursive else 0
    _check(
        _libc.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, path.encode(), flags, ctypes.byref(attr), ctypes.sizeof(attr)),
        f"make {path} read-only",
    )


def _writable(path: str) -> None:
    attr = _MountAttr(0, MOUNT_ATTR_RDONLY, 0, 0)
    _check(
        _libc.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, path.encode(), 0, ctypes.byref(attr), ctypes.sizeof(attr)),
        f"make {path} writable",
    )


def _bind(fd: int, target: str, *, folder: bool) -> None:
    """Bind what ``fd`` (O_PATH) names at ``target``, making the mount point first."""
    if folder:
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o644))
    _mount(f"/proc/self/fd/{fd}", target, None, MS_BIND | (MS_REC if folder else 0))


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s.fileno(), SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(s.fileno(), SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def setup(spec: dict) -> None:
    tmpfs = f"size={int(spec['tmp_bytes'])},mode=1777"
    keep, files, writable = spec["keep"], spec["files"], spec["writable"]
    readable = spec.get("readable", [])
    socket_path = spec["socket"]
    masks = [tuple(pair) for pair in spec.get("masks", [])]
    sources = [*keep, *files, *readable, *writable, *([socket_path] if socket_path else [])]
    sources += [copy for _, copy in masks]
    try:
        fds = {path: os.open(path, os.O_PATH | os.O_CLOEXEC) for path in sources}
    except OSError as exc:
        raise SetupError(f"cannot open {exc.filename}: {exc.strerror}") from None
    _read_only("/", recursive=True)
    for place in spec["private"]:
        _mount("tmpfs", place, "tmpfs", MS_NOSUID | MS_NODEV, tmpfs)
    for folder in keep:
        _bind(fds[folder], folder, folder=True)
        _read_only(folder, recursive=True)
    covered = []
    for folder in spec["hide"]:
        if os.path.isdir(folder):
            _mount("tmpfs", folder, "tmpfs", MS_NOSUID | MS_NODEV, "size=65536,mode=755")
            covered.append(folder)
    for path in files:
        _bind(fds[path], path, folder=False)
        _read_only(path, recursive=False)
    for folder in readable:
        _bind(fds[folder], folder, folder=True)
        _read_only(folder, recursive=True)
    if socket_path:
        _bind(fds[socket_path], socket_path, folder=False)
    for folder in writable:
        _bind(fds[folder], folder, folder=True)
        _writable(folder)
    for folder in covered:
        _read_only(folder, recursive=False)
    for target, copy in masks:  # /proc is the namespace's own (unshare --mount-proc): cover its machine-wide counters
        _mount(f"/proc/self/fd/{fds[copy]}", target, None, MS_BIND)
        _read_only(target, recursive=False)
    for fd in fds.values():
        os.close(fd)
    if spec.get("loopback"):
        _loopback_up()
    if spec.get("seccomp"):
        _filter(bytes.fromhex(spec["seccomp"]))
    for path in ("/", spec["cwd"]):
        if not os.statvfs(path).f_flag & os.ST_RDONLY and not any(_under(path, w) for w in writable):
            raise SetupError(f"{path} is still writable")


class _FilterProgram(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _filter(program: bytes) -> None:
    """Install the seccomp filter (referee/sandbox/seccomp.py): it holds for everything run from here on."""
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _FilterProgram(len(program) // 8, ctypes.addressof(buffer))
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0), "seccomp filter")


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def main(argv: list[str]) -> None:
    if len(argv) < 3:
        sys.stderr.write("arena sandbox: usage: launcher.py SPEC_JSON COMMAND...\n")
        raise SystemExit(125)
    try:
        spec = json.loads(argv[1])
        setup(spec)
        os.chdir(spec["cwd"])
    except (SetupError, OSError, ValueError, KeyError) as exc:
        sys.stderr.write(f"arena sandbox: {exc}\n")
        raise SystemExit(125) from None
    try:
        os.execv(argv[2], argv[2:])
    except OSError as exc:
        sys.stderr.write(f"arena sandbox: cannot run {argv[2]}: {exc.strerror}\n")
        raise SystemExit(127) from None


if __name__ == "__main__":
    main(sys.argv)
