'use strict';
/**
 * The card sense of the JavaScript bot: one function per decision kind, each
 * returning a legal answer chosen by a short rule of thumb. Nothing here knows
 * about gRPC; the functions take the DecisionRequest as proto-loader decodes
 * it (field names as in arena.proto, enums as their names) and the game's
 * facts from GameStart.
 *
 * Cards are text ("JH"): rank then suit, ranks 7 8 9 T J Q K A, suits S H D C.
 * Trump is a suit, HIGH (no trump) or LOW (no trump, lowest rank wins).
 */

const RANKS = '789TJQKA';
const SUITS = 'SHDC';

// Trump enum names -> 0..3 for the suits S H D C, 4 for high, 5 for low.
const TRUMP_INDEX = {
  TRUMP_SPADES: 0,
  TRUMP_HEARTS: 1,
  TRUMP_DIAMONDS: 2,
  TRUMP_CLUBS: 3,
  TRUMP_HIGH: 4,
  TRUMP_LOW: 5,
};
const HIGH = 4;
const LOW = 5;

// The lowest rank of each deck (the `deck` rule option).
const DECK_LOWEST_RANK = {
  'single-24': '9',
  'single-28': '8',
  'single-32': '7',
  'double-32': 'J',
  'double-40': 'T',
  'double-48': '9',
  'triple-60': 'T',
};

const rankOf = (card) => RANKS.indexOf(card[0]);
const suitOf = (card) => SUITS.indexOf(card[1]);
// S<->C and H<->D: the suit of the same colour, whose jack is the left bower.
const sameColour = (suit) => 3 - suit;
const JACK = RANKS.indexOf('J');

/** The suit a card counts as: under a suit trump the left bower is a trump. */
function effectiveSuit(card, trump) {
  if (trump <= 3 && rankOf(card) === JACK && suitOf(card) === sameColour(trump)) return trump;
  return suitOf(card);
}

/**
 * How strong a card is under `trump`: trumps score 100 and up (right bower
 * 121, left bower 120) and beat everything else; other cards score their rank,
 * reversed when trump is LOW. Only comparable within one effective suit or
 * against trumps, as in a trick.
 */
function power(card, trump) {
  const suit = suitOf(card);
  const rank = rankOf(card);
  if (trump <= 3) {
    if (rank === JACK && suit === trump) return 121;
    if (rank === JACK && suit === sameColour(trump)) return 120;
    if (suit === trump) return 100 + rank;
    return rank;
  }
  return trump === LOW ? 7 - rank : rank;
}

/** The score of `card` in a trick led in suit `led`: -1 when it cannot win. */
function trickKey(card, led, trump) {
  const eff = effectiveSuit(card, trump);
  if (eff === led || (trump <= 3 && eff === trump)) return power(card, trump);
  return -1;
}

/** Index of the card winning `cards` (led by cards[0]); of identical cards the earlier wins. */
function winningIndex(cards, trump) {
  const led = effectiveSuit(cards[0], trump);
  let best = 0;
  for (let i = 1; i < cards.length; i += 1) {
    if (trickKey(cards[i], led, trump) > trickKey(cards[best], led, trump)) best = i;
  }
  return best;
}

/**
 * Tricks this hand might take on its own with `trump`: each trump, each
 * off-suit ace under a suit or HIGH, half a trick for a king under HIGH, and
 * under LOW each card of the deck's lowest two ranks.
 */
function handTricks(hand, trump, game) {
  let tricks = 0;
  const lowest = RANKS.indexOf(DECK_LOWEST_RANK[game.rules.deck] || '9');
  for (const card of hand) {
    const rank = rankOf(card);
    if (trump <= 3) {
      if (power(card, trump) >= 100 || rank === RANKS.indexOf('A')) tricks += 1;
    } else if (trump === HIGH) {
      if (rank === RANKS.indexOf('A')) tricks += 1;
      else if (rank === RANKS.indexOf('K')) tricks += 0.5;
    } else if (rank <= lowest + 1) {
      tricks += 1;
    }
  }
  return tricks;
}

/** Tricks the partners can be counted on for: half their fair share. */
function partnerTricks(game) {
  const partners = game.players / game.teams - 1;
  return (partners * game.cards_each) / game.players / 2;
}

/** The trumps a bid may end up in: its own, or (named after the auction) any the rules allow. */
function trumpsFor(bid, game) {
  if (bid.trump !== 'TRUMP_UNSPECIFIED') return [TRUMP_INDEX[bid.trump]];
  const choices = [0, 1, 2, 3];
  if (game.rules.notrump === 'high' || game.rules.notrump === 'high-low') choices.push(HIGH);
  if (game.rules.notrump === 'high-low') choices.push(LOW);
  return choices;
}

/**
 * Own tricks a special bid needs before its exchange (each card received is
 * counted as a trick), allowing one loser; Infinity: never bid it.
 */
function specialNeeds(kind, game) {
  const n = game.cards_each;
  switch (kind) {
    case 'BID_KIND_CALL3': return n - 4;
    case 'BID_KIND_CALL2': return n - 3;
    case 'BID_KIND_CALL1': return n - 2;
    case 'BID_KIND_BEST': return n - 1 - (game.players / game.teams - 1);
    case 'BID_KIND_ALONE': return n - 1 - Number(game.rules.alone_exchange_cards || 0);
    case 'BID_KIND_MOON': return n; // no exchange and no loser allowed
    case 'BID_KIND_LITTLE_PEPPER': return n - partnerTricks(game);
    default: return Infinity; // big pepper: doubling a bid nobody can count on
  }
}

