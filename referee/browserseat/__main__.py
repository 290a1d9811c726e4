"""``python -m referee.browserseat``: the browser table's client, started by ``arena play --browser``.

It reads ARENA_ADDRESS and ARENA_TOKEN (or ``--address`` / ``--token``) as any bot does, serves the page
on 127.0.0.1 (``--port``), prints its address, and plays the seat until the person leaves. Exit status 0
when the match ended first, 1 when the person left before (the page was closed), 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from referee.browserseat.advice import AdviceBudget
from referee.browserseat.client import serve_table
from referee.browserseat.deal import Others
from referee.logging import configure
from referee.play.levels import LEVELS
from referee.play.settings import Features
from referee.webserve import ServeError


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m referee.browserseat", description=__doc__.splitlines()[0])
    parser.add_argument("--address", default=os.environ.get("ARENA_ADDRESS"), help="the referee (ARENA_ADDRESS)")
    parser.add_argument("--token", default=os.environ.get("ARENA_TOKEN"), help="the seat's token (ARENA_TOKEN)")
    parser.add_argument("--port", type=int, default=0, help="the page's port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--features", default=Features().to_json(), help="the learning features, as JSON")
    parser.add_argument("--log", type=Path, default=None, help="the match's log (for the replays and analysis)")
    parser.add_argument(
        "--others",
        type=int,
        default=None,
        choices=sorted(LEVELS),
        help="the level of the bots at the other seats (the deal played again by the strongest level needs it)",
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if not args.address or not args.token:
        parser.error("no referee address or seat token: set ARENA_ADDRESS and ARENA_TOKEN")
    if not 0 <= args.port <= 65535:
        parser.error(f"--port {args.port}: a port is 0..65535")
    try:
        features = Features.from_json(args.features)
    except ValueError as exc:
        parser.error(f"--features: {exc}")
    configure("warning")

    def say(line: str) -> None:
        print(line, flush=True)

    try:
        why = asyncio.run(
            serve_table(
                args.address,
                args.token,
                features,
                AdviceBudget(),
                port=args.port,
                log_path=args.log,
                others=None if args.others is None else Others(args.others),
                say=say,
            )
        )
    except ServeError as exc:
        say(f"error: {exc}")
        os._exit(1)
    except KeyboardInterrupt:
        os._exit(130)
    if why is not None:
        say(why)
    sys.stdout.flush()
    # the seat's session may still wait on the referee in its thread: end the process now, the referee sees it go
    os._exit(0 if why is None else 1)


if __name__ == "__main__":
    main()
