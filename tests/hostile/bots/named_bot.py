"""The random example bot under the name in $BOT_NAME (markup, control codes ...), said in its Hello."""

from __future__ import annotations

import os

import sdk.runner
from example_bots.random_bot import RandomBot


class Named(RandomBot):
    name = os.environ["BOT_NAME"]


if __name__ == "__main__":
    sdk.runner.run(Named())
