// The card sense of the Go bot: one function per decision kind, each returning
// a legal answer chosen by a short rule of thumb (the JavaScript bot's rules,
// example_bots/js/strategy.js). Nothing here knows about gRPC beyond the
// generated message types it reads.
//
// Cards are text ("JH"): rank then suit, ranks 7 8 9 T J Q K A, suits S H D C.
// Trump is a suit (0..3 for S H D C), high (no trump) or low (no trump, the
// lowest rank wins).

package main

import (
	"math"
	"math/rand"
	"sort"
	"strconv"
	"strings"

	pb "bideuchre/v1"
)

const (
	ranks = "789TJQKA"
	suits = "SHDC"
	high  = 4 // no trump, ace high
	low   = 5 // no trump, ranks reversed
	jack  = 4 // strings.IndexByte(ranks, 'J')
	king  = 6
	ace   = 7
)

// The lowest rank of each deck (the `deck` rule option).
var deckLowestRank = map[string]byte{
	"single-24": '9',
	"single-28": '8',
	"single-32": '7',
	"double-32": 'J',
	"double-40": 'T',
	"double-48": '9',
	"triple-60": 'T',
}

// Game is what GameStart said about the current game, and its random generator.
type Game struct {
	Seat      int
	Players   int
	Teams     int
	CardsEach int
	Rules     map[string]string
	Rng       *rand.Rand
}

// NewGame keeps what the strategy needs from GameStart; rng is seeded per game.
func NewGame(start *pb.GameStart, rng *rand.Rand) *Game {
	return &Game{
		Seat:      int(start.GetSeat()),
		Players:   int(start.GetPlayers()),
		Teams:     int(start.GetTeams()),
		CardsEach: int(start.GetCardsEach()),
		Rules:     start.GetRules(),
		Rng:       rng,
	}
}

func rankOf(card string) int { return strings.IndexByte(ranks, card[0]) }
func suitOf(card string) int { return strings.IndexByte(suits, card[1]) }

// sameColour: S<->C and H<->D, the suit whose jack is the left bower.
func sameColour(suit int) int { return 3 - suit }

// trumpIndex maps the Trump enum to 0..3 for the suits S H D C, 4 for high, 5 for low.
func trumpIndex(t pb.Trump) int { return int(t) - int(pb.Trump_TRUMP_SPADES) }

// effectiveSuit is the suit a card counts as: under a suit trump the left bower is a trump.
func effectiveSuit(card string, trump int) int {
	if trump <= 3 && rankOf(card) == jack && suitOf(card) == sameColour(trump) {
		return trump
	}
	return suitOf(card)
}

// power is how strong a card is under trump: trumps score 100 and up (right
// bower 121, left bower 120) and beat everything else; other cards score their
// rank, reversed when trump is low. Only comparable within one effective suit
// or against trumps, as in a trick.
func power(card string, trump int) int {
	suit, rank := suitOf(card), rankOf(card)
	if trump <= 3 {
		switch {
		case rank == jack && suit == trump:
			return 121
		case rank == jack && suit == sameColour(trump):
			return 120
		case suit == trump:
			return 100 + rank
		}
		return rank
	}
	if trump == low {
		return 7 - rank
	}
	return rank
}

// trickKey is the score of card in a trick led in suit led: -1 when it cannot win.
func trickKey(card string, led, trump int) int {
	eff := effectiveSuit(card, trump)
	if eff == led || (trump <= 3 && eff == trump) {
		return power(card, trump)
	}
	return -1
}

// winningIndex is the index of the card winning cards (led by cards[0]); of identical cards the earlier wins.
func winningIndex(cards []string, trump int) int {
	led := effectiveSuit(cards[0], trump)
	best := 0
	for i := 1; i < len(cards); i++ {
		if trickKey(cards[i], led, trump) > trickKey(cards[best], led, trump) {
			best = i
		}
	}
	return best
}

