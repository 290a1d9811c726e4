package main

import (
	"math/rand"
	"testing"

	pb "bideuchre/v1"
)

func TestTheBowersAreTheHighestTrumps(t *testing.T) {
	hearts := trumpIndex(pb.Trump_TRUMP_HEARTS)
	// the jack of diamonds is the left bower under hearts: a heart, above the ace of hearts
	if effectiveSuit("JD", hearts) != hearts {
		t.Fatalf("JD under hearts counts as suit %d", effectiveSuit("JD", hearts))
	}
	if !(power("JH", hearts) > power("JD", hearts) && power("JD", hearts) > power("AH", hearts)) {
		t.Fatal("expected JH > JD > AH under hearts")
	}
	// a trump beats the ace of the suit led; off-suit cards cannot win
	if got := winningIndex([]string{"AS", "9H", "KS"}, hearts); got != 1 {
		t.Fatalf("winner of AS 9H KS under hearts: %d, want 1", got)
	}
	if got := winningIndex([]string{"9S", "AC"}, hearts); got != 0 {
		t.Fatalf("winner of 9S AC under hearts: %d, want 0", got)
	}
}

func TestLowReversesTheRanks(t *testing.T) {
	if got := winningIndex([]string{"AS", "9S", "KS"}, low); got != 1 {
		t.Fatalf("winner of AS 9S KS in low: %d, want 1", got)
	}
	if got := winningIndex([]string{"AS", "9S", "KS"}, high); got != 0 {
		t.Fatalf("winner of AS 9S KS in high: %d, want 0", got)
	}
}

func TestPlayTakesTheTrickAsCheaplyAsItCan(t *testing.T) {
	game := &Game{Seat: 1, Players: 4, Teams: 2, CardsEach: 6, Rules: map[string]string{}, Rng: rand.New(rand.NewSource(1))}
	request := &pb.DecisionRequest{
		Kind:         pb.DecisionKind_DECISION_KIND_PLAY,
		Contract:     &pb.Contract{Trump: pb.Trump_TRUMP_SPADES},
		CurrentTrick: []*pb.Play{{Seat: 0, Card: "QH"}},
		LegalCards:   []string{"KH", "AH", "9H"},
	}
	if got := choosePlay(request, game); got != "KH" {
		t.Fatalf("against QH led by an opponent it played %s, want KH", got)
	}
	request.CurrentTrick = []*pb.Play{{Seat: 3, Card: "QH"}} // seat 3 is a partner of seat 1
	if got := choosePlay(request, game); got != "9H" {
		t.Fatalf("with its partner winning it played %s, want 9H", got)
	}
}

func TestBidIsTheCheapestMakeableOrPass(t *testing.T) {
	game := &Game{Seat: 0, Players: 4, Teams: 2, CardsEach: 6, Rules: map[string]string{"deck": "single-24", "notrump": "none"}, Rng: rand.New(rand.NewSource(1))}
	pass := &pb.Bid{Kind: pb.BidKind_BID_KIND_PASS}
	three := &pb.Bid{Kind: pb.BidKind_BID_KIND_LEVEL, Level: 3, Trump: pb.Trump_TRUMP_SPADES}
	six := &pb.Bid{Kind: pb.BidKind_BID_KIND_LEVEL, Level: 6, Trump: pb.Trump_TRUMP_SPADES}
	request := &pb.DecisionRequest{Hand: []string{"JS", "JC", "AS", "9H", "TD", "9C"}, LegalBids: []*pb.Bid{pass, three, six}}
	if got := chooseBid(request, game); got != three {
		t.Fatalf("three trumps and a partner bid %v, want 3 S", got)
	}
	request.Hand = []string{"9S", "TH", "9H", "TD", "9D", "TC"}
	if got := chooseBid(request, game); got != pass {
		t.Fatalf("a hand with nothing bid %v, want pass", got)
	}
}
