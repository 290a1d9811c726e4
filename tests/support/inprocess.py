"""The fast tier's guard: a test of the in-process tier (``make check``) that starts a process, opens a socket or
starts a gRPC server or channel fails, naming what it started.

``tests/conftest.py`` decides the tier of each test (``PROCESSES``) and guards every phase of every test of the
fast one (its fixtures' setup, its call, their teardown), in ``make check`` and ``make test`` alike, so that a test
cannot sit in the fast tier and start processes unseen. Every way out of the process is closed: ``subprocess``
(and so asyncio's subprocesses, Playwright's browser, Ray), ``os.fork`` and its kin, ``multiprocessing``, a
socket's ``bind`` and ``connect`` (asyncio's own socketpair is neither), and gRPC's, which opens its sockets in C.
What the code under test does with the error raised does not matter: the phase fails all the same.

The ways out are wrapped once, for the whole session (``install``); a wrapper refuses only while a guarded phase
runs (``guarding``), so a test's own monkeypatching of the same functions comes and goes as it would without it.
gRPC's are wrapped once gRPC is imported (by the test modules, as they are collected): this module never imports it,
so that the suite's setting of gRPC's fork handlers (tests/conftest.py) is in place when it is first imported.
"""

from __future__ import annotations

import _posixsubprocess
import functools
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

WHY = (
    "a test of the in-process tier (make check) starts no process and opens no socket; one that must is listed "
    "in tests/conftest.py PROCESSES (its folder, its file or itself)"
)


class LeftTheProcess(RuntimeError):
    """What a way out raises while a phase of a test of the in-process tier runs."""


def _ways_out() -> list[tuple[object, str, str]]:
    """(owner, attribute, what calling it starts) for every call that leaves the test's process (gRPC's once it is
    imported)."""
    ways: list[tuple[object, str, str]] = [
        (subprocess.Popen, "_execute_child", "a subprocess"),
        (_posixsubprocess, "fork_exec", "a process (multiprocessing)"),
        (os, "fork", "a fork"),
        (os, "forkpty", "a fork on a terminal"),
        (os, "posix_spawn", "a process (posix_spawn)"),
        (os, "posix_spawnp", "a process (posix_spawnp)"),
        (os, "system", "a shell"),
        (socket.socket, "bind", "a socket bound"),
        (socket.socket, "connect", "a socket connected"),
        (socket.socket, "connect_ex", "a socket connected"),
    ]
    for module in ("grpc", "grpc.aio"):
        if module in sys.modules:
            owner = sys.modules[module]
            ways += [
                (owner, "server", "a gRPC server"),
                (owner, "insecure_channel", "a gRPC channel"),
                (owner, "secure_channel", "a gRPC channel"),
            ]
    return ways


_started: list[str] | None = None  # while a guarded phase runs: what it started
_wrapped: set[tuple[int, str]] = set()  # (id of the owner, attribute) of the ways out wrapped so far


def install() -> None:
    """Wrap every way out not wrapped yet (each once for the session): a wrapper calls through except while
    ``guarding``."""

    def wrapped(original: Callable[..., Any], what: str) -> Callable[..., Any]:
        @functools.wraps(original)
        def way_out(*args: Any, **kwargs: Any) -> Any:
            if _started is not None:
                _started.append(what)
                raise LeftTheProcess(f"started {what}: {WHY}")
            return original(*args, **kwargs)

        return way_out

    for owner, name, what in _ways_out():
        if (id(owner), name) not in _wrapped:
            _wrapped.add((id(owner), name))
            setattr(owner, name, wrapped(getattr(owner, name), what))


@contextmanager
def guarding() -> Iterator[None]:
    """A phase of a test of the in-process tier: it fails, naming what it started, when it started anything
    (whether or not the code under test caught the ``LeftTheProcess`` raised)."""
    global _started
    install()  # gRPC's, once the tests have imported it
    outer = _started
    started: list[str] = []
    _started = started
    try:
        yield
    except Exception:
        if not started:
            raise
    finally:
        _started = outer
    if started:  # after the except clause: the failure says what was started, not what it led to
        pytest.fail(f"this test started {', '.join(dict.fromkeys(started))}: {WHY}", pytrace=False)
