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

TranspositionTable::TranspositionTable(int bits)
    : entries_(static_cast<Entry*>(std::calloc(static_cast<size_t>(4) << bits, sizeof(Entry))), &std::free),
      bucket_mask_((uint64_t{1} << bits) - 1) {
    // calloc: the pages are zeroed by the system as they are first touched, not all at once here
    if (!entries_) throw std::bad_alloc();
}

TranspositionTable::Entry* TranspositionTable::find(const uint64_t* key, uint64_t hash) {
    Entry* bucket = entries_.get() + (hash & bucket_mask_) * 4;
    // only what this call found: an answer never depends on what was asked before
    for (int i = 0; i < 4; ++i)
        if (bucket[i].used && bucket[i].generation == generation_ &&
            std::memcmp(bucket[i].key, key, sizeof bucket[i].key) == 0)
            return &bucket[i];
    return nullptr;
}

void TranspositionTable::store(const uint64_t* key, uint64_t hash, int depth, int lower, int upper) {
    Entry* bucket = entries_.get() + (hash & bucket_mask_) * 4;
    Entry* victim = nullptr;
    int worst = 1 << 30;
    for (int i = 0; i < 4; ++i) {
        Entry& e = bucket[i];
        if (e.used && e.generation == generation_ && std::memcmp(e.key, key, sizeof e.key) == 0) {
            // both are true bounds of the same position
            e.lower = static_cast<uint8_t>(std::max<int>(e.lower, lower));
            e.upper = static_cast<uint8_t>(std::min<int>(e.upper, upper));
            e.generation = generation_;
            return;
        }
        // replace an entry of an earlier call (or none), else the one with the fewest tricks left
        int worth = !e.used || e.generation != generation_ ? -1 : e.depth;
        if (worth < worst) {
            worst = worth;
            victim = &e;
        }
    }
    std::memcpy(victim->key, key, sizeof victim->key);
    victim->generation = generation_;
    victim->lower = static_cast<uint8_t>(lower);
    victim->upper = static_cast<uint8_t>(upper);
    victim->depth = static_cast<uint8_t>(depth);
    victim->used = 1;
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
    for (int i = 0; i < trick_len_; ++i) {
        int card = p.trick[i];
        int seat = ((to_act_ - trick_len_ + i) % k_ + k_) % k_;
        trick_card_[i] = card;
        if (i == 0) {
            led_ = t_.suit[card];
            best_key_ = t_.key[led_][card];
            best_seat_ = seat;
        } else if (t_.key[led_][card] > best_key_) {
            best_key_ = t_.key[led_][card];
            best_seat_ = seat;
        }
    }
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
// another hand, nor the trick's best card), then ordered so that a cut-off comes early.
int Search::moves(int seat, int* out) {
    const uint32_t m = legal_mask(seat);
    int n = 0;
    int score[CODES];
    const bool me = side_[seat];
    const int trump = t_.trump;
    // what the other side (of ``seat``) holds: the top of each suit, and who could ruff
    int their_top[SUITS];
    bool ruffable[SUITS] = {false, false, false, false};
    int ours_top[SUITS];
    for (int u = 0; u < SUITS; ++u) {
        uint32_t theirs = 0, ours = 0;
        for (int s = 0; s < k_; ++s) {
            if (s == seat) continue;
            if (side_[s] == me) ours |= ranks_[s][u];
            else theirs |= ranks_[s][u];
        }
        their_top[u] = theirs ? high_bit(theirs) : -1;
        ours_top[u] = ours ? high_bit(ours) : -1;
        if (trump >= 0 && u != trump)
            for (int s = 0; s < k_; ++s)
                if (side_[s] != me && !length_[s][u] && ranks_[s][trump]) ruffable[u] = true;
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
            if (!mine || open) continue;
            open = !others;
            int value = (u == trump ? 16 : 0) + j;  // what the card is worth keeping
            int sc;
            if (!trick_len_) {
                bool top = j >= their_top[u] && !ruffable[u];
                if (top) sc = 100 + (u == trump ? 10 : 0) + j;
                else if (ours_top[u] > their_top[u] && !ruffable[u]) sc = 60 - j;
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
            score[n] = sc;
            ++n;
        }
    }
    // insertion sort, best first (few cards)
    for (int i = 1; i < n; ++i) {
        int c = out[i], sc = score[i], j = i - 1;
        while (j >= 0 && score[j] < sc) {
            out[j + 1] = out[j];
            score[j + 1] = score[j];
            --j;
        }
        out[j + 1] = c;
        score[j + 1] = sc;
    }
    return n;
}

// The tricks ``leader`` can cash one after another whatever the others hold: its cards at least as high as
// every card of their suit in any other hand (the leader plays first, so an equal copy loses to it), trumps
// last, and a plain suit only as many times as every other hand holding a trump can follow it.
int Search::cashable(int hand) const {
    const int trump = t_.trump;
    int total = 0;
    for (int u = 0; u < SUITS; ++u) {
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
        total += won;
    }
    return total;
}

// The tricks the side on lead cashes one after another: the leader's own winners, or a partner's, reached by
// leading a suit in which the partner holds a card higher than any other (not a copy: it plays after the leader)
// and nobody can ruff (that trick is the first of the partner's winners).
int Search::quick_tricks(int leader) const {
    int best = cashable(leader);
    const int trump = t_.trump;
    for (int p = 0; p < k_; ++p) {
        if (p == leader || side_[p] != side_[leader] || !hand_[p]) continue;
        bool entry = false;
        for (int u = 0; u < SUITS && !entry; ++u) {
            if (!ranks_[leader][u] || !ranks_[p][u]) continue;
            uint32_t others = 0;
            for (int s = 0; s < k_; ++s)
                if (s != p) others |= ranks_[s][u];
            if (high_bit(ranks_[p][u]) <= high_bit(others)) continue;  // a copy played before it would win
            entry = true;
            if (trump >= 0 && u != trump)
                for (int s = 0; s < k_; ++s)
                    if (s != p && ranks_[s][trump] && !length_[s][u]) entry = false;
        }
        if (entry) best = std::max(best, cashable(p));
    }
    return best;
}

// For each side (0: the others, 1: the side counted): a number of tricks its trumps take whatever is played. Each
// trump of one hand falls in a trick of its own, and takes it unless the other side plays a trump as high or higher
// to it; each trump of the other side can do that to one of them at most. So of a hand's trumps, those left when
// the other side's trumps are matched, highest first, each to a trump of the hand no higher, take a trick each.
void Search::sure_trumps(int* sure) const {
    const int trump = t_.trump;
    // every trump of each side, copies included, as places in the suit, highest first
    int held[2][MAX_COPIES * CODES], count[2] = {0, 0};
    for (int p = t_.order_len[trump] - 1; p >= 0; --p) {
        int c = t_.order[trump][p];
        for (int s = 0; s < k_; ++s)
            for (int n = count_[s][c]; n > 0; --n) held[side_[s]][count[side_[s]]++] = p;
    }
    sure[0] = sure[1] = 0;
    for (int s = 0; s < k_; ++s) {
        int side = side_[s], other = !side, next_other = 0, unmatched = 0;
        for (int p = t_.order_len[trump] - 1; p >= 0; --p) {
            for (int n = count_[s][t_.order[trump][p]]; n > 0; --n) {
                if (next_other < count[other] && held[other][next_other] >= p) ++next_other;
                else ++unmatched;
            }
        }
        sure[side] = std::max(sure[side], unmatched);
    }
}

// The side on lead takes every trick left when every card it holds is a sure winner: as high as every card of its
// suit the others hold (the side plays it first: it leads, and whoever of it wins leads again), and a plain card
// only while the others hold no trump.
bool Search::all_sure() const {
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
    for (int s = 0; s < k_; ++s) {
        if (!side_[s]) continue;
        for (int u = 0; u < SUITS; ++u) {
            uint32_t mine = ranks_[s][u];
            if (!mine) continue;
            if (ruff && u != trump) return false;
            if (__builtin_ctz(mine) < top[u]) return false;  // its lowest card of the suit is beaten
        }
    }
    return true;
}

// A side of one seat in play that must take every trick, on lead: it leads every trick, so it leads each of its
// suits in the end, and a seat of the other side keeping a card above all of its own in that suit takes a trick.
bool Search::lone_leader_loses(int leader) const {
    for (int u = 0; u < SUITS; ++u) {
        uint32_t mine = ranks_[leader][u];
        if (!mine) continue;
        for (int s = 0; s < k_; ++s)
            if (!side_[s] && ranks_[s][u] && high_bit(ranks_[s][u]) > high_bit(mine)) return true;
    }
    return false;
}

bool Search::last_trick(int target) const {
    int s = to_act_;
    int card = __builtin_ctz(held_[s]);
    int led = t_.suit[card];
    int best = t_.key[led][card], winner = s;
    for (int i = 1; i < k_; ++i) {
        s = next(s);
        card = __builtin_ctz(held_[s]);
        if (t_.key[led][card] > best) {
            best = t_.key[led][card];
            winner = s;
        }
    }
    return (side_[winner] ? 1 : 0) >= target;
}

uint64_t Search::layout_key(int leader, uint64_t* key) const {
    std::memset(key, 0, sizeof(uint64_t) * KEY_WORDS);
    int bit = 0;
    auto put = [&](uint64_t v, int width) {
        int word = bit >> 6, shift = bit & 63;
        key[word] |= v << shift;
        if (shift + width > 64) key[word + 1] |= v >> (64 - shift);
        bit += width;
    };
    put(static_cast<uint64_t>(leader) | static_cast<uint64_t>(k_) << 3 | static_cast<uint64_t>(side_mask_) << 6, 12);
    const int width = 2 * k_;
    for (int u = 0; u < SUITS; ++u) {
        for (int j = 0; j < t_.order_len[u]; ++j) {
            uint16_t h = holders_[t_.order[u][j]];
            if (h) put(h, width);
        }
        put(0, width);  // the end of a suit (no card is held by nobody)
    }
    uint64_t hash = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i <= (bit - 1) >> 6; ++i) hash = mix(hash ^ key[i]) + static_cast<uint64_t>(i);
    return hash;
}

