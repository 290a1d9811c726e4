"""The ``arena`` command line. Each command lives in its own module."""

from referee.cli import demo, presets, replay  # noqa: F401  (registers the commands)
from referee.cli.app import app


def main() -> None:
    app()
