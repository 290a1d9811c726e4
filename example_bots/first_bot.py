"""``first``: the SDK's default at every decision, answered at once (``python -m example_bots.first_bot``).

The smallest possible bot; the referee benchmark uses it to measure the
arena's own cost per decision.
"""

from sdk import Bot, run


class FirstBot(Bot):
    name = "first"
    version = "1"


if __name__ == "__main__":
    run(FirstBot())