bool Search::node(int target) {
    const int n = hand_[to_act_];  // tricks left, the one in progress included
    if (target <= 0) return true;
    if (target > n) return false;
    if (++nodes > limit_) {
        aborted = true;
        return false;
    }
    if (trick_len_ == 0) {
        if (n == 1) return last_trick(target);
        uint64_t key[KEY_WORDS];
        uint64_t hash = layout_key(to_act_, key);
        int lower = 0, upper = n;
        if (const TranspositionTable::Entry* e = tt_.find(key, hash)) {
            lower = e->lower;
            upper = e->upper;
            if (lower >= target) return true;
            if (upper < target) return false;
        }
        // trumps that nothing of the other side can beat each take a trick of their own (every card is played)
        if (t_.trump >= 0) {
            int sure[2];
            sure_trumps(sure);
            lower = std::max(lower, sure[1]);
            upper = std::min(upper, n - sure[0]);
            if (lower >= target || upper < target) {
                tt_.store(key, hash, n, lower, upper);
                return lower >= target;
            }
        }
        if (target == n && side_[to_act_] && all_sure()) {
            tt_.store(key, hash, n, n, upper);
            return true;
        }
        if (target == n && side_[to_act_] && side_seats_ == 1 && lone_leader_loses(to_act_)) {
            tt_.store(key, hash, n, lower, std::min(upper, n - 1));
            return false;
        }
        int quick = quick_tricks(to_act_);
        if (side_[to_act_]) {
            lower = std::max(lower, quick);
            if (lower >= target) {
                tt_.store(key, hash, n, lower, upper);
                return true;
            }
        } else {
            upper = std::min(upper, n - quick);
            if (upper < target) {
                tt_.store(key, hash, n, lower, upper);
                return false;
            }
        }
        bool result = expand(target);
        if (aborted) return false;
        if (result) lower = std::max(lower, target);
        else upper = std::min(upper, target - 1);
        tt_.store(key, hash, n, lower, upper);
        return result;
    }
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
        if (best_side && target <= 1) return true;
        if (!best_side && target > n - 1) return false;
    }
    return expand(target);
}

