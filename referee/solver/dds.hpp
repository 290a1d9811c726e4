// The double-dummy search of referee.solver: every hand seen, the best play of both sides.
//
// Nothing here knows a rule of the game by itself: which suit a card belongs to and which card takes a trick
// come from the tables the caller hands in (``Tables``), the engine's own. A card is a code 0..31; identical
// cards of a multi-deck game share one code, and of identical cards the first played takes the trick.
//
// The search answers one question at a time: can "the side" (a set of the seats in play) take at least
// ``target`` of the tricks left, the trick in progress included, against every play of the other seats? The
// number of tricks is found with a few such zero-window searches (``Search::value``). What keeps it fast:
//   - relevant cards: every answer comes with the cards it depended on, per suit the lowest of them (a card
//     that took a trick from another card of its suit, or that a cut-off below relied on); the cards of a suit
//     below that one are "small": which small cards a hand holds does not change the answer, only how many;
//   - a transposition table at the start of each trick, keyed on who leads and how many cards of each suit
//     each hand holds, each entry naming who holds the relevant cards of each suit (each card reduced to its
//     place among the cards left in its suit), with the bounds found on the side's tricks from there and the
//     card that did best; one entry serves every position that agrees with it on those cards. It serves one
//     call only (what an earlier call found is not used, so that an answer, and the nodes it takes, never
//     depend on what was asked before);
//   - cut-offs at a trick's start, tried before the table (which costs more to read): the winners the leader or
//     a partner can cash one after another, trumps that the other side cannot all cover, a side whose every card
//     is a winner, a lone claimer that must lose a trick; in a trick, when the side needs one trick more or every
//     trick left: a trick whose winner nothing still to play can change, or that a side takes whatever the other
//     plays (one of its seats still to play holds a card above all the other side may play to it); each cut-off
//     relies on as few cards as its bound needs (as many winners as asked for, the trumps from the one that
//     completes the count up), since the fewer the relevant cards, the more positions an entry serves;
//   - equivalent cards: of cards of one suit in one hand with no other card left between them (in anybody's
//     hand, or the card winning the trick on the table), only one is tried; and once a small card of a suit
//     has been tried, no other small card of that suit;
//   - move ordering: the card that did best in the table's entry first, then winners first for the side on
//     lead (then a suit whose top a partner holds, then one a partner ruffs), the cheapest card that takes the
//     trick, else the cheapest card.
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
constexpr int PLACES = 16;  // places of a suit's codes in a mask of relevant cards (a suit has at most 9 codes)

// Who holds each card of a suit left, highest first: seven bits a code (which copies of it each seat holds, as
// the number of that layout among every layout of at most three copies over six seats), the highest code in
// the top bits.
using Pattern = uint64_t;
constexpr int PATTERN_BITS = 7;

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

// Bounds on the side's tricks from positions at a trick's start, for one call (``next_generation`` forgets
// everything). Positions are grouped by who leads and by every hand's length in each suit; within a group, an
// entry holds the pattern of the relevant cards of each suit (who holds the ``top`` highest codes left). A lookup
// reads a small group's entries one by one. A group grown past ``INDEXED`` entries (thousands, in a long search)
// is indexed instead: it lists the distinct ``top``s of its entries (its shapes, a few dozen), and its entries are
// found through a hash of (group, shape, pattern), one probe a shape.
class TranspositionTable {
   public:
    explicit TranspositionTable(int bits);
    struct Entry {
        Pattern pattern[SUITS];  // the position's pattern of each suit, cut to its ``top`` highest codes
        uint32_t group;          // the serial number of its group
        uint8_t top[SUITS];
        uint8_t lower, upper;
        int8_t best;             // the leader's card that did best, or -1
    };
    static constexpr int BLOCK = 8;
    static constexpr uint32_t INDEXED = 256;
    struct Block {  // entries of one group, the newest last
        Entry entry[BLOCK];
        uint32_t used;
        uint32_t next;  // the group's block before this one (index + 1), or 0
    };
    static constexpr int SHAPES = 14;
    struct Shapes {  // the distinct ``top``s of an indexed group's entries (four bytes packed in one word)
        uint32_t top[SHAPES];
        uint32_t used;
        uint32_t next;  // the group's block of shapes before this one (index + 1), or 0
    };
    struct Group {
        uint64_t key[2];
        uint32_t generation;
        uint32_t serial;
        uint32_t head;    // the group's newest block (index + 1), or 0
        uint32_t shapes;  // indexed: the group's newest block of shapes (index + 1), else 0
        uint32_t size;
    };
    // The group of ``key``, made empty if it is not there; null only when ``make`` is false.
    Group* group(const uint64_t* key, uint64_t hash, bool make);
    // An entry of ``g`` that agrees with ``patterns`` and decides ``target`` (a bound at or above it, or below
    // it); ``hint`` gets the best card of an agreeing entry (or keeps its value).
    const Entry* find(const Group& g, const Pattern* patterns, int target, int& hint) const;
    // Adds the bounds known when the cards above ``top`` of each suit are as in ``patterns``.
    void store(const uint64_t* key, uint64_t hash, const Pattern* patterns, const uint8_t* top, int lower, int upper,
               int best);
    void next_generation();

