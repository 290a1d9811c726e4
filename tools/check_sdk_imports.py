"""Import every module that bideuchre-sdk ships and say what else came in; exit 1 if anything should not have.

    python tools/check_sdk_imports.py          # the arena's venv (everything installed): what the SDK reaches for
    SLIM/bin/python -I tools/check_sdk_imports.py   # a venv with only bideuchre-sdk: that it is all there

The modules are the ones sdk-dist/pyproject.toml puts in the wheel (its ``[tool.bideuchre-sdk] ship`` list),
and the solver's compiled module where it was built. After importing them all (grpc and protobuf first, as the
baseline), every module loaded must be the standard library's, grpc's or protobuf's, or one of those shipped
modules: an import of ``referee.logging``, structlog, typer, rich or aiohttp (or of any other arena module the
wheel leaves out) fails the check, whether or not it is installed. Prints one line per offending module (with
the file it came from), or one line saying all is well.
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "sdk-dist" / "pyproject.toml"
DEPENDENCIES = ("grpc", "google")  # grpcio, protobuf (google.protobuf)
ARENA = ("referee", "sdk", "example_bots")
COMPILED = ("referee.solver._native",)  # built into the wheel where a C++ compiler worked (sdk-dist/setup.py)


def shipped_modules(pyproject: Path = PYPROJECT) -> list[str]:
    """The dotted names of the Python modules the wheel holds (its ``[tool.bideuchre-sdk] ship`` list: files and
    folders of the checkout, at the same paths in the wheel); the solver's compiled module is not one of them."""
    table = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    checkout = pyproject.parent.parent
    names: list[str] = []
    for shipped in table["tool"]["bideuchre-sdk"]["ship"]:
        source = checkout / shipped
        for path in sorted(source.rglob("*.py")) if source.is_dir() else [source]:
            in_wheel = path.relative_to(checkout)
            if in_wheel.suffix != ".py" or "__pycache__" in in_wheel.parts:
                continue
            parts = in_wheel.with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return sorted(set(names))


def top(name: str) -> str:
    return name.partition(".")[0]


def check(modules: list[str]) -> list[str]:
    """Import ``modules``; the problems found, one line each (none: all is well)."""
    before = set(sys.modules)
    for dependency in ("grpc", "google.protobuf"):
        importlib.import_module(dependency)  # grpc brings along what it finds installed (grpc_health ...)
    baseline = set(sys.modules)
    problems = [f"{name}: imported before the check started" for name in sorted(before) if top(name) in ARENA]
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            problems.append(f"{name}: cannot be imported: {exc}")
    allowed = set(sys.stdlib_module_names) | set(DEPENDENCIES) | {"__main__", "__mp_main__"}  # the script itself
    shipped = set(modules) | set(COMPILED)
    foreign: dict[str, int] = {}  # a package from elsewhere: how many of its modules came in
    for name in sorted(set(sys.modules) - baseline):
        if top(name) in ARENA:
            if name not in shipped:
                problems.append(f"{name}: an arena module the wheel does not ship{_origin(name)}")
        elif top(name) not in allowed:
            foreign[top(name)] = foreign.get(top(name), 0) + 1
    for package, count in foreign.items():
        problems.append(
            f"{package}: neither the standard library, grpc nor protobuf ({count} modules){_origin(package)}"
        )
    return problems


def _origin(name: str) -> str:
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None)
    return f", from {path}" if path else ""


def main() -> int:
    modules = shipped_modules()
    problems = check(modules)
    for line in problems:
        print(line)
    if problems:
        return 1
    print(f"{len(modules)} modules of bideuchre-sdk import with the standard library, grpc and protobuf alone")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
