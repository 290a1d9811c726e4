"""A seccomp filter for bots: the system calls that would let two sandboxes signal each other through a file
both can read.

The sandbox gives each bot its own network, IPC and PID namespaces and a
read-only view of the files, but the files themselves are shared: the same
inode is seen by every bot. Four kernel features tell one process what
another does to such a file, read-only as it is, and would let partners pass
their hands:

- locks: ``flock`` and the ``fcntl`` record locks (a shared lock taken in one
  sandbox is seen from the other as a conflict);
- notifications: ``inotify`` (and ``fcntl(F_NOTIFY)``) report every open and
  read of a watched file;
- page-cache residency: ``mincore`` says which pages of a mapped file are in
  memory, and ``posix_fadvise``/``readahead`` put them there or drop them.

And one call makes timing through CPU load fast and clean: two processes
pinned to the same CPU (``sched_setaffinity``) each see the other's load in
their own speed, at about 50 bits a second (bench/side_channels.py).

The filter makes the lock calls succeed without locking (a program that
locks its own files goes on working; locks between its own processes no
longer exclude), makes lock queries fail with ENOLCK, inotify and
``F_NOTIFY`` fail as not supported (ENOSYS, EINVAL), ``mincore`` fail with
ENOSYS, and ``fadvise``/``readahead`` and pinning to CPUs do nothing (each
succeeds). Every other call is allowed. What is left (timing through CPU load or through reads from the
disk) is measured in bench/side_channels.py and listed in docs/security.md.

``program()`` is the filter for this machine's architecture (x86-64 and
arm64; None elsewhere: the sandbox is then made without it), as the bytes of
a ``struct sock_filter`` array: bubblewrap takes them on a descriptor
(``--seccomp FD``), the ``unshare`` launcher installs them itself.
"""

from __future__ import annotations

import errno
import os
import platform
import struct

# classic BPF as seccomp uses it
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K
_ALLOW = 0x7FFF0000  # SECCOMP_RET_ALLOW
_ERRNO = 0x00050000  # SECCOMP_RET_ERRNO | errno (0: "succeeds", doing nothing)
_NR, _ARCH, _ARG1 = 0, 4, 24  # offsets in struct seccomp_data (arg 1: its low 32 bits, little-endian)

# fcntl commands
F_GETLK, F_SETLK, F_SETLKW = 5, 6, 7
F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW = 36, 37, 38
F_NOTIFY = 1026

# per architecture: the audit value, then system call numbers (a call not listed does not exist there)
_ARCHES: dict[str, tuple[int, dict[str, int]]] = {
    "x86_64": (0xC000003E, {"fcntl": 72, "flock": 73, "inotify_init": 253, "inotify_init1": 294,
                            "mincore": 27, "fadvise64": 221, "readahead": 187, "sched_setaffinity": 203}),
    "aarch64": (0xC00000B7, {"fcntl": 25, "flock": 32, "inotify_init1": 26,
                             "mincore": 232, "fadvise64": 223, "readahead": 213, "sched_setaffinity": 122}),
}  # fmt: skip
_X32_BIT = 0x40000000  # x86-64's x32 calls: another numbering of the same calls, refused


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def _ret(value: int) -> bytes:
    return _op(_RET_K, value)


def program(machine: str | None = None) -> bytes | None:
    """The filter for ``machine`` (default: this one), or None where it is not known."""
    arch = _ARCHES.get(machine or platform.machine())
    if arch is None:
        return None
    audit, nr = arch
    per_call: list[tuple[int, int]] = [(nr["flock"], _ERRNO | 0)]
    for name in ("inotify_init", "inotify_init1", "mincore"):
        if name in nr:
            per_call.append((nr[name], _ERRNO | errno.ENOSYS))
    for name in ("fadvise64", "readahead", "sched_setaffinity"):
        per_call.append((nr[name], _ERRNO | 0))
    fcntl_answers = [
        *((cmd, _ERRNO | 0) for cmd in (F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW)),
        *((cmd, _ERRNO | errno.ENOLCK) for cmd in (F_GETLK, F_OFD_GETLK)),
        (F_NOTIFY, _ERRNO | errno.EINVAL),
    ]
    # the fcntl block: load the command, one test-and-return per command, else allow
    fcntl_block = [_op(_LD_W_ABS, _ARG1)]
    for cmd, answer in fcntl_answers:
        fcntl_block += [_op(_JEQ_K, cmd, 0, 1), _ret(answer)]
    fcntl_block.append(_ret(_ALLOW))
    calls: list[bytes] = []
    for number, answer in per_call:
        calls += [_op(_JEQ_K, number, 0, 1), _ret(answer)]
    head = [
        _op(_LD_W_ABS, _ARCH),
        _op(_JEQ_K, audit, 1, 0),
        _ret(_ERRNO | errno.ENOSYS),  # another architecture's calls (32-bit x86 on x86-64): refused
        _op(_LD_W_ABS, _NR),
    ]
    if machine == "x86_64" or (machine is None and platform.machine() == "x86_64"):
        head += [_op(_JGE_K, _X32_BIT, 0, 1), _ret(_ERRNO | errno.ENOSYS)]
    # fcntl: jump over the per-call tests and the final allow to the fcntl block
    skip = len(calls) + 1
    body = [_op(_JEQ_K, nr["fcntl"], 0, 1), _op(0x05, skip)]  # BPF_JMP | BPF_JA
    return b"".join([*head, *body, *calls, _ret(_ALLOW), *fcntl_block])


def memfd() -> int | None:
    """A descriptor holding ``program()``, for ``bwrap --seccomp FD`` (None where there is no filter). The
    caller passes it to the child and closes it."""
    data = program()
    if data is None:
        return None
    fd = os.memfd_create("arena-seccomp", os.MFD_CLOEXEC)
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd
