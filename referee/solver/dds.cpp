// The double-dummy search (dds.hpp says what it answers and how).
#include "dds.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

namespace dds {

namespace {

inline int high_bit(uint32_t mask) { return 31 - __builtin_clz(mask); }

inline uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

}  // namespace

bool Tables::make(const int suits[CODES], const int keys[SUITS][CODES], Tables& out, std::string& error) {
    static const char* names[SUITS] = {"0", "1", "2", "3"};
    std::memset(&out, 0, sizeof out);
    for (int c = 0; c < CODES; ++c) {
        if (suits[c] < 0 || suits[c] >= SUITS) {
            error = "the suit of card code " + std::to_string(c) + " is " + std::to_string(suits[c]) +
                    ": suits are 0..3";
            return false;
        }
        out.suit[c] = static_cast<int8_t>(suits[c]);
        out.suit_mask[suits[c]] |= 1u << c;
        for (int led = 0; led < SUITS; ++led) {
            if (keys[led][c] < -1 || keys[led][c] > 30000) {
                error = "the trick key of card code " + std::to_string(c) + " is " + std::to_string(keys[led][c]) +
                        ": keys are -1 (cannot take the trick) to 30000";
                return false;
            }
            out.key[led][c] = static_cast<int16_t>(keys[led][c]);
        }
        if (keys[suits[c]][c] < 0) {
            error = "card code " + std::to_string(c) + " cannot take a trick led in its own suit (its key is -1)";
            return false;
        }
    }
    out.trump = -1;
    for (int s = 0; s < SUITS; ++s) {
        // the suit's codes, weakest first; two codes of one suit never rank alike
        int n = 0;
        for (int c = 0; c < CODES; ++c)
            if (out.suit[c] == s) out.order[s][n++] = static_cast<uint8_t>(c);
        std::sort(out.order[s], out.order[s] + n, [&](int a, int b) { return out.key[s][a] < out.key[s][b]; });
        for (int i = 0; i < n; ++i) {
            out.pos[out.order[s][i]] = static_cast<uint8_t>(i);
            if (i > 0 && out.key[s][out.order[s][i]] == out.key[s][out.order[s][i - 1]]) {
                error = "card codes " + std::to_string(out.order[s][i - 1]) + " and " +
                        std::to_string(out.order[s][i]) + " of suit " + names[s] + " have the same trick key";
                return false;
            }
        }
        out.order_len[s] = n;
        // a suit whose cards may take a trick led in another suit is the trump: all of its cards, keeping their
        // keys, above every card of the suit led
        bool ruffs = false;
        for (int i = 0; i < n; ++i)
            for (int led = 0; led < SUITS; ++led)
                if (led != s && out.key[led][out.order[s][i]] >= 0) ruffs = true;
        if (!ruffs) continue;
        if (out.trump >= 0) {
            error = std::string("suits ") + names[out.trump] + " and " + names[s] + " both take tricks led in other suits";
            return false;
        }
        out.trump = s;
        for (int led = 0; led < SUITS; ++led) {
            if (led == s) continue;
            int top_plain = -1;
            for (int c = 0; c < CODES; ++c)
                if (out.suit[c] == led) top_plain = std::max<int>(top_plain, out.key[led][c]);
            for (int i = 0; i < n; ++i) {
                int c = out.order[s][i];
                if (out.key[led][c] != out.key[s][c] || out.key[led][c] <= top_plain) {
                    error = "card code " + std::to_string(c) + " of the trump suit " + names[s] +
                            " does not beat every card of suit " + names[led] + " with its own key";
                    return false;
                }
            }
        }
    }
    for (int led = 0; led < SUITS; ++led)
        for (int c = 0; c < CODES; ++c)
            if (out.suit[c] != led && out.suit[c] != out.trump && out.key[led][c] >= 0) {
                error = "card code " + std::to_string(c) + " of a plain suit takes a trick led in another suit";
                return false;
            }
    return true;
}

int Position::tricks_left() const {
    int n = 0;
    for (int c = 0; c < CODES; ++c) n += count[to_act][c];
    return n;
}

// ------------------------------------------------------------------ the transposition table

namespace {

// The top ``n`` codes of a pattern.
inline Pattern top_mask(int n) { return n ? ~Pattern{0} << (64 - PATTERN_BITS * n) : Pattern{0}; }

// Each layout of a code's copies over the seats (two bits a seat, at most three copies in all) -> its number,
// 1..83 (0: nobody holds it).
struct LayoutNumbers {
    uint8_t of[1 << (2 * MAX_SEATS)];
    LayoutNumbers() : of() {
        int next = 1;
        for (int h = 1; h < (1 << (2 * MAX_SEATS)); ++h) {
            int copies = 0;
            for (int s = 0; s < MAX_SEATS; ++s) copies += (h >> (2 * s)) & 3;
            if (copies <= MAX_COPIES) of[h] = static_cast<uint8_t>(next++);
        }
    }
};
const LayoutNumbers layout_numbers;

}  // namespace

TranspositionTable::TranspositionTable(int bits)
    : groups_(static_cast<Group*>(std::calloc(static_cast<size_t>(4) << bits, sizeof(Group))), &std::free),
      blocks_(static_cast<Block*>(std::calloc(static_cast<size_t>(2) << bits, sizeof(Block))), &std::free),
      index_(static_cast<Slot*>(std::calloc(static_cast<size_t>(32) << bits, sizeof(Slot))), &std::free),
      shapes_(static_cast<Shapes*>(std::calloc(static_cast<size_t>(1) << bits, sizeof(Shapes))), &std::free),
      bucket_mask_((uint64_t{1} << bits) - 1),
      index_mask_((uint64_t{32} << bits) - 1),
      capacity_(2u << bits),
      shape_capacity_(1u << bits) {
    // calloc: the pages are zeroed by the system as they are first touched, not all at once here
    if (!groups_ || !blocks_ || !index_ || !shapes_) throw std::bad_alloc();
}

void TranspositionTable::clear() {
    used_ = 0;
    shapes_used_ = 0;
    if (++generation_ == 0) {
        std::memset(static_cast<void*>(groups_.get()), 0, (bucket_mask_ + 1) * 4 * sizeof(Group));
        generation_ = 1;
    }
    if ((generation_ & 0xffffu) == 0) ++generation_;  // the index's generation is never 0, an empty slot's
    if ((generation_ & 0xffffu) == 1) std::memset(static_cast<void*>(index_.get()), 0, (index_mask_ + 1) * sizeof(Slot));
}

void TranspositionTable::next_generation() { clear(); }

TranspositionTable::Group* TranspositionTable::group(const uint64_t* key, uint64_t hash, bool make) {
    Group* bucket = groups_.get() + (hash & bucket_mask_) * 4;
    // only what this call found: an answer never depends on what was asked before
    for (int i = 0; i < 4; ++i)
        if (bucket[i].generation == generation_ && bucket[i].key[0] == key[0] && bucket[i].key[1] == key[1])
            return &bucket[i];
    if (!make) return nullptr;
    // a group of an earlier call (or none), else the one with the fewest entries (they are lost: a new serial)
    Group* victim = &bucket[0];
    for (int i = 0; i < 4; ++i) {
        Group& g = bucket[i];
        if (g.generation != generation_) {
            victim = &g;
            break;
        }
        if (g.size < victim->size) victim = &g;
    }
    victim->key[0] = key[0];
    victim->key[1] = key[1];
    victim->generation = generation_;
    victim->serial = ++serial_;
    victim->head = 0;
    victim->shapes = 0;
    victim->size = 0;
    return victim;
}

namespace {

inline uint32_t pack_top(const uint8_t* top) {
    return uint32_t{top[0]} | uint32_t{top[1]} << 8 | uint32_t{top[2]} << 16 | uint32_t{top[3]} << 24;
}

// One mix for the whole key: each part folded in by a multiply (odd constant) and an add; the patterns' bits are
// high in their words, and the mix brings them down.
inline uint64_t entry_hash(uint32_t serial, uint32_t shape, const Pattern* cut) {
    constexpr uint64_t K = 0x9e3779b97f4a7c15ULL;
    uint64_t h = (uint64_t{serial} << 32 | shape) * K;
    for (int u = 0; u < SUITS; ++u) h = (h ^ (h >> 29)) * K + (cut[u] >> 7 | cut[u] << 57);
    return mix(h);
}

}  // namespace

TranspositionTable::Entry* TranspositionTable::lookup(uint32_t serial, uint32_t shape, const Pattern* cut,
                                                      uint64_t hash, uint64_t& slot) const {
    const Slot* index = index_.get();
    const uint16_t generation = static_cast<uint16_t>(generation_), check = static_cast<uint16_t>(hash >> 48);
    for (slot = hash & index_mask_; index[slot].generation == generation; slot = (slot + 1) & index_mask_) {
        if (index[slot].check != check) continue;
        Entry& e = entry(index[slot].entry - 1);
        if (e.group == serial && pack_top(e.top) == shape && e.pattern[0] == cut[0] && e.pattern[1] == cut[1] &&
            e.pattern[2] == cut[2] && e.pattern[3] == cut[3])
            return &e;
    }
    return nullptr;
}

bool TranspositionTable::index(Group& g, uint32_t number) {
    const Entry& e = entry(number);
    const uint32_t shape = pack_top(e.top);
    Shapes* shapes = shapes_.get();
    bool known = false;
    for (uint32_t b = g.shapes; b && !known; b = shapes[b - 1].next)
        for (uint32_t i = 0; i < shapes[b - 1].used; ++i)
            if (shapes[b - 1].top[i] == shape) known = true;
    if (!known) {
        if (!g.shapes || shapes[g.shapes - 1].used == SHAPES) {
            if (shapes_used_ == shape_capacity_) return false;
            Shapes& block = shapes[shapes_used_++];
            block.used = 0;
            block.next = g.shapes;
            g.shapes = shapes_used_;
        }
        Shapes& block = shapes[g.shapes - 1];
        block.top[block.used++] = shape;
    }
    const uint64_t hash = entry_hash(g.serial, shape, e.pattern);
    uint64_t slot;
    lookup(g.serial, shape, e.pattern, hash, slot);  // not there: entries of a group are never twice alike
    index_.get()[slot] = Slot{number + 1, static_cast<uint16_t>(generation_), static_cast<uint16_t>(hash >> 48)};
    return true;
}

bool TranspositionTable::make_indexed(Group& g) {
    const Block* blocks = blocks_.get();
    for (uint32_t b = g.head; b; b = blocks[b - 1].next)
        for (uint32_t i = 0; i < blocks[b - 1].used; ++i)
            if (!index(g, (b - 1) * BLOCK + i)) return false;
    return true;
}

const TranspositionTable::Entry* TranspositionTable::find(const Group& g, const Pattern* patterns, int target,
                                                          int& hint) const {
    const Shapes* shapes = shapes_.get();
    for (uint32_t b = g.shapes; b; b = shapes[b - 1].next) {
        const Shapes& block = shapes[b - 1];
        // every shape's slot asked for at once, then read: the index is far bigger than the caches
        Pattern cut[SHAPES][SUITS];
        uint64_t hash[SHAPES];
        for (uint32_t i = 0; i < block.used; ++i) {
            const uint32_t shape = block.top[i];
            for (int u = 0; u < SUITS; ++u)
                cut[i][u] = patterns[u] & top_mask(static_cast<int>(shape >> (8 * u) & 0xff));
            hash[i] = entry_hash(g.serial, shape, cut[i]);
            __builtin_prefetch(index_.get() + (hash[i] & index_mask_));
        }
        for (uint32_t i = 0; i < block.used; ++i) {
            uint64_t slot;
            const Entry* e = lookup(g.serial, block.top[i], cut[i], hash[i], slot);
            if (!e) continue;
            if (e->lower >= target || e->upper < target) return e;
            if (hint < 0 && e->best >= 0) hint = e->best;
        }
    }
    if (g.shapes) return nullptr;
    const Block* blocks = blocks_.get();
    for (uint32_t b = g.head; b; b = blocks[b - 1].next) {
        const Block& block = blocks[b - 1];
        for (int i = static_cast<int>(block.used) - 1; i >= 0; --i) {
            const Entry& e = block.entry[i];
            const bool decides = e.lower >= target || e.upper < target;
            if (!decides && (hint >= 0 || e.best < 0)) continue;
            if ((patterns[0] & top_mask(e.top[0])) != e.pattern[0] || (patterns[1] & top_mask(e.top[1])) != e.pattern[1] ||
                (patterns[2] & top_mask(e.top[2])) != e.pattern[2] || (patterns[3] & top_mask(e.top[3])) != e.pattern[3])
                continue;
            if (decides) return &e;
            hint = e.best;
        }
    }
    return nullptr;
}

void TranspositionTable::store(const uint64_t* key, uint64_t hash, const Pattern* patterns, const uint8_t* top,
                               int lower, int upper, int best) {
    Pattern cut[SUITS];
    for (int u = 0; u < SUITS; ++u) cut[u] = patterns[u] & top_mask(top[u]);
    Group* g = group(key, hash, true);
    Entry* same = nullptr;
    if (g->shapes) {
        uint64_t slot;
        same = lookup(g->serial, pack_top(top), cut, entry_hash(g->serial, pack_top(top), cut), slot);
    } else {
        Block* blocks = blocks_.get();
        for (uint32_t b = g->head; b && !same; b = blocks[b - 1].next)
            for (uint32_t i = 0; i < blocks[b - 1].used && !same; ++i) {
                Entry& e = blocks[b - 1].entry[i];
                if (std::memcmp(e.top, top, SUITS) == 0 && std::memcmp(e.pattern, cut, sizeof cut) == 0) same = &e;
            }
    }
    if (same) {
        // both are true bounds of every position that agrees with the entry
        same->lower = static_cast<uint8_t>(std::max<int>(same->lower, lower));
        same->upper = static_cast<uint8_t>(std::min<int>(same->upper, upper));
        if (best >= 0) same->best = static_cast<int8_t>(best);
        return;
    }
    Block* blocks = blocks_.get();
    if (!g->head || blocks[g->head - 1].used == BLOCK) {
        if (used_ == capacity_) {
            // full: forget everything of this call and go on (what is found next depends on this call only)
            clear();
            g = group(key, hash, true);
        }
        Block& block = blocks[used_++];
        block.used = 0;
        block.next = g->head;
        g->head = used_;
    }
    Block& block = blocks[g->head - 1];
    const uint32_t number = (g->head - 1) * BLOCK + block.used;
    Entry& e = block.entry[block.used++];
    std::memcpy(e.pattern, cut, sizeof cut);
    std::memcpy(e.top, top, SUITS);
    e.group = g->serial;
    e.lower = static_cast<uint8_t>(lower);
    e.upper = static_cast<uint8_t>(upper);
    e.best = static_cast<int8_t>(best);
    ++g->size;
    const bool indexed = g->shapes ? index(*g, number) : g->size < INDEXED || make_indexed(*g);
    if (!indexed) {
        // no room for its shapes: forget everything of this call and go on
        clear();
    }
}

// ------------------------------------------------------------------ the search

Search::Search(const Tables& tables, TranspositionTable& table, const Position& p, uint64_t node_limit)
    : t_(tables), tt_(table), limit_(node_limit), k_(p.k) {
    side_mask_ = 0;
    side_seats_ = 0;
    std::memset(holders_, 0, sizeof holders_);
    std::memset(in_hands_, 0, sizeof in_hands_);
    for (int s = 0; s < k_; ++s) {
        side_[s] = p.side[s];
        if (p.side[s]) {
            side_mask_ |= static_cast<uint8_t>(1u << s);
            ++side_seats_;
        }
        held_[s] = 0;
        hand_[s] = 0;
        for (int u = 0; u < SUITS; ++u) {
            ranks_[s][u] = 0;
            length_[s][u] = 0;
        }
        for (int c = 0; c < CODES; ++c) {
            int n = p.count[s][c];
            count_[s][c] = static_cast<uint8_t>(n);
            if (!n) continue;
            held_[s] |= 1u << c;
            ranks_[s][t_.suit[c]] |= 1u << t_.pos[c];
            length_[s][t_.suit[c]] += static_cast<uint8_t>(n);
            hand_[s] += n;
            holders_[c] += static_cast<uint16_t>(n << (2 * s));
            in_hands_[c] += static_cast<uint8_t>(n);
        }
    }
    to_act_ = p.to_act;
    trick_len_ = p.trick_len;
    led_ = 0;
    best_key_ = -1;
    best_seat_ = to_act_;
    best_card_ = -1;
    for (int i = 0; i < trick_len_; ++i) {
        int card = p.trick[i];
        int seat = ((to_act_ - trick_len_ + i) % k_ + k_) % k_;
        trick_card_[i] = card;
        if (i == 0) {
            led_ = t_.suit[card];
            best_key_ = t_.key[led_][card];
            best_seat_ = seat;
            best_card_ = card;
        } else if (t_.key[led_][card] > best_key_) {
            best_key_ = t_.key[led_][card];
            best_seat_ = seat;
            best_card_ = card;
        }
    }
}

uint32_t Search::present(int suit) const {
    uint32_t m = 0;
    for (int s = 0; s < k_; ++s) m |= ranks_[s][suit];
    return m;
}

void Search::play(int seat, int card) {
    int suit = t_.suit[card];
    if (--count_[seat][card] == 0) {
        held_[seat] &= ~(1u << card);
        ranks_[seat][suit] &= ~(1u << t_.pos[card]);
    }
    --length_[seat][suit];
    --hand_[seat];
    holders_[card] = static_cast<uint16_t>(holders_[card] - (1u << (2 * seat)));
    --in_hands_[card];
    trick_card_[trick_len_++] = card;
}

void Search::unplay(int seat, int card) {
    int suit = t_.suit[card];
    if (count_[seat][card]++ == 0) {
        held_[seat] |= 1u << card;
        ranks_[seat][suit] |= 1u << t_.pos[card];
    }
    ++length_[seat][suit];
    ++hand_[seat];
    holders_[card] = static_cast<uint16_t>(holders_[card] + (1u << (2 * seat)));
    ++in_hands_[card];
    --trick_len_;
}

int Search::top_key(int seat, int led) const {
    uint32_t r = ranks_[seat][led];
    if (r) return t_.key[led][t_.order[led][high_bit(r)]];
    if (t_.trump >= 0 && (r = ranks_[seat][t_.trump]) != 0) return t_.key[led][t_.order[t_.trump][high_bit(r)]];
    return -1;
}

uint32_t Search::legal_mask(int seat) const {
    uint32_t m = held_[seat];
    if (trick_len_) {
        uint32_t follow = m & t_.suit_mask[led_];
        if (follow) m = follow;
    }
    return m;
}

int Search::legal(int seat, int* out) const {
    uint32_t m = legal_mask(seat);
    int n = 0;
    while (m) {
        out[n++] = __builtin_ctz(m);
        m &= m - 1;
    }
    return n;
}

// The cards of ``seat`` worth trying, best first: one of each run of equivalent cards (no card between them in
// another hand, nor the trick's best card), the weakest of the run, with the place of the run's highest card in
// ``run_top``; then ordered so that a cut-off comes early, ``hint`` (the card that did best in the table) first.
int Search::moves(int seat, int* out, int* run_top, int hint) {
    const uint32_t m = legal_mask(seat);
    int n = 0;
    int score[CODES];
    const bool me = side_[seat];
    const int trump = t_.trump;
    // what the other side (of ``seat``) holds: the top of each suit, and who could ruff
    int their_top[SUITS];
    bool ruffable[SUITS] = {false, false, false, false};
    bool partner_ruffs[SUITS] = {false, false, false, false};
    int ours_top[SUITS];
    for (int u = 0; u < SUITS && !trick_len_; ++u) {  // on lead only
        uint32_t theirs = 0, ours = 0;
        for (int s = 0; s < k_; ++s) {
            if (s == seat) continue;
            if (side_[s] == me) ours |= ranks_[s][u];
            else theirs |= ranks_[s][u];
        }
        their_top[u] = theirs ? high_bit(theirs) : -1;
        ours_top[u] = ours ? high_bit(ours) : -1;
        if (trump >= 0 && u != trump)
            for (int s = 0; s < k_; ++s) {
                if (side_[s] != me && !length_[s][u] && ranks_[s][trump]) ruffable[u] = true;
                if (s != seat && side_[s] == me && !length_[s][u] && ranks_[s][trump]) partner_ruffs[u] = true;
            }
    }
    // following: the highest key the other side's seats still to play after this one could play
    int later_top = -1;
    if (trick_len_) {
        int s = seat;
        for (int i = trick_len_ + 1; i < k_; ++i) {
            s = next(s);
            if (side_[s] != me) later_top = std::max(later_top, top_key(s, led_));
        }
    }
    const bool winning = trick_len_ && side_[best_seat_] == me;
    for (int u = 0; u < SUITS; ++u) {
        if (!(m & t_.suit_mask[u])) continue;
        bool open = false;
        int last_beats = -1;
        for (int j = 0; j < t_.order_len[u]; ++j) {
            int c = t_.order[u][j];
            int mine = count_[seat][c];
            int others = in_hands_[c] - mine;
            int beats = trick_len_ ? t_.key[led_][c] > best_key_ : 0;
            if (beats != last_beats) {
                open = false;
                last_beats = beats;
            }
            if (others) open = false;
            if (!mine) continue;
            if (open) {
                run_top[n - 1] = j;  // the run of the card before goes on
                continue;
            }
            open = !others;
            int value = (u == trump ? 16 : 0) + j;  // what the card is worth keeping
            int sc;
            if (!trick_len_) {
                bool top = j >= their_top[u] && !ruffable[u];
                if (top) sc = 100 + (u == trump ? 10 : 0) + j;
                else if (ours_top[u] > their_top[u] && !ruffable[u]) sc = 60 - j;
                else if (partner_ruffs[u] && !ruffable[u]) sc = 40 - j;  // a partner ruffs it
                else sc = 20 - value;
            } else if (winning) {
                if (best_key_ > later_top) sc = -value;  // the trick is the side's: the cheapest card
                else if (beats && t_.key[led_][c] > later_top) sc = 50 - value;
                else sc = -value;
            } else if (beats) {
                sc = t_.key[led_][c] > later_top ? 100 - value : 40 + value;
            } else {
                sc = -value;
            }
            out[n] = c;
            run_top[n] = j;
            score[n] = sc;
            ++n;
        }
    }
    // the card that did best in the table's entry, or the run it belongs to, first
    if (hint >= 0 && (m >> hint & 1u)) {
        const int u = t_.suit[hint], p = t_.pos[hint];
        for (int i = 0; i < n; ++i)
            if (t_.suit[out[i]] == u && t_.pos[out[i]] <= p && p <= run_top[i]) score[i] = 1000;
    }
    // insertion sort, best first (few cards)
    for (int i = 1; i < n; ++i) {
        int c = out[i], sc = score[i], top = run_top[i], j = i - 1;
        while (j >= 0 && score[j] < sc) {
            out[j + 1] = out[j];
            score[j + 1] = score[j];
            run_top[j + 1] = run_top[j];
            --j;
        }
        out[j + 1] = c;
        score[j + 1] = sc;
        run_top[j + 1] = top;
    }
    return n;
}

// The tricks ``leader`` can cash one after another whatever the others hold: its cards at least as high as
// every card of their suit in any other hand (the leader plays first, so an equal copy loses to it), trumps
// last, and a plain suit only as many times as every other hand holding a trump can follow it. Counted up to
// ``needed`` at most: ``relevant`` gets, in each suit counted, the lowest winner it takes.
int Search::cashable(int hand, int needed, uint64_t& relevant) const {
    const int trump = t_.trump;
    int total = 0;
    for (int u = 0; u < SUITS && total < needed; ++u) {
        uint32_t others = 0;
        for (int s = 0; s < k_; ++s)
            if (s != hand) others |= ranks_[s][u];
        int top = others ? high_bit(others) : -1;
        uint32_t mine = ranks_[hand][u];
        int won = 0;
        while (mine) {
            int p = high_bit(mine);
            if (p < top) break;
            won += count_[hand][t_.order[u][p]];
            mine &= ~(1u << p);
        }
        if (trump >= 0 && u != trump)
            for (int s = 0; s < k_; ++s)
                if (s != hand && ranks_[s][trump]) won = std::min<int>(won, length_[s][u]);
        won = std::min(won, needed - total);
        if (!won) continue;
        // the lowest of the ``won`` highest cards of the suit in the hand (copies counted)
        int p = high_bit(ranks_[hand][u]);
        for (int taken = count_[hand][t_.order[u][p]]; taken < won;) {
            p = high_bit(ranks_[hand][u] & ((1u << p) - 1));
            taken += count_[hand][t_.order[u][p]];
        }
        relevant |= bit(u, p);
        total += won;
    }
    return total;
}

// The tricks the side on lead cashes one after another (counted up to ``needed``): the leader's own winners, or a
// partner's, reached by leading a suit in which the partner holds a card higher than any other (not a copy: it
// plays after the leader) and nobody can ruff (that trick is the first of the partner's winners).
int Search::quick_tricks(int leader, int needed, uint64_t& relevant) const {
    uint64_t own = 0;
    int best = cashable(leader, needed, own);
    relevant = own;
    if (best >= needed) return best;
    const int trump = t_.trump;
    for (int p = 0; p < k_; ++p) {
        if (p == leader || side_[p] != side_[leader] || !hand_[p]) continue;
        int entry = -1;
        for (int u = 0; u < SUITS && entry < 0; ++u) {
            if (!ranks_[leader][u] || !ranks_[p][u]) continue;
            uint32_t others = 0;
            for (int s = 0; s < k_; ++s)
                if (s != p) others |= ranks_[s][u];
            if (high_bit(ranks_[p][u]) <= high_bit(others)) continue;  // a copy played before it would win
            entry = u;
            if (trump >= 0 && u != trump)
                for (int s = 0; s < k_; ++s)
                    if (s != p && ranks_[s][trump] && !length_[s][u]) entry = -1;
        }
        if (entry < 0) continue;
        uint64_t theirs = bit(entry, high_bit(ranks_[p][entry]));
        int tricks = cashable(p, needed, theirs);
        if (tricks > best) {
            best = tricks;
            relevant = theirs;
        }
    }
    return best;
}

// For each side (0: the others, 1: the side counted): a number of tricks its trumps take whatever is played. Each
// trump of one hand falls in a trick of its own, and takes it unless the other side plays a trump as high or higher
// to it; each trump of the other side can do that to one of them at most. So of a hand's trumps, those left when
// the other side's trumps are matched, highest first, each to a trump of the hand no higher, take a trick each.
//
// Counted from the highest trump down, a hand's count so far is what the trumps at or above that place make sure of,
// whatever the trumps below it: ``place`` (when given) gets, for each side, the highest place at which one of its
// hands has ``needed[side]`` sure trumps (or -1): the trumps from there up are the relevant cards of the bound.
void Search::sure_trumps(int* sure, const int* needed, int* place) const {
    const int trump = t_.trump;
    // every trump of each side, copies included, as places in the suit, highest first
    int held[2][MAX_COPIES * CODES], count[2] = {0, 0};
    for (int p = t_.order_len[trump] - 1; p >= 0; --p) {
        int c = t_.order[trump][p];
        for (int s = 0; s < k_; ++s)
            for (int n = count_[s][c]; n > 0; --n) held[side_[s]][count[side_[s]]++] = p;
    }
    sure[0] = sure[1] = 0;
    if (place) place[0] = place[1] = -1;
    for (int s = 0; s < k_; ++s) {
        int side = side_[s], other = !side, next_other = 0, unmatched = 0;
        for (int p = t_.order_len[trump] - 1; p >= 0; --p) {
            for (int n = count_[s][t_.order[trump][p]]; n > 0; --n) {
                if (next_other < count[other] && held[other][next_other] >= p) ++next_other;
                else ++unmatched;
            }
            if (place && unmatched >= needed[side] && p > place[side]) place[side] = p;
        }
        sure[side] = std::max(sure[side], unmatched);
    }
}

// The side on lead takes every trick left when every card it holds is a sure winner: as high as every card of its
// suit the others hold (the side plays it first: it leads, and whoever of it wins leads again), and a plain card
// only while the others hold no trump. ``relevant``: the side's lowest card of each suit.
bool Search::all_sure(uint64_t& relevant) const {
    const int trump = t_.trump;
    int top[SUITS];
    bool ruff = false;
    for (int u = 0; u < SUITS; ++u) {
        uint32_t theirs = 0;
        for (int s = 0; s < k_; ++s)
            if (!side_[s]) theirs |= ranks_[s][u];
        top[u] = theirs ? high_bit(theirs) : -1;
        if (u == trump && theirs) ruff = true;
    }
    relevant = 0;
    for (int s = 0; s < k_; ++s) {
        if (!side_[s]) continue;
        for (int u = 0; u < SUITS; ++u) {
            uint32_t mine = ranks_[s][u];
            if (!mine) continue;
            if (ruff && u != trump) return false;
            if (__builtin_ctz(mine) < top[u]) return false;  // its lowest card of the suit is beaten
            relevant |= bit(u, __builtin_ctz(mine));
        }
    }
    return true;
}

// A side of one seat in play that must take every trick, on lead: it leads every trick, so it leads each of its
// suits in the end, and a seat of the other side keeping a card above all of its own in that suit takes a trick.
// ``relevant``: that card.
bool Search::lone_leader_loses(int leader, uint64_t& relevant) const {
    for (int u = 0; u < SUITS; ++u) {
        uint32_t mine = ranks_[leader][u];
        if (!mine) continue;
        for (int s = 0; s < k_; ++s)
            if (!side_[s] && ranks_[s][u] && high_bit(ranks_[s][u]) > high_bit(mine)) {
                relevant = bit(u, high_bit(ranks_[s][u]));
                return true;
            }
    }
    return false;
}

// One card each left: who takes the last trick. Relevant: the winning card, when it beat another of its suit.
bool Search::last_trick(int target) {
    int s = to_act_;
    int card = __builtin_ctz(held_[s]);
    int led = t_.suit[card];
    int best = t_.key[led][card], winner = s, best_card = card;
    int suits[MAX_SEATS];
    suits[0] = led;
    for (int i = 1; i < k_; ++i) {
        s = next(s);
        card = __builtin_ctz(held_[s]);
        suits[i] = t_.suit[card];
        if (t_.key[led][card] > best) {
            best = t_.key[led][card];
            winner = s;
            best_card = card;
        }
    }
    int same = 0;
    for (int i = 0; i < k_; ++i) same += suits[i] == t_.suit[best_card];
    relevant_ = same >= 2 ? card_bit(best_card) : 0;
    return (side_[winner] ? 1 : 0) >= target;
}

// Who leads, and every hand's length in each suit (five bits each): the group of a position in the table.
uint64_t Search::group_key(int leader, uint64_t* key) const {
    key[0] = static_cast<uint64_t>(leader) << 60;
    key[1] = 0;
    for (int s = 0; s < k_; ++s)
        for (int u = 0; u < SUITS; ++u)
            key[s / 3] |= static_cast<uint64_t>(length_[s][u]) << ((s % 3) * 20 + u * 5);
    return mix(key[0] ^ mix(key[1] + 0x9e3779b97f4a7c15ULL));
}

void Search::patterns(Pattern* out) const {
    for (int u = 0; u < SUITS; ++u) {
        Pattern p = 0;
        int n = 0;
        for (int j = t_.order_len[u] - 1; j >= 0; --j) {
            int c = t_.order[u][j];
            if (!in_hands_[c]) continue;
            p = p << PATTERN_BITS | layout_numbers.of[holders_[c]];
            ++n;
        }
        out[u] = n ? p << (64 - PATTERN_BITS * n) : 0;
    }
}

namespace {

// The lowest relevant place of ``suit`` in ``relevant``, or PLACES when none is.
inline int threshold(uint64_t relevant, int suit) {
    uint32_t bits = static_cast<uint32_t>(relevant >> (suit * PLACES)) & 0xffffu;
    return bits ? __builtin_ctz(bits) : PLACES;
}

}  // namespace

bool Search::node(int target) {
    const int n = hand_[to_act_];  // tricks left, the one in progress included
    if (target <= 0 || target > n) {
        relevant_ = 0;
        return target <= 0;
    }
    if (++nodes > limit_) {
        aborted = true;
        return false;
    }
    if (trick_len_ == 0) return trick_start(target, n);
    // in a trick: when no seat of the other side still to play can beat the card winning it, the trick is settled
    const bool best_side = side_[best_seat_];
    bool open = false;
    int s = to_act_;
    for (int i = trick_len_; i < k_; ++i, s = next(s))
        if (side_[s] != best_side && top_key(s, led_) > best_key_) {
            open = true;
            break;
        }
    if (!open) {
        relevant_ = by_rank(best_card_, best_side, true);
        if (best_side && target <= 1) return true;
        if (!best_side && target > n - 1) return false;
    }
    // the side needs one trick more, or every trick left: a side that takes this one whatever the other does
    // decides it
    if (target <= 1 || target == n) {
        int card;
        const int taker = takes_trick(card);
        if (taker >= 0 && (taker == 1 ? target <= 1 : target == n)) {
            relevant_ = by_rank(card, taker == 1, false);
            return taker == 1;
        }
    }
    return expand(target, -1);
}

// The relevant cards of the trick in progress taken by ``card`` of ``side`` (``played``: on the table already, else
// to be played): the card, when another card of its suit has been played to the trick or a seat of the other side
// still to play holds one (it takes the trick by its rank); else none (it takes it by its suit).
uint64_t Search::by_rank(int card, bool side, bool played) const {
    const int u = t_.suit[card];
    int same = played ? -1 : 0;  // cards of its suit on the table besides it (copies of it too)
    for (int i = 0; i < trick_len_; ++i) same += t_.suit[trick_card_[i]] == u;
    if (same > 0) return card_bit(card);
    for (int i = trick_len_, s = to_act_; i < k_; ++i, s = next(s))
        if (side_[s] != side && ranks_[s][u]) return card_bit(card);
    return 0;
}

// A side (1: the side counted, 0: the other) that takes the trick in progress whatever the other side plays: one
// of its seats still to play has a card (``card``, its highest it may play) that beats the card winning the trick
// and every card a seat of the other side may play to it (copies of a card: the first played wins); or -1.
int Search::takes_trick(int& card) const {
    int seats[MAX_SEATS], keys[MAX_SEATS], m = 0;
    for (int i = trick_len_, s = to_act_; i < k_; ++i, s = next(s)) {
        seats[m] = s;
        keys[m++] = top_key(s, led_);
    }
    for (int j = 0; j < m; ++j) {
        const int key = keys[j];
        if (key <= best_key_) continue;
        bool takes = true;
        for (int i = 0; i < m && takes; ++i)
            if (side_[seats[i]] != side_[seats[j]] && (i < j ? keys[i] >= key : keys[i] > key)) takes = false;
        if (!takes) continue;
        const int s = seats[j];
        const uint32_t follow = ranks_[s][led_];
        card = follow ? t_.order[led_][high_bit(follow)] : t_.order[t_.trump][high_bit(ranks_[s][t_.trump])];
        return side_[s] ? 1 : 0;
    }
    return -1;
}

// The relevant cards of a position in which the lowest relevant card of each suit is the ``top[suit]``-th highest
// card left (0: none of the suit), and the reverse.
uint64_t Search::relevant_of(const uint8_t* top) const {
    uint64_t relevant = 0;
    for (int u = 0; u < SUITS; ++u) {
        if (!top[u]) continue;
        uint32_t m = present(u);
        for (int i = 1; i < top[u]; ++i) m &= ~(1u << high_bit(m));
        relevant |= bit(u, high_bit(m));
    }
    return relevant;
}

void Search::top_of(uint64_t relevant, uint8_t* top) const {
    for (int u = 0; u < SUITS; ++u) {
        int low = threshold(relevant, u);
        top[u] = static_cast<uint8_t>(low < PLACES ? __builtin_popcount(present(u) >> low) : 0);
    }
}

bool Search::trick_start(int target, int n) {
    if (n == 1) return last_trick(target);
    // the cut-offs first: they cost less than a look in the table
    const bool on_lead = side_[to_act_];
    uint64_t relevant = 0;
    // trumps that nothing of the other side can beat each take a trick of their own (every card is played)
    if (t_.trump >= 0) {
        int sure[2], place[2];
        const int needed[2] = {n - target + 1, target};
        sure_trumps(sure, needed, place);
        if (sure[1] >= target || n - sure[0] < target) {
            const int side = sure[1] >= target ? 1 : 0;
            relevant_ = bit(t_.trump, place[side]);
            return side == 1;
        }
    }
    if (target == n && on_lead && all_sure(relevant)) {
        relevant_ = relevant;
        return true;
    }
    if (target == n && on_lead && side_seats_ == 1 && lone_leader_loses(to_act_, relevant)) {
        relevant_ = relevant;
        return false;
    }
    const int quick = quick_tricks(to_act_, on_lead ? target : n - target + 1, relevant);
    if (on_lead ? quick >= target : n - quick < target) {
        relevant_ = relevant;
        return on_lead;
    }
    uint64_t key[2];
    const uint64_t hash = group_key(to_act_, key);
    Pattern pattern[SUITS];
    patterns(pattern);
    int hint = -1;
    if (const TranspositionTable::Group* g = tt_.group(key, hash, false)) {
        if (const TranspositionTable::Entry* e = tt_.find(*g, pattern, target, hint)) {
            relevant_ = relevant_of(e->top);
            return e->lower >= target;
        }
    }
    const bool result = expand(target, hint);
    if (aborted) return false;
    uint8_t top[SUITS];
    top_of(relevant_, top);
    tt_.store(key, hash, pattern, top, result ? target : 0, result ? n : target - 1, best_move_);
    return result;
}

bool Search::expand(int target, int hint) {
    const int seat = to_act_;
    int options[CODES], run_top[CODES];
    const int n = moves(seat, options, run_top, hint);
    const bool me = side_[seat];
    uint64_t relevant = 0;
    int small_below[SUITS] = {-1, -1, -1, -1};  // a small card of the suit tried: the others below this are alike
    for (int i = 0; i < n; ++i) {
        const int card = options[i], u = t_.suit[card], p = t_.pos[card];
        if (p < small_below[u]) continue;
        const bool result = child(seat, card, target);
        if (aborted) return false;
        if (result == me) {
            best_move_ = card;
            return me;  // relevant_: the child's
        }
        relevant |= relevant_;
        // the run of equivalent cards the card stood for must stay one: all above the suit's lowest relevant
        // card, or all below it
        if (run_top[i] > p && threshold(relevant_, u) <= run_top[i]) relevant |= bit(u, p);
        if (small_below[u] < 0) {
            int low = threshold(relevant, u);
            if (p < low) small_below[u] = low;
        }
    }
    relevant_ = relevant;
    best_move_ = -1;
    return !me;
}

bool Search::child(int seat, int card, int target) {
    const int led = led_, best_key = best_key_, best_seat = best_seat_, best_card = best_card_;
    play(seat, card);
    if (trick_len_ == 1) {
        led_ = t_.suit[card];
        best_key_ = t_.key[led_][card];
        best_seat_ = seat;
        best_card_ = card;
    } else if (t_.key[led_][card] > best_key_) {
        best_key_ = t_.key[led_][card];
        best_seat_ = seat;
        best_card_ = card;
    }
    bool result;
    if (trick_len_ == k_) {
        int cards[MAX_SEATS];
        std::memcpy(cards, trick_card_, sizeof cards);
        const int winner = best_seat_, won_with = best_card_;
        int same = 0;  // cards of the winning card's suit in the trick
        for (int i = 0; i < k_; ++i) same += t_.suit[cards[i]] == t_.suit[won_with];
        trick_len_ = 0;
        to_act_ = winner;
        result = node(target - (side_[winner] ? 1 : 0));
        // the winning card took the trick by its rank when another card of its suit was played to it
        if (same >= 2) relevant_ |= card_bit(won_with);
        std::memcpy(trick_card_, cards, sizeof cards);
        trick_len_ = k_;
    } else {
        to_act_ = next(seat);
        result = node(target);
    }
    to_act_ = seat;
    unplay(seat, card);
    led_ = led;
    best_key_ = best_key;
    best_seat_ = best_seat;
    best_card_ = best_card;
    return result;
}

bool Search::reaches(int target) { return node(target); }

int Search::value() {
    int lo = 0, hi = hand_[to_act_];
    while (lo < hi && !aborted) {
        int mid = (lo + hi + 1) / 2;
        if (node(mid)) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// A card's value is found by stepping one trick at a time from ``guess`` (the value of the card tried before: the
// values of a seat's cards lie close together, and a zero-window search near the value is what costs), or by
// halving the range without one (``guess`` < 0).
int Search::value_after(int seat, int card, int guess) {
    int lo = 0, hi = hand_[seat];
    if (guess < 0) {
        while (lo < hi && !aborted) {
            int mid = (lo + hi + 1) / 2;
            if (child(seat, card, mid)) lo = mid;
            else hi = mid - 1;
        }
        return lo;
    }
    guess = std::min(std::max(guess, 1), hi);
    if (hi == 0) return 0;
    if (child(seat, card, guess)) {
        lo = guess;
        while (lo < hi && !aborted && child(seat, card, lo + 1)) ++lo;
    } else {
        hi = guess - 1;
        while (lo < hi && !aborted && !child(seat, card, hi)) --hi;
        lo = hi;
    }
    return lo;
}

void Search::card_values(std::vector<int>& cards, std::vector<int>& values) {
    const int seat = to_act_;
    int all[CODES], tried[CODES], run_top[CODES];
    const int n_all = legal(seat, all);
    const int n_tried = moves(seat, tried, run_top, -1);
    int value_of[CODES];
    int guess = -1;
    for (int i = 0; i < n_tried && !aborted; ++i) {
        value_of[tried[i]] = value_after(seat, tried[i], guess);
        guess = value_of[tried[i]];
    }
    // every legal card takes the value of the card tried for its run of equivalent cards: the nearest one
    // tried below it in its suit (``moves`` keeps the weakest card of each run)
    cards.clear();
    values.clear();
    for (int i = 0; i < n_all; ++i) {
        int c = all[i], u = t_.suit[c];
        int rep = -1;
        for (int j = t_.pos[c]; j >= 0 && rep < 0; --j) {
            int d = t_.order[u][j];
            for (int x = 0; x < n_tried; ++x)
                if (tried[x] == d) rep = d;
        }
        cards.push_back(c);
        values.push_back(rep < 0 ? -1 : value_of[rep]);
    }
}

int Search::claim_card() {
    const int seat = to_act_;
    int options[CODES], run_top[CODES];
    const int n = moves(seat, options, run_top, -1);
    const int all = hand_[seat];
    for (int i = 0; i < n && !aborted; ++i)
        if (child(seat, options[i], all)) return options[i];
    return -1;
}

}  // namespace dds
