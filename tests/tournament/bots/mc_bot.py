"""The example Monte Carlo bot, searching for SHARE of every decision's time limit: ``python mc_bot.py SHARE``.

(It keeps its own safety reserve: at 100 ms a decision and SHARE 0.9 it
searches for 75 ms.)
"""

from __future__ import annotations

import sys

from example_bots.montecarlo_bot import MonteCarloBot
from sdk import run

if __name__ == "__main__":
    run(MonteCarloBot(time_share=float(sys.argv[1])), [])
