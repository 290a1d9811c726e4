"""Hostile bot (issue 10, item 9): exits before it connects. ``python sbx_nostart.py``

It prints a few lines of its own and an error naming a missing file, and exits with status 3.
"""

from __future__ import annotations

import sys

print("sbx_nostart: loading weights", file=sys.stderr)
print("FileNotFoundError: sbx_nostart: no such file: weights.bin", file=sys.stderr)
sys.exit(3)
