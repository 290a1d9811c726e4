"""Hostile bot (issue 19): partners show each other their hands through every side channel they can open.

``python sbx_partner.py KEY [VICTIM]``: both seats of a team run it with the
same KEY (unique to the test run). At every decision a seat publishes its
dealt hand, ``KEY|SEAT|HAND|CARDS``, on each channel below, and reads its
partner's from each. Whatever it receives is printed once per channel and
hand, as ``sbx_partner: got CHANNEL SEAT HAND CARDS``, to its output.

Channels: TCP and UDP on 127.0.0.1, an abstract Unix socket; in each of
/tmp, /var/tmp, /dev/shm, $HOME and the working folder a Unix socket, a FIFO
and a plain file; System V shared memory and message queues; a POSIX message
queue; signals to the partner's process (found by its name in /proc); and
through this very file, which both partners can read: a ``flock``, an
``fcntl`` read lock, and ``inotify`` events for its opens (these three carry
one bit: the partner is there; a hand takes a few dozen such bits).

It also writes where it should not: a new file in the working folder and in
$HOME, and a line at the end of VICTIM (an opponent's program), then prints
``sbx_partner: wrote PATH`` for each write that worked. Plays random legal
actions.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import fcntl
import os
import selectors
import signal
import socket
import struct
import sys
import threading
import zlib

KEY = sys.argv[1]
VICTIM = sys.argv[2] if len(sys.argv) > 2 else ""
del sys.argv[1:]  # the SDK reads its own options from the command line

from example_bots.random_bot import RandomBot
from sdk import SeatView, card_str, run

BASE = 20000 + zlib.crc32(KEY.encode()) % 20000  # ports BASE + seat (TCP), BASE + 10 + seat (UDP)
IPC_KEY = 0x5A000000 + (zlib.crc32(KEY.encode()) % 0x10000) * 16  # System V keys IPC_KEY + seat
PLACES = {
    "tmp": "/tmp",
    "var-tmp": "/var/tmp",
    "dev-shm": "/dev/shm",
    "home": os.environ.get("HOME", "/nonexistent"),
    "cwd": os.getcwd(),
}
IPC_CREAT, IPC_NOWAIT = 0o1000, 0o4000
PR_SET_NAME = 15

libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
librt = ctypes.CDLL(ctypes.util.find_library("rt") or None, use_errno=True)

published = ""  # this seat's message, served by the listeners
got: set[tuple[str, str]] = set()  # (channel, message) already printed
signals = 0


def name(kind: str, seat: int) -> str:
    return f"sbx-{KEY}-{kind}-{seat}"


def received(channel: str, message: str) -> None:
    parts = message.split("|")
    if len(parts) != 4 or parts[0] != KEY or (channel, parts[2]) in got:
        return
    got.add((channel, parts[2]))
    print(f"sbx_partner: got {channel} {parts[1]} {parts[2]} {parts[3]}", file=sys.stderr, flush=True)


# ------------------------------------------------------------ listening (a thread)


def listen(seat: int) -> None:
    sel = selectors.DefaultSelector()

    def stream(sock: socket.socket, channel: str) -> None:
        with contextlib.suppress(OSError):
            sock.listen(4)
            sock.setblocking(False)
            sel.register(sock, selectors.EVENT_READ, ("accept", channel))

    with contextlib.suppress(OSError):
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        tcp.bind(("127.0.0.1", BASE + seat))
        stream(tcp, "tcp")
    with contextlib.suppress(OSError):
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.bind(("127.0.0.1", BASE + 10 + seat))
        sel.register(udp, selectors.EVENT_READ, ("datagram", "udp"))
    with contextlib.suppress(OSError):
        abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        abstract.bind("\0" + name("abstract", seat))
        stream(abstract, "abstract")
    for place, folder in PLACES.items():
        path = os.path.join(folder, name("sock", seat))
        with contextlib.suppress(OSError):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(path)
            stream(sock, f"unix-socket:{place}")
        fifo = os.path.join(folder, name("fifo", seat))
        with contextlib.suppress(OSError):
            with contextlib.suppress(FileExistsError):
                os.mkfifo(fifo, 0o666)
            fd = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # O_RDWR: stays open with no writer
            sel.register(fd, selectors.EVENT_READ, ("fifo", f"fifo:{place}"))
    while True:
        for key, _ in sel.select():
            what, channel = key.data
            with contextlib.suppress(OSError):
                if what == "accept":
                    assert isinstance(key.fileobj, socket.socket)
                    conn, _ = key.fileobj.accept()
                    with conn:
                        conn.sendall(published.encode())
                elif what == "datagram":
                    assert isinstance(key.fileobj, socket.socket)
                    received(channel, key.fileobj.recv(4096).decode(errors="replace"))
                else:
                    for line in os.read(key.fd, 65536).decode(errors="replace").splitlines():
                        received(channel, line)


# ------------------------------------------------------------ at each decision


def publish_and_read(seat: int, partner: int) -> None:
    message = published
    partner_name = name("proc", partner)[-15:]
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", BASE + partner), timeout=0.2) as c:
        received("tcp", c.recv(4096).decode(errors="replace"))
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
        u.sendto(message.encode(), ("127.0.0.1", BASE + 10 + partner))
    with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as a:
        a.settimeout(0.2)
        a.connect("\0" + name("abstract", partner))
        received("abstract", a.recv(4096).decode(errors="replace"))
    for place, folder in PLACES.items():
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(0.2)
            s.connect(os.path.join(folder, name("sock", partner)))
            received(f"unix-socket:{place}", s.recv(4096).decode(errors="replace"))
        with contextlib.suppress(OSError):
            fd = os.open(os.path.join(folder, name("fifo", partner)), os.O_WRONLY | os.O_NONBLOCK)
            try:
                os.write(fd, (message + "\n").encode())
            finally:
                os.close(fd)
        with contextlib.suppress(OSError), open(os.path.join(folder, name("file", seat)), "w") as f:
            f.write(message)
        with contextlib.suppress(OSError), open(os.path.join(folder, name("file", partner))) as f:
            received(f"file:{place}", f.read())
    sysv(seat, partner, message)
    posix_mq(seat, partner, message)
    for pid in _pids_named(partner_name):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGUSR1)
    if signals:
        received("signal", f"{KEY}|{partner}|{signals}|signals")


def sysv(seat: int, partner: int, message: str) -> None:
    data = message.encode()[:4000] + b"\0"
    mine = libc.shmget(IPC_KEY + seat, 4096, IPC_CREAT | 0o666)
    if mine >= 0:
        address = libc.shmat(mine, None, 0)
        if address not in (None, ctypes.c_void_p(-1).value):
            ctypes.memmove(address, data, len(data))
            libc.shmdt(ctypes.c_void_p(address))
    theirs = libc.shmget(IPC_KEY + partner, 0, 0)
    if theirs >= 0:
        address = libc.shmat(theirs, None, 0)
        if address not in (None, ctypes.c_void_p(-1).value):
            received("sysv-shm", ctypes.string_at(address).decode(errors="replace"))
            libc.shmdt(ctypes.c_void_p(address))

    class Msg(ctypes.Structure):
        _fields_ = [("mtype", ctypes.c_long), ("mtext", ctypes.c_char * 4096)]

    queue = libc.msgget(IPC_KEY + 8 + partner, IPC_CREAT | 0o666)
    if queue >= 0:
        out = Msg(1, data)
        libc.msgsnd(queue, ctypes.byref(out), len(data), IPC_NOWAIT)
    own = libc.msgget(IPC_KEY + 8 + seat, IPC_CREAT | 0o666)
    if own >= 0:
        incoming = Msg()
        while libc.msgrcv(own, ctypes.byref(incoming), 4096, 0, IPC_NOWAIT) > 0:
            received("sysv-msg", incoming.mtext.decode(errors="replace"))


def posix_mq(seat: int, partner: int, message: str) -> None:
    flags_read = os.O_RDONLY | os.O_CREAT | os.O_NONBLOCK
    own = librt.mq_open(f"/{name('mq', seat)}".encode(), flags_read, 0o666, None)
    theirs = librt.mq_open(f"/{name('mq', partner)}".encode(), os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK, 0o666, None)
    if theirs >= 0:
        data = message.encode()
        librt.mq_send(theirs, data, len(data), 0)
        librt.mq_close(theirs)
    if own >= 0:
        buffer = ctypes.create_string_buffer(1 << 16)
        while librt.mq_receive(own, buffer, len(buffer), None) > 0:
            received("posix-mq", buffer.value.decode(errors="replace"))
        librt.mq_close(own)


class SharedFile:
    """Signals through this file, which both partners read: locks and inotify."""

    def __init__(self) -> None:
        self.fd = os.open(__file__, os.O_RDONLY)
        with contextlib.suppress(OSError):
            fcntl.lockf(self.fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # a read lock the partner's query may see
        self.watch = libc.inotify_init1(os.O_NONBLOCK)
        if self.watch >= 0 and libc.inotify_add_watch(self.watch, __file__.encode(), 0x20) < 0:  # IN_OPEN
            os.close(self.watch)
            self.watch = -1

    def signal_and_listen(self, seat: int, partner: int, hand: int) -> None:
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the first to ask keeps it
        except BlockingIOError:
            received("flock", f"{KEY}|{partner}|{hand}|locked")
        except OSError:
            pass
        query = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
        with contextlib.suppress(OSError):
            if struct.unpack("hhqqi", fcntl.fcntl(self.fd, fcntl.F_GETLK, query))[0] != fcntl.F_UNLCK:
                received("fcntl-lock", f"{KEY}|{partner}|{hand}|locked")
        # inotify: the lower seat opens the file at each decision, the other watches (identical events
        # coalesce, so a seat could not tell its partner's opens from its own); closing the file drops the
        # opener's fcntl lock, so that channel runs the other way
        if seat < partner:
            os.close(os.open(__file__, os.O_RDONLY))
        elif self.watch >= 0:
            with contextlib.suppress(OSError):
                if os.read(self.watch, 65536):
                    received("inotify", f"{KEY}|{partner}|{hand}|opened")


def _pids_named(wanted: str) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/comm") as f:
                if f.read().strip() == wanted:
                    out.append(int(entry))
    return out


def trespass() -> None:
    """Writes a fair bot has no business making; each one that works is printed."""
    targets = [os.path.join(os.getcwd(), name("planted", 0)), os.path.join(PLACES["home"], name("planted", 0))]
    for path in targets:
        with contextlib.suppress(OSError):
            with open(path, "a") as f:
                f.write("planted\n")
            print(f"sbx_partner: wrote {path}", file=sys.stderr, flush=True)
    if VICTIM:
        with contextlib.suppress(OSError):
            with open(VICTIM, "a") as f:
                f.write("\n# changed by sbx_partner\n")
            print(f"sbx_partner: wrote {VICTIM}", file=sys.stderr, flush=True)


class Partner(RandomBot):
    started = False
    shared: SharedFile | None = None

    def decide(self, view: SeatView) -> object:
        global published
        seat = view.seat
        partner = next(s for s in view.partners if s != seat)
        published = f"{KEY}|{seat}|{view.hand_number}|{','.join(map(card_str, view.dealt))}"
        if not self.started:
            self.started = True
            with contextlib.suppress(OSError):
                libc.prctl(PR_SET_NAME, name("proc", seat)[-15:].encode(), 0, 0, 0)
            threading.Thread(target=listen, args=(seat,), daemon=True).start()
            trespass()
            self.shared = SharedFile()
        publish_and_read(seat, partner)
        if self.shared is not None:
            self.shared.signal_and_listen(seat, partner, view.hand_number)
        return super().decide(view)


def _on_signal(signum: int, frame: object) -> None:
    global signals
    signals += 1


signal.signal(signal.SIGUSR1, _on_signal)
run(Partner())