// handTricks is how many tricks the hand might take on its own with trump:
// each trump, each off-suit ace under a suit or high, half a trick for a king
// under high, and under low each card of the deck's lowest two ranks.
func handTricks(hand []string, trump int, game *Game) float64 {
	lowestRank, ok := deckLowestRank[game.Rules["deck"]]
	if !ok {
		lowestRank = '9'
	}
	lowest := strings.IndexByte(ranks, lowestRank)
	tricks := 0.0
	for _, card := range hand {
		rank := rankOf(card)
		switch {
		case trump <= 3:
			if power(card, trump) >= 100 || rank == ace {
				tricks++
			}
		case trump == high:
			if rank == ace {
				tricks++
			} else if rank == king {
				tricks += 0.5
			}
		case rank <= lowest+1:
			tricks++
		}
	}
	return tricks
}

// partnerTricks is what the partners can be counted on for: half their fair share.
func partnerTricks(game *Game) float64 {
	partners := game.Players/game.Teams - 1
	return float64(partners*game.CardsEach) / float64(game.Players) / 2
}

// trumpsFor lists the trumps a bid may end up in: its own, or (named after the auction) any the rules allow.
func trumpsFor(bid *pb.Bid, game *Game) []int {
	if bid.GetTrump() != pb.Trump_TRUMP_UNSPECIFIED {
		return []int{trumpIndex(bid.GetTrump())}
	}
	choices := []int{0, 1, 2, 3}
	switch game.Rules["notrump"] {
	case "high":
		choices = append(choices, high)
	case "high-low":
		choices = append(choices, high, low)
	}
	return choices
}

// specialNeeds is how many tricks of its own a special bid needs before its
// exchange (each card received counts as a trick), allowing one loser;
// +Inf: never bid it.
func specialNeeds(kind pb.BidKind, game *Game) float64 {
	n := float64(game.CardsEach)
	switch kind {
	case pb.BidKind_BID_KIND_CALL3:
		return n - 4
	case pb.BidKind_BID_KIND_CALL2:
		return n - 3
	case pb.BidKind_BID_KIND_CALL1:
		return n - 2
	case pb.BidKind_BID_KIND_BEST:
		return n - 1 - float64(game.Players/game.Teams-1)
	case pb.BidKind_BID_KIND_ALONE:
		k, _ := strconv.Atoi(game.Rules["alone_exchange_cards"])
		return n - 1 - float64(k)
	case pb.BidKind_BID_KIND_MOON:
		return n // no exchange and no loser allowed
	case pb.BidKind_BID_KIND_LITTLE_PEPPER:
		return n - partnerTricks(game)
	}
	return math.Inf(1) // big pepper: doubling a bid nobody can count on
}

// bestOf is the item of items with the highest score; ties broken by rng.
func bestOf[T any](items []T, score func(T) float64, rng *rand.Rand) T {
	top := math.Inf(-1)
	var tied []T
	for _, item := range items {
		s := score(item)
		if s > top {
			top, tied = s, []T{item}
		} else if s == top {
			tied = append(tied, item)
		}
	}
	return tied[rng.Intn(len(tied))]
}

func sameLevel(a, b *pb.Bid) bool { return a.GetKind() == b.GetKind() && a.GetLevel() == b.GetLevel() }

// chooseBid is the cheapest bid the hand can make. A trick bid of level L is
// worth making when the hand (with the partners' share) is good for L tricks
// in its trump; a special bid when the hand alone is good for what it needs.
// With neither, pass (the stuck dealer, who may not pass, takes the cheapest bid).
func chooseBid(request *pb.DecisionRequest, game *Game) *pb.Bid {
	legal := request.GetLegalBids()
	hand := request.GetHand()
	estimate := func(bid *pb.Bid, help float64) float64 {
		most := math.Inf(-1)
		for _, t := range trumpsFor(bid, game) {
			most = math.Max(most, handTricks(hand, t, game)+help)
		}
		return most
	}
	alone := func(bid *pb.Bid) float64 { return estimate(bid, 0) }
	var makeable []*pb.Bid
	for _, bid := range legal {
		switch bid.GetKind() {
		case pb.BidKind_BID_KIND_PASS:
		case pb.BidKind_BID_KIND_LEVEL:
			if float64(bid.GetLevel()) <= estimate(bid, partnerTricks(game)) {
				makeable = append(makeable, bid)
			}
		default:
			if specialNeeds(bid.GetKind(), game) <= estimate(bid, 0) {
				makeable = append(makeable, bid)
			}
		}
	}
	cheapest := func(bids []*pb.Bid) []*pb.Bid { // legal_bids runs lowest first
		var out []*pb.Bid
		for _, bid := range bids {
			if sameLevel(bid, bids[0]) {
				out = append(out, bid)
			}
		}
		return out
	}
	if len(makeable) > 0 {
		return bestOf(cheapest(makeable), alone, game.Rng)
	}
	for _, bid := range legal {
		if bid.GetKind() == pb.BidKind_BID_KIND_PASS {
			return bid
		}
	}
	return bestOf(cheapest(legal), alone, game.Rng)
}

