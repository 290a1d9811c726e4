"""A relay inside a bot's sandbox: 127.0.0.1:PORT there, to the seat's Unix socket of the referee.

For bots whose gRPC library cannot dial a ``unix:`` target (.NET's
Grpc.Net.Client, Rust's tonic, grpc-java without Netty's native transport):
their ARENA_ADDRESS is then ``127.0.0.1:PORT`` in their own network
namespace, where no other bot is. Run with the interpreter's ``-I -S`` (the
standard library only)::

    python -I -S relay.py PORT SOCKET COMMAND...

It listens first, so the bot can connect as soon as it starts, then forks:
the child relays (each TCP connection gets its own connection to SOCKET, and
bytes flow both ways until either side closes), the parent execs COMMAND,
the bot. The relay dies with the sandbox's PID namespace, when the bot ends.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import socket
import sys

CHUNK = 256 * 1024


def serve(listener: socket.socket, target: str) -> None:
    """Relay until killed: one selector loop, no threads."""
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, None)
    peers: dict[socket.socket, socket.socket] = {}

    def close(sock: socket.socket) -> None:
        other = peers.pop(sock, None)
        for s in (sock, other):
            if s is None:
                continue
            peers.pop(s, None)
            with contextlib.suppress(KeyError, ValueError):
                sel.unregister(s)
            s.close()

    while True:
        for key, _ in sel.select():
            sock = key.fileobj
            if sock is listener:
                client, _ = listener.accept()
                upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    upstream.connect(target)
                except OSError:
                    client.close()
                    upstream.close()
                    continue
                client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                client.setblocking(True)
                upstream.setblocking(True)
                peers[client], peers[upstream] = upstream, client
                sel.register(client, selectors.EVENT_READ, None)
                sel.register(upstream, selectors.EVENT_READ, None)
                continue
            assert isinstance(sock, socket.socket)
            try:
                data = sock.recv(CHUNK)
                if data:
                    peers[sock].sendall(data)
                    continue
            except (OSError, KeyError):
                pass
            close(sock)


def main(argv: list[str]) -> None:
    if len(argv) < 4:
        sys.stderr.write("arena relay: usage: relay.py PORT SOCKET COMMAND...\n")
        raise SystemExit(125)
    port, target, command = int(argv[1]), argv[2], argv[3:]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(("127.0.0.1", port))
        listener.listen(8)
    except OSError as exc:
        sys.stderr.write(f"arena relay: cannot listen on 127.0.0.1:{port}: {exc.strerror}\n")
        raise SystemExit(125) from None
    if os.fork() == 0:
        try:
            serve(listener, target)
        finally:
            os._exit(0)
    listener.close()
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        sys.stderr.write(f"arena relay: cannot run {command[0]}: {exc.strerror}\n")
        raise SystemExit(127) from None


if __name__ == "__main__":
    main(sys.argv)