   private:
    struct Slot {  // of the index: an entry (its number + 1), valid in its generation only, and bits of its hash
        uint32_t entry;
        uint16_t generation;
        uint16_t check;
    };
    void clear();
    Entry& entry(uint32_t number) const { return blocks_.get()[number / BLOCK].entry[number % BLOCK]; }
    // The entry of group ``serial`` with this shape and these cut patterns (``hash``: theirs), or null; ``slot``:
    // where it is, or the free slot where it goes.
    Entry* lookup(uint32_t serial, uint32_t shape, const Pattern* cut, uint64_t hash, uint64_t& slot) const;
    // Puts an entry of indexed group ``g`` in the index (and its shape in the group's list); false when the
    // shapes are full.
    bool index(Group& g, uint32_t number);
    bool make_indexed(Group& g);
    std::unique_ptr<Group, void (*)(void*)> groups_;
    std::unique_ptr<Block, void (*)(void*)> blocks_;
    std::unique_ptr<Slot, void (*)(void*)> index_;
    std::unique_ptr<Shapes, void (*)(void*)> shapes_;
    uint64_t bucket_mask_;
    uint64_t index_mask_;
    uint32_t capacity_;        // blocks
    uint32_t shape_capacity_;  // blocks of shapes
    uint32_t used_ = 0;
    uint32_t shapes_used_ = 0;
    uint32_t serial_ = 0;
    uint32_t generation_ = 1;  // of the groups; of the index, its low 16 bits
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
    int led_, best_key_, best_seat_, best_card_;
    int best_move_ = -1;  // the card that decided the last expanded node for the seat to act there, or -1
    // The relevant cards of the answer just found (a mask of suit * PLACES + place): the positions that agree
    // with the one searched on every hand's length in each suit and on who holds each card of a suit at or
    // above its lowest relevant card have the same answer.
    uint64_t relevant_ = 0;

    int next(int seat) const { return seat + 1 == k_ ? 0 : seat + 1; }
    static uint64_t bit(int suit, int place) { return uint64_t{1} << (suit * PLACES + place); }
    uint64_t card_bit(int card) const { return bit(t_.suit[card], t_.pos[card]); }
    uint32_t present(int suit) const;
    void play(int seat, int card);
    void unplay(int seat, int card);
    bool node(int target);
    bool trick_start(int target, int n);
    uint64_t relevant_of(const uint8_t* top) const;
    void top_of(uint64_t relevant, uint8_t* top) const;
    bool expand(int target, int hint);
    bool child(int seat, int card, int target);
    int value_after(int seat, int card, int guess);
    int moves(int seat, int* out, int* run_top, int hint);
    uint32_t legal_mask(int seat) const;
    int legal(int seat, int* out) const;
    int top_key(int seat, int led) const;
    int takes_trick(int& card) const;
    uint64_t by_rank(int card, bool side, bool played) const;
    int quick_tricks(int leader, int needed, uint64_t& relevant) const;
    int cashable(int hand, int needed, uint64_t& relevant) const;
    void sure_trumps(int* sure, const int* needed = nullptr, int* place = nullptr) const;
    bool lone_leader_loses(int leader, uint64_t& relevant) const;
    bool all_sure(uint64_t& relevant) const;
    bool last_trick(int target);
    uint64_t group_key(int leader, uint64_t* key) const;
    void patterns(Pattern* out) const;
};

}  // namespace dds
