"""Settings for the whole suite."""

from __future__ import annotations

import signal

import pytest

# The helpers every test folder shares (tests/support) fail with pytest's own account of a failed assert,
# as a test does: their asserts are rewritten when they are imported, which is after this file.
pytest.register_assert_rewrite("tests.support")

# A suite started in the background by a non-interactive shell (`nohup make test &`) inherits
# SIGINT ignored, and every referee, tournament and bot it starts would inherit that too: the
# Ctrl-C tests need the signal delivered. A handler (not SIG_IGN) becomes the default in a child.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
