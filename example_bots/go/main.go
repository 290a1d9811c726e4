// A Bid Euchre arena bot in Go, written from proto/bideuchre/v1/arena.proto
// and docs/protocol.md alone.
//
// The protocol code is generated from the .proto file when the bot is built
// (protoc with protoc-gen-go and protoc-gen-go-grpc; see README.md) and never
// kept in the repository. The referee starts the bot with ARENA_ADDRESS (a
// gRPC target, dialled as it is: unix:/PATH for its seat's socket, host:port
// against `arena serve`), ARENA_TOKEN (the seat's token) and ARENA_SEED (to
// seed its random choices) in its environment:
//
//	arena match --bot go=example_bots/go/build/bot --bot random='python -m example_bots.random_bot'
//
// The session: Hello first, then one Action per DecisionRequest, until
// Shutdown (exit 0). A fatal Error, or a stream that ends without a Shutdown,
// is exit 1. The choices themselves are in strategy.go.
package main

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"

	"google.golang.org/grpc"

	pb "bideuchre/v1"
)

const (
	botVersion      = "1.0.0"
	protocolVersion = 1
)

// botName is the name of the bot's folder, the one holding build/bot (as arena new names a bot).
var botName = folderName()

func folderName() string {
	exe, err := os.Executable()
	if err != nil {
		return "go"
	}
	return filepath.Base(filepath.Dir(filepath.Dir(exe)))
}

func say(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, botName+": "+format+"\n", args...)
}

// gameRng is the random generator of one game: ARENA_SEED mixed with the game
// id, so a game plays the same whichever games this process played before it.
func gameRng(seed uint64, gameID string) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d:%s", seed, gameID)
	return rand.New(rand.NewSource(int64(h.Sum64())))
}

// arenaSeed is ARENA_SEED (0 .. 2^63-1), or a random seed when it is not set (a bot started by hand).
func arenaSeed() (uint64, error) {
	if text, ok := os.LookupEnv("ARENA_SEED"); ok {
		return strconv.ParseUint(text, 10, 64)
	}
	var b [8]byte
	_, err := crand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]), err
}

func main() { os.Exit(run()) }

func run() int {
	address, token := os.Getenv("ARENA_ADDRESS"), os.Getenv("ARENA_TOKEN")
	if address == "" || token == "" {
		say("set ARENA_ADDRESS (the referee's gRPC target: unix:/PATH or host:port) and ARENA_TOKEN (the seat token); `arena serve` prints both")
		return 2
	}
	seed, err := arenaSeed()
	if err != nil {
		say("ARENA_SEED is not an integer from 0 to 2^63-1: %v", err)
		return 2
	}

	// Plain HTTP/2, no TLS; the target is dialled as it is (grpc-go knows unix:).
	conn, err := grpc.Dial(address, grpc.WithInsecure())
	if err != nil {
		say("cannot dial %s: %v", address, err)
		return 1
	}
	defer conn.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, err := pb.NewArenaClient(conn).Play(ctx) // the one bidirectional stream of the session
	if err != nil {
		say("cannot open the stream to %s: %v", address, err)
		return 1
	}
	hello := &pb.Hello{Token: token, BotName: botName, BotVersion: botVersion, ProtocolVersion: protocolVersion}
	if err := stream.Send(&pb.BotMessage{Message: &pb.BotMessage_Hello{Hello: hello}}); err != nil {
		say("cannot send the Hello to %s: %v", address, err)
		return 1
	}

	var game *Game
	answered := map[string]int{} // decisions answered, by kind, for the goodbye line
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			say("the referee closed the stream without a Shutdown")
			return 1
		}
		if err != nil {
			say("the stream to %s failed: %v", address, err)
			return 1
		}
		switch m := msg.GetMessage().(type) {
		case *pb.RefereeMessage_Welcome:
			say("playing as %s (referee %s)", m.Welcome.GetPlayer(), m.Welcome.GetRefereeVersion())
		case *pb.RefereeMessage_GameStart:
			// Everything kept per game starts afresh here; the process may play another seat next game.
			game = NewGame(m.GameStart, gameRng(seed, m.GameStart.GetGameId()))
		case *pb.RefereeMessage_Decision:
			if game == nil {
				say("a request before any GameStart")
				return 1
			}
			action := Decide(m.Decision, game)
			if err := stream.Send(&pb.BotMessage{Message: &pb.BotMessage_Action{Action: action}}); err != nil {
				say("cannot answer request %d: %v", m.Decision.GetRequestId(), err)
				return 1
			}
			answered[m.Decision.GetKind().String()]++
		case *pb.RefereeMessage_GameOver:
			game = nil
		case *pb.RefereeMessage_Error:
			e := m.Error
			say("referee error %s (request %d): %s", e.GetCode(), e.GetRequestId(), e.GetMessage())
			if e.GetFatal() {
				return 1
			}
		case *pb.RefereeMessage_Shutdown:
			say("shutdown (%s); answered %v", m.Shutdown.GetReason(), answered)
			// Half-close our side; the referee then ends the stream with status OK.
			if err := stream.CloseSend(); err != nil {
				say("cannot half-close the stream: %v", err)
			}
			if _, err := stream.Recv(); err != io.EOF {
				say("the stream did not end OK after the Shutdown: %v", err)
			}
			return 0
		default:
			say("ignoring an unknown message %v", msg)
		}
	}
}
