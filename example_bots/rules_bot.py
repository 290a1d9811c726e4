"""A rule-based Bid Euchre bot in the spirit of NeuralPlay's level 3.

Bidding is a count of likely tricks: ``estimate_tricks`` (``sdk.handvalue``, the
counting this bot shares with the Monte Carlo bot and ``arena analyze``) values each card by
how many unseen cards outrank it, how likely its suit is to be trumped, and
the length of the suit; partners' bids add what they showed (NeuralPlay's
convention: an early bid is the tricks the bidder takes alone, so a later
partner adds its own to it). Lone special bids (call, best, alone, moon) are
made only with at most the number of losing cards the exchange can cure.

Play follows table rules: lead bowers and aces, draw trumps as declarer,
don't trump partner's winning card, play second hand low, in last seat play
just high enough to win, throw losers from short suits. It counts cards
(``sdk.knowledge``) to know which cards are the highest left and who has
shown out of a suit. On lead holding nothing but sure winners
(``sdk.knowledge.sure_claim``), it claims the rest of the hand instead.

Run it against a referee with ``python -m example_bots.rules_bot``.
"""

from __future__ import annotations

from collections.abc import Sequence

from sdk import (
    CALL_CARDS,
    CLAIM,
    PASS,
    Bid,
    Bot,
    Card,
    ClaimAnswer,
    Rules,
    SeatView,
    Trump,
    card_power,
    effective_suit,
    is_trump,
    run,
    winning_index,
)
from sdk.handvalue import (
    BID_MARGIN,
    SUPPORT_NO_TRUMP_NAMED,
    SUPPORT_OTHER_TRUMP,
    SUPPORT_PASSED,
    SUPPORT_SAME_TRUMP,
    SUPPORT_UNKNOWN,
    estimate_tricks,
    keep_value,
    losers,
    weakest,
)
from sdk.knowledge import Knowledge, knowledge_of, sure_claim


