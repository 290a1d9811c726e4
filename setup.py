"""The compiled part of bideuchre-arena: the double-dummy solver's extension module (referee/solver).

Everything else about the distribution is in pyproject.toml; setuptools reads
both. The module is C++17 against Python's own C API (no other library), built
with the system's C++ compiler (Debian's g++: the Makefile installs it when it
is missing).
"""

from setuptools import Extension, setup

SOLVER = "referee/solver"

setup(
    ext_modules=[
        Extension(
            "referee.solver._native",
            sources=[f"{SOLVER}/module.cpp", f"{SOLVER}/dds.cpp"],
            depends=[f"{SOLVER}/dds.hpp"],
            language="c++",
            extra_compile_args=["-std=c++17", "-O2", "-fvisibility=hidden"],
            extra_link_args=["-s"],
        )
    ]
)