// chooseTrump is the legal trump the hand is strongest in.
func chooseTrump(request *pb.DecisionRequest, game *Game) pb.Trump {
	return bestOf(request.GetLegalTrumps(), func(t pb.Trump) float64 {
		return handTricks(request.GetHand(), trumpIndex(t), game)
	}, game.Rng)
}

// weakestFirst orders the hand's cards from weakest to strongest under trump (duplicates kept).
func weakestFirst(hand []string, trump int) []string {
	order := append([]string(nil), hand...)
	sort.SliceStable(order, func(i, j int) bool { return power(order[i], trump) < power(order[j], trump) })
	return order
}

func contractTrump(request *pb.DecisionRequest) int {
	if request.GetContract() == nil {
		return high
	}
	return trumpIndex(request.GetContract().GetTrump())
}

// chooseGive: to the declarer (this seat is the partner of a lone bidder), the
// strongest cards; from the declarer to its partner (an alone exchange), the weakest.
func chooseGive(request *pb.DecisionRequest) []string {
	order := weakestFirst(request.GetHand(), contractTrump(request))
	count := int(request.GetCount())
	if c := request.GetContract(); c != nil && c.GetDeclarer() == request.GetToSeat() {
		return order[len(order)-count:]
	}
	return order[:count]
}

// chooseDiscard: the weakest cards.
func chooseDiscard(request *pb.DecisionRequest) []string {
	return weakestFirst(request.GetHand(), contractTrump(request))[:request.GetCount()]
}

// choosePlay leads the strongest card; when following, it plays low if a
// partner is winning the trick, else the cheapest card that takes the lead,
// else the weakest card.
func choosePlay(request *pb.DecisionRequest, game *Game) string {
	trump := contractTrump(request)
	legal := request.GetLegalCards()
	trick := request.GetCurrentTrick()
	strongest := func(card string) float64 { return float64(power(card, trump)) }
	weakest := func(cards []string) string {
		return bestOf(cards, func(card string) float64 { return -strongest(card) }, game.Rng)
	}
	if len(trick) == 0 {
		return bestOf(legal, strongest, game.Rng)
	}
	played := make([]string, len(trick))
	for i, p := range trick {
		played[i] = p.GetCard()
	}
	winner := trick[winningIndex(played, trump)]
	if int(winner.GetSeat())%game.Teams == game.Seat%game.Teams {
		return weakest(legal)
	}
	led := effectiveSuit(played[0], trump)
	toBeat := trickKey(winner.GetCard(), led, trump)
	var winners []string
	for _, card := range legal {
		if trickKey(card, led, trump) > toBeat {
			winners = append(winners, card)
		}
	}
	if len(winners) > 0 {
		return weakest(winners)
	}
	return weakest(legal)
}

// Decide answers one DecisionRequest: the Action naming its request id, with
// exactly the field its kind asks for.
func Decide(request *pb.DecisionRequest, game *Game) *pb.Action {
	action := &pb.Action{RequestId: request.GetRequestId()}
	switch request.GetKind() {
	case pb.DecisionKind_DECISION_KIND_BID:
		action.Choice = &pb.Action_Bid{Bid: chooseBid(request, game)}
	case pb.DecisionKind_DECISION_KIND_TRUMP:
		action.Choice = &pb.Action_Trump{Trump: chooseTrump(request, game)}
	case pb.DecisionKind_DECISION_KIND_GIVE:
		action.Choice = &pb.Action_Cards{Cards: &pb.CardList{Cards: chooseGive(request)}}
	case pb.DecisionKind_DECISION_KIND_DISCARD:
		action.Choice = &pb.Action_Cards{Cards: &pb.CardList{Cards: chooseDiscard(request)}}
	case pb.DecisionKind_DECISION_KIND_PLAY:
		action.Choice = &pb.Action_Card{Card: choosePlay(request, game)}
	}
	return action
}
