#!/bin/sh
# A bot's first test: `arena check-bot` puts the built bot through every kind of decision on every preset,
# a whole game of two hands, and the protocol's Hello, Error, restart and Shutdown. Run by `make test`, which
# builds build/bot first; ARENA names the arena command. Exit status 0 when every check passes.
cd "$(dirname "$0")" || exit 2
exec "${ARENA:-arena}" check-bot --log-dir build/check-bot "$(basename "$PWD")=build/bot"
