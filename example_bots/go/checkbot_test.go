package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestCheckBot is a bot's first test: `arena check-bot` puts the built bot through every kind of
// decision on every preset, a whole game of two hands, and the protocol's Hello, Error, restart and
// Shutdown. ARENA names the arena command (`make test` sets it); build/bot is built first (`make test`
// does).
func TestCheckBot(t *testing.T) {
	arena := os.Getenv("ARENA")
	if arena == "" {
		arena = "arena"
	}
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	bot := filepath.Base(here) + "=build/bot" // NAME=COMMAND, run from this folder
	out, err := exec.Command(arena, "check-bot", "--log-dir", "build/check-bot", bot).CombinedOutput()
	if err != nil {
		t.Fatalf("%s check-bot %s: %v\n%s", arena, bot, err, out)
	}
}
