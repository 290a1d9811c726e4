"""The ``arena`` command line. Each command lives in its own module."""

from referee.cli import demo, match, presets, replay, serve  # noqa: F401  (registers the commands)
from referee.cli.app import app


def main() -> None:
    app()
