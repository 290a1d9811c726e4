"""Builds bideuchre-sdk from the checkout around this folder (pyproject.toml beside this file says what it is).

setuptools takes packages from inside the project only, so the files that
pyproject.toml's ``[tool.bideuchre-sdk] ship`` names are first copied, as they
are, into ``build/ship/`` here (``build/`` emptied first); the wheel is built
from that copy. The
double-dummy solver's extension module is compiled from the copy too, as an
optional extension: where no C++ compiler works, setuptools says so in its
log ("building extension ... failed") and the wheel goes without it.
"""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from setuptools import Extension, find_packages, setup

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent
BUILD = HERE / "build"  # setuptools' own build folder too: emptied, so no module built before is taken again
SHIP = BUILD / "ship"


def ship() -> None:
    """A fresh copy of every shipped file, Python sources and the solver's C++ (no caches, no built module)."""
    table = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))
    shutil.rmtree(BUILD, ignore_errors=True)
    for name in table["tool"]["bideuchre-sdk"]["ship"]:
        source, target = CHECKOUT / name, SHIP / name
        if source.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyc")
            shutil.copytree(source, target, ignore=ignore)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


ship()
setup(
    package_dir={"": "build/ship"},
    packages=find_packages(where=str(SHIP)),
    package_data={"referee.solver": ["*.pyi"]},
    ext_modules=[
        Extension(
            "referee.solver._native",
            sources=["build/ship/referee/solver/module.cpp", "build/ship/referee/solver/dds.cpp"],
            depends=["build/ship/referee/solver/dds.hpp"],
            language="c++",
            extra_compile_args=["-std=c++17", "-O2", "-fvisibility=hidden"],
            extra_link_args=["-s"],
            optional=True,  # no compiler: the wheel without it (referee.solver.available() is false)
        )
    ],
)
