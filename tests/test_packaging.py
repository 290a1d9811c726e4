"""pyproject.toml: the licence in the SPDX form, with a setuptools that reads it (no deprecation warning)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_the_license_is_an_spdx_expression_and_setuptools_is_new_enough_for_it() -> None:
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"  # a table ({text = ...}) is deprecated by setuptools 77
    assert not any(c.startswith("License ::") for c in project["project"].get("classifiers", []))
    [setuptools] = [r for r in project["build-system"]["requires"] if r.startswith("setuptools")]
    found = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", setuptools)
    assert found is not None and int(found[1]) >= 77, setuptools  # 77.0 reads SPDX licence strings
