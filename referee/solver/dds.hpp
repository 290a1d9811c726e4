// The double-dummy search of referee.solver: every hand seen, the best play of both sides.
//
// Nothing here knows a rule of the game by itself: which suit a card belongs to and which card takes a trick
// come from the tables the caller hands in (``Tables``), the engine's own. A card is a code 0..31; identical
// cards of a multi-deck game share one code, and of identical cards the first played takes the trick.
//
// The search answers one question at a time: can "the side" (a set of the seats in play) take at least
// ``target`` of the tricks left, the trick in progress included, against every play of the other seats? The
// number of tricks is found with a few such zero-window searches (``Search::value``). What keeps it fast:
//   - a transposition table at the start of each trick, keyed on who holds which card, each card reduced to
//     its place among the cards left in its suit (a card gone changes nothing but that order), holding the
//     bounds found so far on the side's tricks from there (in one call: what an earlier call found is not
//     used, so that an answer, and the nodes it takes, never depend on what was asked before);
//   - quick tricks: at a trick's start, the winners the leader can cash one after another (a lower bound for
//     its side), and a trick whose winner nothing still to play can change;
//   - equivalent cards: of cards of one suit in one hand with no other card left between them (in anybody's
//     hand, or the card winning the trick on the table), only one is tried;
//   - move ordering: winners first for the side on lead, the cheapest card that takes the trick, else the
//     cheapest card.
// The search counts its nodes and stops at a limit, answering "not decided"; it never reads the clock.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dds {

constexpr int CODES = 32;
constexpr int SUITS = 4;
constexpr int MAX_SEATS = 6;
constexpr int MAX_COPIES = 3;
constexpr int KEY_WORDS = 7;

// The trump-dependent tables of one contract, checked once (``Tables::make``).
struct Tables {
    int8_t suit[CODES];                // effective suit of each code (the left bower is a trump)
    int16_t key[SUITS][CODES];         // key[led][code]: higher takes the trick; -1 cannot take it
    uint32_t suit_mask[SUITS];         // codes of each effective suit
    int trump;                         // the effective suit that takes any trick, or -1 (no trump)
    uint8_t order[SUITS][CODES];       // codes of each suit, weakest first
    int order_len[SUITS];
    uint8_t pos[CODES];                // a code's place in its suit's order

    // The tables, or a one-line reason in ``error`` why they cannot be the trick rules of a game.
    static bool make(const int suits[CODES], const int keys[SUITS][CODES], Tables& out, std::string& error);
};

// A hand in play, checked (``Position::make``): seats in play numbered 0..k-1 in the order they play.
struct Position {
    int k = 0;                          // seats in play
    uint8_t count[MAX_SEATS][CODES] = {};  // copies of each code in each hand
    int to_act = 0;                     // the seat to play (of the k)
    int trick_len = 0;                  // cards of the trick in progress, played by the seats before to_act
    uint8_t trick[MAX_SEATS] = {};
    bool side[MAX_SEATS] = {};          // plays for the side whose tricks are counted

    int tricks_left() const;            // the trick in progress included
};

class TranspositionTable {
   public:
    explicit TranspositionTable(int bits);
    struct Entry {
        uint64_t key[KEY_WORDS];
        uint32_t generation;
        uint8_t lower, upper, depth, used;
    };
    Entry* find(const uint64_t* key, uint64_t hash);
    void store(const uint64_t* key, uint64_t hash, int depth, int lower, int upper);
    void next_generation() { ++generation_; }

   private:
    std::unique_ptr<Entry, void (*)(void*)> entries_;
    uint64_t bucket_mask_;
    uint32_t generation_ = 1;
};

// One search over one position (copied in); the table is shared between searches of one solver.
class Search {
   public:
    Search(const Tables& tables, TranspositionTable& table, const Position& position, uint64_t node_limit);

    // Whether the side takes at least ``target`` of the tricks left against every play; false also when the
    // node limit is reached (then ``aborted``).
    bool reaches(int target);
    // The most tricks the side takes (undefined once ``aborted``).
    int value();
    // The distinct legal codes of the seat to act, and each one's value: the most tricks the side takes
    // after it, the trick in progress included.
    void card_values(std::vector<int>& cards, std::vector<int>& values);
    // A legal card after which the side takes every trick left, or -1.
    int claim_card();

    uint64_t nodes = 0;
    bool aborted = false;

   private:
    const Tables& t_;
    TranspositionTable& tt_;
    uint64_t limit_;
    int k_;
    bool side_[MAX_SEATS];
    uint8_t side_mask_;
    int side_seats_;
    uint8_t count_[MAX_SEATS][CODES];
    uint32_t held_[MAX_SEATS];               // codes held
    uint32_t ranks_[MAX_SEATS][SUITS];       // places (Tables::pos) of the codes held, per suit
    uint8_t length_[MAX_SEATS][SUITS];       // cards held per suit
    int hand_[MAX_SEATS];                    // cards held
    uint16_t holders_[CODES];                // two bits per seat: copies held
    uint8_t in_hands_[CODES];                // copies held by anybody
    int to_act_;
    int trick_len_;
    int trick_card_[MAX_SEATS];
    int led_, best_key_, best_seat_;

    int next(int seat) const { return seat + 1 == k_ ? 0 : seat + 1; }
    void play(int seat, int card);
    void unplay(int seat, int card);
    bool node(int target);
    bool expand(int target);
    bool child(int seat, int card, int target);
    int value_after(int seat, int card, int guess);
    int moves(int seat, int* out);
    uint32_t legal_mask(int seat) const;
    int legal(int seat, int* out) const;
    int top_key(int seat, int led) const;
    int quick_tricks(int leader) const;
    int cashable(int hand) const;
    void sure_trumps(int* sure) const;
    bool lone_leader_loses(int leader) const;
    bool all_sure() const;
    bool last_trick(int target) const;
    uint64_t layout_key(int leader, uint64_t* key) const;
};

}  // namespace dds
