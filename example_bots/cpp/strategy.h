// The card sense of the C++ bot: the cards and trumps as the rules read them, and one function per decision
// kind, each returning a legal answer chosen by a short rule of thumb (strategy.cc; ties go to the first
// card or trump in order). Nothing here knows about gRPC beyond the generated message types it reads.
//
// Cards are text ("JH"): rank then suit, ranks 7 8 9 T J Q K A, suits S H D C. A trump is a suit (0..3 for
// S H D C), kHigh (no trump, ace high) or kLow (no trump, the lowest rank wins).

#ifndef BIDEUCHRE_STRATEGY_H
#define BIDEUCHRE_STRATEGY_H

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "bideuchre/v1/arena.pb.h"

namespace strategy {

namespace v1 = bideuchre::v1;

constexpr int kHigh = 4;  // no trump, ace high
constexpr int kLow = 5;   // no trump, ranks reversed

// What GameStart said about the current game.
struct Game {
  int seat = 0;
  int players = 4;
  int teams = 2;
  int cards_each = 8;
  std::map<std::string, std::string> rules;  // rule option -> value in its text form (docs/rules.md)
};

Game game_of(const v1::GameStart& start);

// ------------------------------------------------------------------ cards and trumps

int rank_of(const std::string& card);  // 0 (7) .. 7 (A)
int suit_of(const std::string& card);  // 0 .. 3: S H D C
int trump_index(v1::Trump trump);       // 0 .. 3 for the suits, kHigh, kLow

// The suit a card counts as: under a suit trump the left bower (the other jack of its colour) is a trump.
int effective_suit(const std::string& card, int trump);

// How strong a card is under `trump`: trumps score 100 and up (right bower 121, left bower 120) and beat
// everything else; other cards score their rank, reversed under kLow. Only comparable within one effective
// suit or against trumps, as in a trick.
int power(const std::string& card, int trump);

// The index of the card winning `cards` (led by cards[0]); of identical cards the earlier wins.
std::size_t winning_index(const std::vector<std::string>& cards, int trump);

// Tricks `hand` might take by itself with `trump`: each trump and off-suit ace under a suit; each ace and
// half a trick per king under kHigh; each card of the deck's two lowest ranks under kLow.
double hand_tricks(const std::vector<std::string>& hand, int trump, const Game& game);

// ------------------------------------------------------------------ the decisions

// The Action answering `request` (its request id set, and one of bid, trump, cards or card).
v1::Action decide(const v1::DecisionRequest& request, const Game& game);

}  // namespace strategy

#endif  // BIDEUCHRE_STRATEGY_H