class RulesBot(Bot):
    """Bids a count of tricks and plays by table rules (see the module docstring)."""

    name = "rules"
    version = "1"

    # ---------------------------------------------------------------- bidding

    def bid(self, view: SeatView, legal: Sequence[Bid]) -> Bid:
        rules = view.rules
        options = [b for b in legal if not b.is_pass]
        if not options:
            return PASS
        own = {t: estimate_tricks(view.hand, t, rules) for t in rules.trump_choices}
        team = {t: own[t] + self.partner_support(view, t) for t in rules.trump_choices}
        lost = {t: losers(view.hand, t, rules) for t in rules.trump_choices}
        partner_bid = self._partner_bid(view)

        # A lone special bid, when the hand has no more losers than the exchange can cure.
        lone = [b for b in options if b.is_lone and self._lone_ok(b, lost, partner_bid is not None, rules)]
        if lone:
            return max(lone, key=lambda b: (rules.special_value(b.kind), -lost[self._lone_trump(b, lost, own)]))

        def strength(b: Bid) -> float:
            if b.trump is not None:
                return team[b.trump]
            return max(team[t] for t in rules.trump_choices if t.is_suit or b.level >= rules.min_notrump_bid)

        def acceptable(b: Bid) -> bool:
            if b.kind == "level":
                return strength(b) >= b.level + BID_MARGIN
            # Pepper: every trick, with partner's help; little pepper with one loser
            # partner should cover, big pepper (double the stake) with none.
            most_lost = 1 if b.kind == "little-pepper" else 0
            return any(lost[t] <= most_lost and team[t] >= rules.cards_each - 0.2 for t in rules.trump_choices)

        ranked = [b for b in options if not b.is_lone]  # legal bids come in rank order
        stuck = len(options) == len(legal)
        if stuck:  # stick the dealer: the cheapest bid, in the best trump
            low = [b for b in ranked if b.kind == ranked[0].kind and b.level == ranked[0].level] or options
            return max(low, key=strength)
        ok = [b for b in ranked if acceptable(b)]
        if not ok:
            return PASS
        high_seat = self._high_bidder(view)
        if high_seat is not None and rules.team_of(high_seat) == view.team:
            # Partner holds the contract: raise only to keep the opponents out.
            if not self._opponents_to_speak(view) or partner_bid is None:
                return PASS
            raise_ = [b for b in ok if b.trump is None or b.trump == partner_bid.trump]
            if not raise_ or strength(raise_[0]) < raise_[0].level + BID_MARGIN + 1:
                return PASS
            ok = raise_
        already_bid = any(s == view.seat and not b.is_pass for s, b in view.bids)
        if already_bid or not self._opponents_to_speak(view):
            # Raising in an auction that goes on, or the last word: the cheapest bid that wins it.
            cheapest = [b for b in ok if b.level == ok[0].level and b.kind == ok[0].kind]
            return max(cheapest, key=strength)
        # A first bid says what the hand is worth (own tricks before partner has spoken, the
        # team's after), so a partner still to bid can add to it and opponents must climb over it.
        trump = max(ok, key=strength).trump
        target = own if partner_bid is None else team
        worth = target[trump] if trump is not None else max(target.values())
        mine = [b for b in ok if b.trump == trump]
        fitting = [b for b in mine if b.kind == "level" and b.level <= worth - BID_MARGIN]
        if fitting:
            return fitting[-1]
        # Above the trick levels only pepper is left; it was acceptable, so the hand takes every trick.
        pepper = [b for b in mine if b.kind != "level"]
        return pepper[0] if pepper else PASS  # else too weak to open: leave it to partner

    def partner_support(self, view: SeatView, trump: Trump) -> float:
        """Tricks the partners should add with ``trump``, from what their bids showed.

        Only a partner's first bid counts: a first bid shows the hand's worth,
        later ones are steps in the auction (reading them as strength would make
        two partners talk each other up).
        """
        rules = view.rules
        average = rules.cards_each / rules.players
        spoke: dict[int, Bid] = {}
        for seat, bid in view.bids:
            if seat in view.partners and (seat not in spoke or (spoke[seat].is_pass and not bid.is_pass)):
                spoke[seat] = bid
        support = 0.0
        for partner in view.partners:
            shown = spoke.get(partner)
            if shown is None:
                support += SUPPORT_UNKNOWN * average
            elif shown.is_pass:
                support += SUPPORT_PASSED * average
            else:
                level = shown.level if shown.kind == "level" else rules.cards_each
                if shown.trump is None:
                    share = SUPPORT_NO_TRUMP_NAMED
                else:
                    share = SUPPORT_SAME_TRUMP if shown.trump == trump else SUPPORT_OTHER_TRUMP
                support += share * level
        return support

    @staticmethod
    def _partner_bid(view: SeatView) -> Bid | None:
        """The first bid (not a pass) a partner made."""
        return next((b for s, b in view.bids if s in view.partners and not b.is_pass), None)

    @staticmethod
    def _high_bidder(view: SeatView) -> int | None:
        seats = [s for s, b in view.bids if not b.is_pass]
        return seats[-1] if seats else None

    @staticmethod
    def _opponents_to_speak(view: SeatView) -> bool:
        """Whether an opponent may still bid after this turn (single and two rounds: until the turns run out)."""
        rules = view.rules
        n = rules.players
        turns = len(view.bids)
        total = {"single": n, "two": 2 * n}.get(rules.bidding_rounds)
        after = range(turns + 1, total) if total is not None else range(turns + 1, turns + n)
        first = (view.dealer + 1) % n
        return any(rules.team_of((first + t) % n) != view.team for t in after)

    def _lone_ok(self, bid: Bid, lost: dict[Trump, int], partner_bid: bool, rules: Rules) -> bool:
        """Lone bids only with as many losers as the exchange can cure (one more when a partner showed strength)."""
        trump_losers = lost[bid.trump] if bid.trump is not None else min(lost.values())
        if bid.kind == "moon":
            return trump_losers == 0
        if bid.kind in CALL_CARDS:
            cure = min(CALL_CARDS[bid.kind] - 1, 1)
        elif bid.kind == "best":
            cure = 1
        elif bid.kind == "alone":
            cure = min(rules.alone_exchange_cards - 1, 1)
        else:
            return False
        return trump_losers <= cure + (1 if partner_bid and cure > 0 else 0) and (cure > 0 or trump_losers == 0)

    @staticmethod
    def _lone_trump(bid: Bid, lost: dict[Trump, int], own: dict[Trump, float]) -> Trump:
        if bid.trump is not None:
            return bid.trump
        return min(lost, key=lambda t: (lost[t], -own[t]))

    def trump(self, view: SeatView, legal: Sequence[Trump]) -> Trump:
        rules = view.rules
        contract_bid = next((b for s, b in reversed(view.bids) if not b.is_pass), None)
        if contract_bid is not None and contract_bid.is_lone:
            lost = {t: losers(view.hand, t, rules) for t in legal}
            own = {t: estimate_tricks(view.hand, t, rules) for t in legal}
            return min(legal, key=lambda t: (lost[t], -own[t]))
        return max(legal, key=lambda t: estimate_tricks(view.hand, t, rules) + self.partner_support(view, t))

    # -------------------------------------------------------------- exchanges

    def give(self, view: SeatView, count: int, to: int) -> list[Card]:
        contract = view.contract
        trump = view.trump if view.trump is not None else Trump.HIGH
        knowledge = knowledge_of(view)
        if contract is not None and contract.declarer == to:
            # To a lone declarer: the best cards for its contract, trumps and masters first.
            return sorted(view.hand, key=lambda c: keep_value(c, view.hand, trump, knowledge), reverse=True)[:count]
        return weakest(view.hand, count, trump, knowledge)  # declarer going alone: keep the strength

    def discard(self, view: SeatView, count: int) -> list[Card]:
        trump = view.trump if view.trump is not None else Trump.HIGH
        return weakest(view.hand, count, trump, knowledge_of(view))

    # ------------------------------------------------------------------- play

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card | ClaimAnswer:
        if sure_claim(view):
            return CLAIM
        return self.choose_card(view, legal)

    def choose_card(self, view: SeatView, legal: Sequence[Card]) -> Card:
        """The card to play (when not claiming)."""
        if len(legal) == 1:
            return legal[0]
        knowledge = knowledge_of(view)
        if not view.current_trick:
            return self.lead(view, legal, knowledge)
        return self.follow(view, legal, knowledge)

    def lead(self, view: SeatView, legal: Sequence[Card], k: Knowledge) -> Card:
        trump = view.trump
        assert trump is not None and view.contract is not None
        rules = view.rules
        declaring = rules.team_of(view.contract.declarer) == view.team
        opponents = [s for s in view.contract.active if rules.team_of(s) != view.team]
        masters = [c for c in legal if k.is_master(c)]
        if trump.is_suit:
            trumps = sorted((c for c in legal if is_trump(c, trump)), key=lambda c: card_power(c, trump), reverse=True)
            opponents_trumps = k.unseen_in_suit(trump) > 0 and any(not k.is_void(o, trump) for o in opponents)
            if declaring and trumps and opponents_trumps:
                # Lead bowers: draw the opponents' trumps with the highest ones left.
                if k.is_master(trumps[0]):
                    return trumps[0]
                if view.contract.declarer == view.seat and len(trumps) >= 3:
                    return trumps[0]  # drive out the higher trumps while holding length
            # Lead aces: masters of side suits the opponents have not shown out of.
            safe = [
                c
                for c in masters
                if not is_trump(c, trump)
                and (not opponents_trumps or not any(k.is_void(o, effective_suit(c, trump)) for o in opponents))
            ]
            if safe:
                return min(safe, key=lambda c: self._suit_length(view.hand, c, trump))
            side = [c for c in legal if not is_trump(c, trump)]
            if side:
                # A low card of a short side suit: it empties the suit for ruffing later,
                # preferring a suit a partner can ruff and no opponent can.
                def score(c: Card) -> tuple:
                    suit = effective_suit(c, trump)
                    partner_ruffs = any(k.is_void(p, suit) and not k.is_void(p, trump) for p in view.partners)
                    opponent_ruffs = any(k.is_void(o, suit) for o in opponents)
                    return (
                        opponent_ruffs,
                        not partner_ruffs,
                        self._suit_length(view.hand, c, trump),
                        card_power(c, trump),
                    )

                return min(side, key=score)
            return trumps[0] if k.is_master(trumps[0]) else trumps[-1]
        # No trump: cash masters from the longest suit, else lead low from the longest suit (length wins later).
        if masters:
            return max(masters, key=lambda c: (self._suit_length(view.hand, c, trump), card_power(c, trump)))
        return min(legal, key=lambda c: (-self._suit_length(view.hand, c, trump), card_power(c, trump)))

    def follow(self, view: SeatView, legal: Sequence[Card], k: Knowledge) -> Card:
        trump = view.trump
        contract = view.contract
        assert trump is not None and contract is not None
        rules = view.rules
        trick = view.current_trick
        cards = [c for _, c in trick]
        win_seat = trick[winning_index(cards, trump)][0]
        after = self._seats_after(view)
        opponents_after = [s for s in after if rules.team_of(s) != view.team]
        winners = [c for c in legal if winning_index([*cards, c], trump) == len(cards)]
        led = effective_suit(cards[0], trump)

        if rules.team_of(win_seat) == view.team:
            # Partner is winning: don't overtake or trump it unless it is likely to be beaten.
            if not opponents_after or not self._beatable(cards, opponents_after, k, trump):
                return self.throwaway(view, legal, k)
            overtake = [
                c
                for c in winners
                if effective_suit(c, trump) == led and not self._beatable([*cards, c], opponents_after, k, trump)
            ]
            return self._lowest(overtake, trump) if overtake else self.throwaway(view, legal, k)
        if winners:
            if not opponents_after:
                return self._lowest(winners, trump)  # last to play: just high enough to win
            safe = [c for c in winners if not self._beatable([*cards, c], opponents_after, k, trump)]
            if safe:
                return self._lowest(safe, trump)
            if len(opponents_after) < len(after):
                return self.throwaway(view, legal, k)  # second hand low: partner still to play
            return max(winners, key=lambda c: card_power(c, trump))  # the best chance against the last opponents
        return self.throwaway(view, legal, k)

    def throwaway(self, view: SeatView, legal: Sequence[Card], k: Knowledge) -> Card:
        """The card to lose: the lowest of the suit led, else a loser from a short side suit."""
        trump = view.trump
        assert trump is not None
        return weakest(legal, 1, trump, k)[0] if len(legal) > 1 else legal[0]

    # ---------------------------------------------------------------- helpers

    @staticmethod
    def _lowest(cards: Sequence[Card], trump: Trump) -> Card:
        return min(cards, key=lambda c: card_power(c, trump))

    @staticmethod
    def _suit_length(hand: Sequence[Card], card: Card, trump: Trump) -> int:
        suit = effective_suit(card, trump)
        return sum(1 for c in hand if effective_suit(c, trump) == suit)

    @staticmethod
    def _seats_after(view: SeatView) -> list[int]:
        """Active seats still to play to the current trick after this one, in order."""
        contract = view.contract
        assert contract is not None
        n = view.rules.players
        leader = view.current_trick[0][0]
        order = sorted(contract.active, key=lambda s: (s - leader) % n)
        return order[len(view.current_trick) + 1 :]

    @staticmethod
    def _beatable(cards: Sequence[Card], opponents: Sequence[int], k: Knowledge, trump: Trump) -> bool:
        """Could an opponent still to play beat the trick as it stands, from the unseen cards?

        Of the suit led, only a seat that has not shown out of it; with a trump,
        only a seat that may be out of the suit led (shown out, or the suit is
        running low) and has not shown out of trumps.
        """
        led = effective_suit(cards[0], trump)
        short_led = k.unseen_in_suit(led) <= len(opponents)
        for c in k.unseen:
            if winning_index([*cards, c], trump) != len(cards):
                continue
            if effective_suit(c, trump) == led:
                if any(not k.is_void(o, led) for o in opponents):
                    return True
            elif any((k.is_void(o, led) or short_led) and not k.is_void(o, trump) for o in opponents):
                return True
        return False


__all__ = ["RulesBot", "estimate_tricks", "keep_value", "losers", "weakest"]

if __name__ == "__main__":
    run(RulesBot())
