"""Where the test suite's time goes: each test's wall time and the CPU time it cost, children included.

Runs pytest with the plugin beside it, ``suite_cpu.py`` (each worker in a cpuacct control group of its own, so that
a test's CPU time counts every process it started: bots, sandboxes, Chromium, Ray, compilers), then prints
the run's wall time, the CPU its tests used against what the machine's cores could give in that time, each
worker's busy time, and the files and tests that cost the most CPU. The arguments after ``--`` go to pytest;
without them, the parallel part of ``make test``. ``--read FILE`` prints the figures of a file written before
(``--keep FILE`` keeps one).

    python bench/suite.py                                   # make test's parallel part, two workers
    python bench/suite.py --keep /tmp/suite.jsonl -- -q -m serial
    python bench/suite.py --read /tmp/suite.jsonl --top 40

Run it as root on a machine with cgroup v1's cpuacct (this one): elsewhere the plugin falls back on
``getrusage``, which leaves out processes nobody waited for, and the table says so.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from machine import describe
from rich.console import Console
from rich.markup import escape
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
MAKE_TEST = ["-q", "-n", "2", "--dist", "loadfile", "--no-loadscope-reorder", "-m", "not serial"]


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine has spent not idle since it started (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def run(out: Path, pytest_args: list[str]) -> tuple[float, float, int]:
    """Run pytest into ``out``: its wall time, the machine's busy CPU seconds meanwhile, and its exit status."""
    env = {**os.environ, "ARENA_CPU_PROFILE": str(out)}
    busy, start = machine_busy_seconds(), time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "bench.suite_cpu", *pytest_args], cwd=ROOT, env=env)
    return time.monotonic() - start, machine_busy_seconds() - busy, done.returncode


@dataclass
class Tally:
    """What a worker's or a file's tests took: CPU and wall seconds, and how many tests."""

    cpu: float = 0.0
    wall: float = 0.0
    tests: int = 0

    def add(self, test: dict[str, Any]) -> None:
        self.cpu += test["cpu"]
        self.wall += test["end"] - test["start"]
        self.tests += 1


def summary(path: Path, top: int, console: Console, measured: tuple[float, float] | None) -> None:
    lines = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    if not lines:
        raise SystemExit(f"{path}: no test was recorded")
    first, last = min(t["start"] for t in lines), max(t["end"] for t in lines)
    span = last - first
    wall = sum(t["end"] - t["start"] for t in lines)
    cpu = sum(t["cpu"] for t in lines)
    cores = os.cpu_count() or 1
    whole = all(t["whole"] for t in lines)
    console.print(describe())
    console.print(
        f"{len(lines)} tests in {span:.0f} s (first start to last end); their wall times add up to {wall:.0f} s, "
        f"their CPU to {cpu:.0f} s{'' if whole else ' (waited-for processes only: no cpuacct group)'}: "
        f"{cpu / (span * cores):.0%} of what {cores} cores give in {span:.0f} s"
    )
    if measured is not None:
        elapsed, busy = measured
        console.print(
            f"the machine, over the whole run ({elapsed:.0f} s): {busy:.0f} CPU s busy, {busy / (elapsed * cores):.0%}"
        )
    workers: dict[str, Tally] = defaultdict(Tally)
    files: dict[str, Tally] = defaultdict(Tally)
    for t in lines:
        for tally in (workers[t["worker"]], files[t["test"].split("::", 1)[0]]):
            tally.add(t)
    for name, tally in sorted(workers.items()):
        console.print(f"worker {name}: tests for {tally.wall:.0f} s, {tally.cpu:.0f} CPU s")

    by_file = Table(title=f"the {top} files that cost the most CPU")
    for column in ("CPU s", "share", "wall s", "tests", "file"):
        by_file.add_column(column, justify="left" if column == "file" else "right")
    for name, tally in sorted(files.items(), key=lambda kv: -kv[1].cpu)[:top]:
        by_file.add_row(
            f"{tally.cpu:.1f}", f"{tally.cpu / cpu:.1%}", f"{tally.wall:.1f}", str(tally.tests), escape(name)
        )
    console.print(by_file)

    by_test = Table(title=f"the {top} tests that cost the most CPU")
    for column in ("CPU s", "wall s", "test"):
        by_test.add_column(column, justify="left" if column == "test" else "right")
    for t in sorted(lines, key=lambda t: -t["cpu"])[:top]:
        by_test.add_row(f"{t['cpu']:.1f}", f"{t['end'] - t['start']:.1f}", escape(t["test"]))
    console.print(by_test)


def main() -> int:
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)  # this script's options, then pytest's
    own, pytest_args = argv[:cut], argv[cut + 1 :] if cut < len(argv) else MAKE_TEST
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=25, help="how many files and tests to list (25)")
    parser.add_argument("--keep", type=Path, help="keep the per-test lines in this file")
    parser.add_argument("--read", type=Path, help="print the figures of a file written before; run nothing")
    args = parser.parse_args(own)
    console = Console(width=max(Console().width, 140))
    if args.read is not None:
        if not args.read.is_file():
            parser.error(f"--read {args.read}: no such file")
        summary(args.read, args.top, console, None)
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        out = args.keep or Path(scratch) / "suite.jsonl"
        out.unlink(missing_ok=True)
        elapsed, busy, status = run(out, pytest_args)
        summary(out, args.top, console, (elapsed, busy))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