bool Search::expand(int target) {
    const int seat = to_act_;
    int options[CODES];
    const int n = moves(seat, options);
    const bool me = side_[seat];
    for (int i = 0; i < n; ++i) {
        bool result = child(seat, options[i], target);
        if (aborted) return false;
        if (result == me) return me;
    }
    return !me;
}

bool Search::child(int seat, int card, int target) {
    const int led = led_, best_key = best_key_, best_seat = best_seat_;
    play(seat, card);
    if (trick_len_ == 1) {
        led_ = t_.suit[card];
        best_key_ = t_.key[led_][card];
        best_seat_ = seat;
    } else if (t_.key[led_][card] > best_key_) {
        best_key_ = t_.key[led_][card];
        best_seat_ = seat;
    }
    bool result;
    if (trick_len_ == k_) {
        int cards[MAX_SEATS];
        std::memcpy(cards, trick_card_, sizeof cards);
        const int winner = best_seat_;
        trick_len_ = 0;
        to_act_ = winner;
        result = node(target - (side_[winner] ? 1 : 0));
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

int Search::value_after(int seat, int card, int guess) {
    int lo = 0, hi = hand_[seat];
    if (guess > lo && guess <= hi) {
        if (child(seat, card, guess)) lo = guess;
        else hi = guess - 1;
    }
    while (lo < hi && !aborted) {
        int mid = (lo + hi + 1) / 2;
        if (child(seat, card, mid)) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

void Search::card_values(std::vector<int>& cards, std::vector<int>& values) {
    const int seat = to_act_;
    int all[CODES], tried[CODES];
    const int n_all = legal(seat, all);
    const int n_tried = moves(seat, tried);
    int value_of[CODES];
    int guess = hand_[seat];
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
    int options[CODES];
    const int n = moves(seat, options);
    const int all = hand_[seat];
    for (int i = 0; i < n && !aborted; ++i)
        if (child(seat, options[i], all)) return options[i];
    return -1;
}

}  // namespace dds
