"""What every benchmark prints about where it ran, the CPU-time reading they share, and their preset arguments.

Imported by the scripts beside it (``from machine import ...``): each runs as
a plain script from a checkout, so this folder is on ``sys.path``.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
from pathlib import Path


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def describe(*, grpc: bool = False, load: bool = True) -> str:
    """CPU model and count, Python, optionally grpcio's version, and the load average."""
    parts = [
        f"{cpu_model()}, {os.cpu_count()} logical CPUs; "
        f"{platform.python_implementation()} {platform.python_version()} on {platform.system()} {platform.release()}"
    ]
    if grpc:
        import grpc as grpc_module

        parts.append(f"grpcio {grpc_module.__version__}")
    if load and hasattr(os, "getloadavg"):
        parts.append("load average " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    return "; ".join(parts)


def cpu_seconds(who: int = resource.RUSAGE_SELF) -> float:
    """User + system CPU seconds of this process (or of its waited-for children)."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def chosen_presets(parser: argparse.ArgumentParser, names: list[str]) -> list[str]:
    """The presets named on a benchmark's command line (all of them when none is); an unknown one is a usage error."""
    from referee.engine.presets import PRESETS

    unknown = [n for n in names if n not in PRESETS]
    if unknown:
        parser.error(f"unknown preset(s) {', '.join(unknown)}; presets: {', '.join(PRESETS)}")
    return names or list(PRESETS)
