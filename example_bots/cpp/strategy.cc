// The C++ bot's rules of thumb (strategy.h): bid the cheapest trick bid the hand can make, name its
// strongest trump, lead high, take a trick as cheaply as it can, play low under a partner.

#include "strategy.h"

#include <algorithm>

namespace strategy {

namespace {

const std::string kRanks = "789TJQKA";
const std::string kSuits = "SHDC";
constexpr int kJack = 4;
constexpr int kKing = 6;
constexpr int kAce = 7;

// The lowest rank of each deck (the `deck` rule option).
const std::map<std::string, char> kDeckLowestRank = {
    {"single-24", '9'}, {"single-28", '8'}, {"single-32", '7'}, {"double-32", 'J'},
    {"double-40", 'T'}, {"double-48", '9'}, {"triple-60", 'T'},
};

// S<->C and H<->D: the suit of the same colour, whose jack is the left bower.
int same_colour(int suit) { return 3 - suit; }

std::string rule(const Game& game, const std::string& name) {
  auto found = game.rules.find(name);
  return found == game.rules.end() ? "" : found->second;
}

// The score of `card` in a trick led in (effective) suit `led`: -1 when it cannot win it.
int trick_key(const std::string& card, int led, int trump) {
  int suit = effective_suit(card, trump);
  return suit == led || (trump <= 3 && suit == trump) ? power(card, trump) : -1;
}

// Tricks the partners can be counted on for: half their fair share of the tricks.
double partner_tricks(const Game& game) {
  int partners = game.players / game.teams - 1;
  return 0.5 * partners * game.cards_each / game.players;
}

// The trumps a bid may end up in: its own, or (named after the auction) any the rules allow.
std::vector<int> trumps_for(const v1::Bid& bid, const Game& game) {
  if (bid.trump() != v1::TRUMP_UNSPECIFIED) return {trump_index(bid.trump())};
  std::vector<int> trumps = {0, 1, 2, 3};
  std::string notrump = rule(game, "notrump");
  if (notrump == "high" || notrump == "high-low") trumps.push_back(kHigh);
  if (notrump == "high-low") trumps.push_back(kLow);
  return trumps;
}

std::vector<std::string> hand_of(const v1::DecisionRequest& request) {
  return {request.hand().begin(), request.hand().end()};
}

// The trump of the hand being played: the contract's (no trump, ace high, before there is one).
int contract_trump(const v1::DecisionRequest& request) {
  return request.has_contract() ? trump_index(request.contract().trump()) : kHigh;
}

// The cards ordered from weakest to strongest under `trump`.
std::vector<std::string> weakest_first(std::vector<std::string> cards, int trump) {
  std::stable_sort(cards.begin(), cards.end(),
                   [trump](const std::string& a, const std::string& b) { return power(a, trump) < power(b, trump); });
  return cards;
}

// BID: the cheapest trick bid the hand (with the partners' share) can make in its trump; else pass. A stuck
// dealer, who may not pass, takes the cheapest bid. Special bids (alone, moon ...) are left to you.
v1::Bid choose_bid(const v1::DecisionRequest& request, const Game& game) {
  std::vector<std::string> hand = hand_of(request);
  for (const v1::Bid& bid : request.legal_bids()) {  // lowest first
    if (bid.kind() != v1::BID_KIND_LEVEL) continue;
    double worth = 0;
    for (int trump : trumps_for(bid, game)) worth = std::max(worth, hand_tricks(hand, trump, game));
    if (bid.level() <= worth + partner_tricks(game)) return bid;
  }
  for (const v1::Bid& bid : request.legal_bids()) {
    if (bid.kind() == v1::BID_KIND_PASS) return bid;
  }
  return request.legal_bids(0);
}

// TRUMP: the legal trump the hand is strongest in.
v1::Trump choose_trump(const v1::DecisionRequest& request, const Game& game) {
  std::vector<std::string> hand = hand_of(request);
  v1::Trump best = request.legal_trumps(0);
  for (int t : request.legal_trumps()) {
    auto trump = static_cast<v1::Trump>(t);
    if (hand_tricks(hand, trump_index(trump), game) > hand_tricks(hand, trump_index(best), game)) best = trump;
  }
  return best;
}

// GIVE: to a lone declarer (this seat is its partner), the strongest cards; from the declarer, the weakest.
// DISCARD: the weakest.
std::vector<std::string> choose_cards(const v1::DecisionRequest& request) {
  std::vector<std::string> order = weakest_first(hand_of(request), contract_trump(request));
  std::size_t count = request.count();
  bool to_declarer = request.kind() == v1::DECISION_KIND_GIVE && request.has_contract() &&
                     request.contract().declarer() == request.to_seat();
  if (to_declarer) return {order.end() - count, order.end()};
  return {order.begin(), order.begin() + count};
}

// PLAY: lead the strongest card; following, play the weakest card when a partner is winning the trick, else
// the cheapest card that takes it, else the weakest.
std::string choose_play(const v1::DecisionRequest& request, const Game& game) {
  int trump = contract_trump(request);
  std::vector<std::string> order = weakest_first({request.legal_cards().begin(), request.legal_cards().end()}, trump);
  if (request.current_trick_size() == 0) return order.back();
  std::vector<std::string> played;
  for (const v1::Play& play : request.current_trick()) played.push_back(play.card());
  const v1::Play& winner = request.current_trick(static_cast<int>(winning_index(played, trump)));
  if (static_cast<int>(winner.seat()) % game.teams == game.seat % game.teams) return order.front();
  int led = effective_suit(played[0], trump);
  for (const std::string& card : order) {  // the weakest first: the first that beats the winner is the cheapest
    if (trick_key(card, led, trump) > trick_key(winner.card(), led, trump)) return card;
  }
  return order.front();
}

}  // namespace

Game game_of(const v1::GameStart& start) {
  Game game;
  game.seat = static_cast<int>(start.seat());
  game.players = static_cast<int>(start.players());
  game.teams = static_cast<int>(start.teams());
  game.cards_each = static_cast<int>(start.cards_each());
  game.rules = {start.rules().begin(), start.rules().end()};
  return game;
}

int rank_of(const std::string& card) { return static_cast<int>(kRanks.find(card[0])); }
int suit_of(const std::string& card) { return static_cast<int>(kSuits.find(card[1])); }
int trump_index(v1::Trump trump) { return static_cast<int>(trump) - static_cast<int>(v1::TRUMP_SPADES); }

int effective_suit(const std::string& card, int trump) {
  if (trump <= 3 && rank_of(card) == kJack && suit_of(card) == same_colour(trump)) return trump;
  return suit_of(card);
}

int power(const std::string& card, int trump) {
  int suit = suit_of(card), rank = rank_of(card);
  if (trump <= 3) {
    if (rank == kJack && suit == trump) return 121;
    if (rank == kJack && suit == same_colour(trump)) return 120;
    if (suit == trump) return 100 + rank;
    return rank;
  }
  return trump == kLow ? 7 - rank : rank;
}

std::size_t winning_index(const std::vector<std::string>& cards, int trump) {
  int led = effective_suit(cards[0], trump);
  std::size_t best = 0;
  for (std::size_t i = 1; i < cards.size(); ++i) {
    if (trick_key(cards[i], led, trump) > trick_key(cards[best], led, trump)) best = i;
  }
  return best;
}

double hand_tricks(const std::vector<std::string>& hand, int trump, const Game& game) {
  auto deck = kDeckLowestRank.find(rule(game, "deck"));
  int lowest = static_cast<int>(kRanks.find(deck == kDeckLowestRank.end() ? '9' : deck->second));
  double tricks = 0;
  for (const std::string& card : hand) {
    int rank = rank_of(card);
    if (trump <= 3) {
      if (power(card, trump) >= 100 || rank == kAce) tricks += 1;
    } else if (trump == kHigh) {
      if (rank == kAce) tricks += 1;
      if (rank == kKing) tricks += 0.5;
    } else if (rank <= lowest + 1) {
      tricks += 1;
    }
  }
  return tricks;
}

v1::Action decide(const v1::DecisionRequest& request, const Game& game) {
  v1::Action action;
  action.set_request_id(request.request_id());
  switch (request.kind()) {
    case v1::DECISION_KIND_BID:
      *action.mutable_bid() = choose_bid(request, game);
      break;
    case v1::DECISION_KIND_TRUMP:
      action.set_trump(choose_trump(request, game));
      break;
    case v1::DECISION_KIND_GIVE:
    case v1::DECISION_KIND_DISCARD:
      for (const std::string& card : choose_cards(request)) action.mutable_cards()->add_cards(card);
      break;
    case v1::DECISION_KIND_PLAY:
      action.set_card(choose_play(request, game));
      break;
    default:
      break;  // a kind this bot does not know: the referee says what it expected
  }
  return action;
}

}  // namespace strategy