/** The highest value of `score` over `items`; ties broken by `rng`. */
function best(items, score, rng) {
  let top = -Infinity;
  let tied = [];
  for (const item of items) {
    const s = score(item);
    if (s > top) {
      top = s;
      tied = [item];
    } else if (s === top) {
      tied.push(item);
    }
  }
  return tied[Math.floor(rng() * tied.length)];
}

/**
 * BID: the cheapest bid the hand can make. A trick bid of level L is worth
 * making when the hand (with the partners' share) is good for L tricks in its
 * trump; a special bid when the hand alone is good for what it needs. With
 * neither, pass (the stuck dealer, who may not pass, takes the cheapest bid).
 */
function chooseBid(request, game, rng) {
  const legal = request.legal_bids;
  const hand = request.hand;
  const estimate = (bid, help) => Math.max(...trumpsFor(bid, game).map((t) => handTricks(hand, t, game) + help));
  const makeable = legal.filter((bid) => {
    if (bid.kind === 'BID_KIND_LEVEL') return bid.level <= estimate(bid, partnerTricks(game));
    if (bid.kind === 'BID_KIND_PASS') return false;
    return specialNeeds(bid.kind, game) <= estimate(bid, 0);
  });
  if (makeable.length > 0) {
    // legal_bids runs lowest first: the first makeable one is the cheapest.
    const cheapest = makeable.filter((bid) => bid.kind === makeable[0].kind && bid.level === makeable[0].level);
    return best(cheapest, (bid) => estimate(bid, 0), rng);
  }
  const pass = legal.find((bid) => bid.kind === 'BID_KIND_PASS');
  if (pass) return pass;
  const lowest = legal.filter((bid) => bid.kind === legal[0].kind && bid.level === legal[0].level);
  return best(lowest, (bid) => estimate(bid, 0), rng);
}

/** TRUMP: the legal trump the hand is strongest in. */
function chooseTrump(request, game, rng) {
  return best(request.legal_trumps, (t) => handTricks(request.hand, TRUMP_INDEX[t], game), rng);
}

/** The hand's cards ordered from weakest to strongest under `trump` (duplicates kept). */
function weakestFirst(hand, trump) {
  return [...hand].sort((a, b) => power(a, trump) - power(b, trump));
}

function contractTrump(request) {
  return request.contract ? TRUMP_INDEX[request.contract.trump] : HIGH;
}

/**
 * GIVE: to the declarer (this seat is the partner of a lone bidder), the
 * strongest cards; from the declarer to its partner (an alone exchange), the
 * weakest.
 */
function chooseGive(request) {
  const order = weakestFirst(request.hand, contractTrump(request));
  const toDeclarer = request.contract && request.contract.declarer === request.to_seat;
  return toDeclarer ? order.slice(order.length - request.count) : order.slice(0, request.count);
}

/** DISCARD: the weakest cards. */
function chooseDiscard(request) {
  return weakestFirst(request.hand, contractTrump(request)).slice(0, request.count);
}

/**
 * PLAY: lead the strongest card; when following, play low if a partner is
 * winning the trick, else the cheapest card that takes the lead, else the
 * weakest card.
 */
function choosePlay(request, game, rng) {
  const trump = contractTrump(request);
  const legal = request.legal_cards;
  const trick = request.current_trick;
  if (trick.length === 0) return best(legal, (card) => power(card, trump), rng);
  const played = trick.map((p) => p.card);
  const winner = trick[winningIndex(played, trump)];
  const weakest = (cards) => best(cards, (card) => -power(card, trump), rng);
  if (winner.seat % game.teams === game.seat % game.teams) return weakest(legal);
  const led = effectiveSuit(played[0], trump);
  const toBeat = trickKey(winner.card, led, trump);
  const winners = legal.filter((card) => trickKey(card, led, trump) > toBeat);
  return weakest(winners.length > 0 ? winners : legal);
}

/**
 * The answer to one DecisionRequest as the `choice` part of an Action: an
 * object with exactly one of bid, trump, cards or card.
 */
function decide(request, game, rng) {
  switch (request.kind) {
    case 'DECISION_KIND_BID': return { bid: chooseBid(request, game, rng) };
    case 'DECISION_KIND_TRUMP': return { trump: chooseTrump(request, game, rng) };
    case 'DECISION_KIND_GIVE': return { cards: { cards: chooseGive(request) } };
    case 'DECISION_KIND_DISCARD': return { cards: { cards: chooseDiscard(request) } };
    case 'DECISION_KIND_PLAY': return { card: choosePlay(request, game, rng) };
    default: throw new Error(`unknown decision kind ${request.kind}`);
  }
}

/**
 * A small seeded random generator (mulberry32) over the text `seed`: the same
 * text gives the same numbers, so a game replays exactly.
 */
function seededRandom(seed) {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i += 1) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

module.exports = { decide, seededRandom, power, effectiveSuit, winningIndex };
