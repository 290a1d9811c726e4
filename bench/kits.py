"""The first build of each compiled starter: how long ``make`` takes in a folder ``arena new`` just wrote.

For each kit that compiles (C++, Go, Java; or those named), writes a starter with ``arena new`` in a
temporary folder and builds it from nothing with its own Makefile, once a job at a time (``make -j1``) and
once as it comes (the C++ Makefile compiles a file per core), and prints the wall time and the CPU time of
make and everything it ran. Go's build cache is emptied first (GOCACHE in the folder), so its figure is a
first build too.

    python bench/kits.py [cpp go java]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe  # bench/machine.py

ARENA = Path(sys.executable).parent / "arena"
COMPILED = ("cpp", "go", "java")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class NoStarter(Exception):
    """arena new could not write the starter (its toolchain is missing): its one line says why."""


def first_build(language: str, jobs: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``make`` in a new starter of ``language``."""
    with tempfile.TemporaryDirectory(prefix=f"bench-{language}-") as tmp:
        folder = Path(tmp) / "mybot"
        new = subprocess.run([str(ARENA), "new", str(folder), "--lang", language], capture_output=True, text=True)
        if new.returncode != 0:
            raise NoStarter(new.stderr.strip())
        env = {**os.environ, "GOCACHE": str(Path(tmp) / "gocache")}
        cpu = children_cpu()
        start = time.perf_counter()
        subprocess.run(["make", *jobs, "-C", str(folder)], check=True, capture_output=True, env=env)
        return time.perf_counter() - start, children_cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kits", nargs="*", metavar="KIT", help=f"of {', '.join(COMPILED)} (default: all)")
    kits = parser.parse_args().kits or list(COMPILED)
    unknown = sorted(set(kits) - set(COMPILED))
    if unknown:
        parser.error(f"no compiled kit {unknown[0]!r}: choose from {', '.join(COMPILED)}")
    if shutil.which("make") is None:
        raise SystemExit("make is not on the PATH")
    print(describe())
    print(f"{'kit':<6} {'make -j1 (s)':>13} {'CPU (s)':>8} {'make (s)':>9} {'CPU (s)':>8}")
    for kit in kits:
        try:
            serial, serial_cpu = first_build(kit, ["-j1"])
            default, default_cpu = first_build(kit, [])
        except NoStarter as exc:
            print(f"{kit:<6} not measured: {exc}")
            continue
        print(f"{kit:<6} {serial:>13.1f} {serial_cpu:>8.1f} {default:>9.1f} {default_cpu:>8.1f}")
    print(describe())  # the load again: it may have changed while the builds ran


if __name__ == "__main__":
    main()
