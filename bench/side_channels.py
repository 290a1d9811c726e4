"""What is left between two sandboxed partners: timing through the machine's CPU load, measured.

The sandbox closes every channel that carries data (tests/hostile/
test_partner_channels.py). Two processes on one machine can still time each
other: one keeps a CPU busy or leaves it idle, slot by slot, and the other
watches. This runs a sender and a receiver, each in a sandbox of its own as
two bots are, with the referee's own launcher (bubblewrap, else unshare), and
sends random bits at several slot lengths through these channels:

- ``proc-stat``: the receiver reads the machine's idle time in /proc/stat
  (global counters, in 10 ms ticks) at the end of each slot;
- ``own-speed``: both pin themselves to one CPU (sched_setaffinity works in
  the sandbox) and the receiver counts how far its own loop got in the slot;
- ``all-cpus``: the same without pinning; the sender keeps every CPU busy
  (a process per CPU), so the receiver is slowed wherever it runs;
- ``memory``: the sender holds 128 MiB or not, and the receiver reads the
  machine's free memory in /proc/meminfo (global) near the slot's end.

The sandbox keeps /proc's machine-wide CPU counters still and makes pinning
to a CPU a no-op (referee/sandbox/layout.py, seccomp.py): ``--tool off`` runs
the same pairs bare, to show what those two measures take away.

For each it prints the bit error rate and the rate of information that gets
through (bits per second times 1 - H(error rate)), and how long a dealt hand
(about 60 bits: 12 cards of a 48-card deck) would take at that rate. Slots
are aligned to the wall clock, which both sides read.

    python bench/side_channels.py [--bits N] [--tool auto|bwrap|unshare|off]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe  # bench/machine.py

from referee.sandbox import Sandbox, candidates, find, seccomp

HAND_BITS = 60

SENDER = r"""
import os, sys, time
channel, start, slot, bits = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
if channel == "own-speed":
    os.sched_setaffinity(0, {0})
if channel == "all-cpus":  # a process per CPU, each sending the same bits
    for _ in range(len(os.sched_getaffinity(0)) - 1):
        if os.fork() == 0:
            break
for i, bit in enumerate(bits):
    begin, end = start + i * slot, start + (i + 1) * slot
    while time.time() < begin:
        time.sleep(min(0.001, max(0.0, begin - time.time())))
    if channel == "memory":
        if bit == "1":
            block = bytearray(128 << 20)  # 128 MiB
            block[::4096] = b"\1" * (len(block) // 4096)  # each page touched: it takes memory
            time.sleep(max(0.0, end - time.time()))
            del block
        else:
            time.sleep(max(0.0, end - time.time()))
        continue
    if bit == "1":
        while time.time() < end:
            pass
    else:
        time.sleep(max(0.0, end - time.time()))
"""

RECEIVER = r"""
import os, sys, time
channel, start, slot, count = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
if channel == "own-speed":
    os.sched_setaffinity(0, {0})
def idle():
    with open("/proc/stat") as f:
        fields = f.readline().split()
    return int(fields[4]) + int(fields[5])
out = []
while time.time() < start:
    time.sleep(0.0005)
for i in range(count):
    end = start + (i + 1) * slot
    if channel == "proc-stat":
        before = idle()
        time.sleep(max(0.0, end - time.time()))
        out.append(before - idle())  # less idle time: the sender was busy
    elif channel == "memory":
        time.sleep(max(0.0, end - time.time() - slot / 4))
        with open("/proc/meminfo") as f:
            free = next(int(line.split()[1]) for line in f if line.startswith("MemFree:"))
        out.append(-free)  # less memory free: the sender holds a block
    else:
        n = 0
        while time.time() < end:
            n += 1
        out.append(-n)  # a slower loop: the sender was busy
print(" ".join(map(str, out)))
"""


def run_pair(sandbox: Sandbox | None, channel: str, slot: float, bits: str) -> list[int]:
    start = time.time() + 1.5
    common = [channel, f"{start:.6f}", str(slot)]
    procs = []
    fds = []
    for code, last in ((SENDER, bits), (RECEIVER, str(len(bits)))):
        argv = [sys.executable, "-I", "-S", "-c", code, *common, last]
        fd = seccomp.memfd() if sandbox is not None and sandbox.kind == "bwrap" else None
        if sandbox is not None:
            argv = sandbox.wrap(argv, cwd="/", seccomp_fd=fd)
        procs.append(subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, pass_fds=() if fd is None else (fd,)))
        if fd is not None:
            fds.append(fd)
    for fd in fds:
        os.close(fd)
    out, _ = procs[1].communicate(timeout=len(bits) * slot + 60)
    procs[0].wait(timeout=60)
    return [int(v) for v in out.split()]


def decode(values: list[int]) -> str:
    """Bits from the receiver's readings: above the median, a 1 (the sender sent about half ones)."""
    cut = sorted(values)[len(values) // 2]
    return "".join("1" if v > cut else "0" for v in values)


def entropy(p: float) -> float:
    return 0.0 if p in (0.0, 1.0) else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bits", type=int, default=120)
    parser.add_argument("--slots", default="10,20,50,100", help="slot lengths in ms")
    parser.add_argument("--channels", default="proc-stat,own-speed,all-cpus,memory", help="which to measure")
    parser.add_argument(
        "--tool", default="auto", choices=("auto", "bwrap", "unshare", "off"),
        help="the sandbox around each side (auto: as --sandbox auto chooses; off: bare, the control)",
    )  # fmt: skip
    args = parser.parse_args()
    print(describe())
    if args.tool == "off":
        sandbox: Sandbox | None = None
        print(f"no sandbox (the control); {args.bits} random bits per run")
    else:
        found = {s.kind: s for s, _ in candidates() if s is not None}
        sandbox = find()[0] if args.tool == "auto" else found.get(args.tool)
        if sandbox is None:
            raise SystemExit(f"no {args.tool} sandbox here: {[why for _, why in candidates()]}")
        print(f"sandbox: {sandbox.kind}; {args.bits} random bits per run")
    rng = random.Random(7)
    for channel in args.channels.split(","):
        for slot_ms in map(int, args.slots.split(",")):
            bits = "".join(rng.choice("01") for _ in range(args.bits))
            got = decode(run_pair(sandbox, channel, slot_ms / 1000, bits))
            errors = sum(a != b for a, b in zip(bits, got, strict=True)) / len(bits)
            capacity = (1000 / slot_ms) * (1 - entropy(min(errors, 0.5)))
            hand = f"{HAND_BITS / capacity:6.1f} s" if capacity > 0.01 else "   never"
            print(
                f"{channel:10} slot {slot_ms:4d} ms: bit errors {errors:6.1%}, "
                f"{capacity:6.1f} bits/s get through, a hand in {hand}"
            )


if __name__ == "__main__":
    main()
