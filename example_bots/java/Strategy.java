import bideuchre.v1.Action;
import bideuchre.v1.Bid;
import bideuchre.v1.BidKind;
import bideuchre.v1.CardList;
import bideuchre.v1.DecisionRequest;
import bideuchre.v1.GameStart;
import bideuchre.v1.Play;
import bideuchre.v1.Trump;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;

/**
 * The card sense of the Java bot: one method per decision kind, each returning a legal answer chosen by a
 * short rule of thumb (the JavaScript bot's rules, example_bots/js/strategy.js). Nothing here knows about
 * gRPC beyond the generated message classes it reads.
 *
 * <p>Cards are text ("JH"): rank then suit, ranks 7 8 9 T J Q K A, suits S H D C. Trump is a suit (0..3 for
 * S H D C), HIGH (no trump) or LOW (no trump, the lowest rank wins).
 */
final class Strategy {
  private static final String RANKS = "789TJQKA";
  private static final String SUITS = "SHDC";
  static final int HIGH = 4;
  static final int LOW = 5;
  private static final int JACK = RANKS.indexOf('J');
  private static final int KING = RANKS.indexOf('K');
  private static final int ACE = RANKS.indexOf('A');

  /** The lowest rank of each deck (the {@code deck} rule option). */
  private static final Map<String, Character> DECK_LOWEST_RANK =
      Map.of(
          "single-24", '9',
          "single-28", '8',
          "single-32", '7',
          "double-32", 'J',
          "double-40", 'T',
          "double-48", '9',
          "triple-60", 'T');

  /** What GameStart said about the current game, and its random generator. */
  record Game(int seat, int players, int teams, int cardsEach, Map<String, String> rules, Random rng) {
    static Game of(GameStart start, Random rng) {
      return new Game(
          start.getSeat(), start.getPlayers(), start.getTeams(), start.getCardsEach(), start.getRulesMap(), rng);
    }
  }

  private Strategy() {}

  static int rankOf(String card) {
    return RANKS.indexOf(card.charAt(0));
  }

  static int suitOf(String card) {
    return SUITS.indexOf(card.charAt(1));
  }

  /** S<->C and H<->D: the suit of the same colour, whose jack is the left bower. */
  static int sameColour(int suit) {
    return 3 - suit;
  }

  /** The Trump enum as 0..3 for the suits S H D C, 4 for high, 5 for low. */
  static int trumpIndex(Trump trump) {
    return trump.getNumber() - Trump.TRUMP_SPADES_VALUE;
  }

  /** The suit a card counts as: under a suit trump the left bower is a trump. */
  static int effectiveSuit(String card, int trump) {
    if (trump <= 3 && rankOf(card) == JACK && suitOf(card) == sameColour(trump)) return trump;
    return suitOf(card);
  }

  /**
   * How strong a card is under {@code trump}: trumps score 100 and up (right bower 121, left bower 120) and
   * beat everything else; other cards score their rank, reversed when trump is LOW. Only comparable within
   * one effective suit or against trumps, as in a trick.
   */
  static int power(String card, int trump) {
    int suit = suitOf(card);
    int rank = rankOf(card);
    if (trump <= 3) {
      if (rank == JACK && suit == trump) return 121;
      if (rank == JACK && suit == sameColour(trump)) return 120;
      if (suit == trump) return 100 + rank;
      return rank;
    }
    return trump == LOW ? 7 - rank : rank;
  }

  /** The score of {@code card} in a trick led in suit {@code led}: -1 when it cannot win. */
  static int trickKey(String card, int led, int trump) {
    int eff = effectiveSuit(card, trump);
    if (eff == led || (trump <= 3 && eff == trump)) return power(card, trump);
    return -1;
  }

  /** Index of the card winning {@code cards} (led by cards[0]); of identical cards the earlier wins. */
  static int winningIndex(List<String> cards, int trump) {
    int led = effectiveSuit(cards.get(0), trump);
    int best = 0;
    for (int i = 1; i < cards.size(); i++) {
      if (trickKey(cards.get(i), led, trump) > trickKey(cards.get(best), led, trump)) best = i;
    }
    return best;
  }

  /**
   * Tricks this hand might take on its own with {@code trump}: each trump, each off-suit ace under a suit or
   * HIGH, half a trick for a king under HIGH, and under LOW each card of the deck's lowest two ranks.
   */
  static double handTricks(List<String> hand, int trump, Game game) {
    int lowest = RANKS.indexOf(DECK_LOWEST_RANK.getOrDefault(game.rules().get("deck"), '9'));
    double tricks = 0;
    for (String card : hand) {
      int rank = rankOf(card);
      if (trump <= 3) {
        if (power(card, trump) >= 100 || rank == ACE) tricks += 1;
      } else if (trump == HIGH) {
        if (rank == ACE) tricks += 1;
        else if (rank == KING) tricks += 0.5;
      } else if (rank <= lowest + 1) {
        tricks += 1;
      }
    }
    return tricks;
  }

  /** Tricks the partners can be counted on for: half their fair share. */
  static double partnerTricks(Game game) {
    int partners = game.players() / game.teams() - 1;
    return (double) (partners * game.cardsEach()) / game.players() / 2;
  }

  /** The trumps a bid may end up in: its own, or (named after the auction) any the rules allow. */
  static List<Integer> trumpsFor(Bid bid, Game game) {
    if (bid.getTrump() != Trump.TRUMP_UNSPECIFIED) return List.of(trumpIndex(bid.getTrump()));
    List<Integer> choices = new ArrayList<>(List.of(0, 1, 2, 3));
    String notrump = game.rules().getOrDefault("notrump", "none");
    if (notrump.equals("high") || notrump.equals("high-low")) choices.add(HIGH);
    if (notrump.equals("high-low")) choices.add(LOW);
    return choices;
  }

  /**
   * Own tricks a special bid needs before its exchange (each card received counts as a trick), allowing one
   * loser; infinity: never bid it.
   */
  static double specialNeeds(BidKind kind, Game game) {
    int n = game.cardsEach();
    return switch (kind) {
      case BID_KIND_CALL3 -> n - 4;
      case BID_KIND_CALL2 -> n - 3;
      case BID_KIND_CALL1 -> n - 2;
      case BID_KIND_BEST -> n - 1 - (game.players() / game.teams() - 1);
      case BID_KIND_ALONE -> n - 1 - Integer.parseInt(game.rules().getOrDefault("alone_exchange_cards", "0"));
      case BID_KIND_MOON -> n; // no exchange and no loser allowed
      case BID_KIND_LITTLE_PEPPER -> n - partnerTricks(game);
      default -> Double.POSITIVE_INFINITY; // big pepper: doubling a bid nobody can count on
    };
  }

  /** The item of {@code items} with the highest score; ties broken by {@code rng}. */
  static <T> T best(List<T> items, ToDoubleFunction<T> score, Random rng) {
    double top = Double.NEGATIVE_INFINITY;
    List<T> tied = new ArrayList<>();
    for (T item : items) {
      double s = score.applyAsDouble(item);
      if (s > top) {
        top = s;
        tied.clear();
        tied.add(item);
      } else if (s == top) {
        tied.add(item);
      }
    }
    return tied.get(rng.nextInt(tied.size()));
  }

  /** The bids of {@code bids} at the first one's kind and level (legal_bids runs lowest first). */
  private static List<Bid> cheapest(List<Bid> bids) {
    Bid first = bids.get(0);
    return bids.stream().filter(b -> b.getKind() == first.getKind() && b.getLevel() == first.getLevel()).toList();
  }

  /**
   * BID: the cheapest bid the hand can make. A trick bid of level L is worth making when the hand (with the
   * partners' share) is good for L tricks in its trump; a special bid when the hand alone is good for what it
   * needs. With neither, pass (the stuck dealer, who may not pass, takes the cheapest bid).
   */
  static Bid chooseBid(DecisionRequest request, Game game) {
    List<Bid> legal = request.getLegalBidsList();
    List<String> hand = request.getHandList();
    ToDoubleFunction<Bid> alone =
        bid -> trumpsFor(bid, game).stream().mapToDouble(t -> handTricks(hand, t, game)).max().orElse(0);
    double help = partnerTricks(game);
    List<Bid> makeable = new ArrayList<>();
    for (Bid bid : legal) {
      switch (bid.getKind()) {
        case BID_KIND_PASS -> {}
        case BID_KIND_LEVEL -> {
          if (bid.getLevel() <= alone.applyAsDouble(bid) + help) makeable.add(bid);
        }
        default -> {
          if (specialNeeds(bid.getKind(), game) <= alone.applyAsDouble(bid)) makeable.add(bid);
        }
      }
    }
    if (!makeable.isEmpty()) return best(cheapest(makeable), alone, game.rng());
    for (Bid bid : legal) {
      if (bid.getKind() == BidKind.BID_KIND_PASS) return bid;
    }
    return best(cheapest(legal), alone, game.rng());
  }

  /** TRUMP: the legal trump the hand is strongest in. */
  static Trump chooseTrump(DecisionRequest request, Game game) {
    return best(
        request.getLegalTrumpsList(), t -> handTricks(request.getHandList(), trumpIndex(t), game), game.rng());
  }

  /** The hand's cards ordered from weakest to strongest under {@code trump} (duplicates kept). */
  static List<String> weakestFirst(List<String> hand, int trump) {
    List<String> order = new ArrayList<>(hand);
    order.sort(Comparator.comparingInt(card -> power(card, trump)));
    return order;
  }

  static int contractTrump(DecisionRequest request) {
    return request.hasContract() ? trumpIndex(request.getContract().getTrump()) : HIGH;
  }

  /**
   * GIVE: to the declarer (this seat is the partner of a lone bidder), the strongest cards; from the
   * declarer to its partner (an alone exchange), the weakest.
   */
  static List<String> chooseGive(DecisionRequest request) {
    List<String> order = weakestFirst(request.getHandList(), contractTrump(request));
    int count = request.getCount();
    boolean toDeclarer = request.hasContract() && request.getContract().getDeclarer() == request.getToSeat();
    return toDeclarer ? order.subList(order.size() - count, order.size()) : order.subList(0, count);
  }

  /** DISCARD: the weakest cards. */
  static List<String> chooseDiscard(DecisionRequest request) {
    return weakestFirst(request.getHandList(), contractTrump(request)).subList(0, request.getCount());
  }

  /**
   * PLAY: lead the strongest card; when following, play low if a partner is winning the trick, else the
   * cheapest card that takes the lead, else the weakest card.
   */
  static String choosePlay(DecisionRequest request, Game game) {
    int trump = contractTrump(request);
    List<String> legal = request.getLegalCardsList();
    List<Play> trick = request.getCurrentTrickList();
    ToDoubleFunction<String> weakness = card -> -power(card, trump);
    if (trick.isEmpty()) return best(legal, card -> power(card, trump), game.rng());
    List<String> played = trick.stream().map(Play::getCard).toList();
    Play winner = trick.get(winningIndex(played, trump));
    if (winner.getSeat() % game.teams() == game.seat() % game.teams()) return best(legal, weakness, game.rng());
    int led = effectiveSuit(played.get(0), trump);
    int toBeat = trickKey(winner.getCard(), led, trump);
    List<String> winners = legal.stream().filter(card -> trickKey(card, led, trump) > toBeat).toList();
    return best(winners.isEmpty() ? legal : winners, weakness, game.rng());
  }

  /** The answer to one DecisionRequest: the Action naming its request id, with the field its kind asks for. */
  static Action decide(DecisionRequest request, Game game) {
    Action.Builder action = Action.newBuilder().setRequestId(request.getRequestId());
    return switch (request.getKind()) {
      case DECISION_KIND_BID -> action.setBid(chooseBid(request, game)).build();
      case DECISION_KIND_TRUMP -> action.setTrump(chooseTrump(request, game)).build();
      case DECISION_KIND_GIVE -> action.setCards(CardList.newBuilder().addAllCards(chooseGive(request))).build();
      case DECISION_KIND_DISCARD ->
          action.setCards(CardList.newBuilder().addAllCards(chooseDiscard(request))).build();
      case DECISION_KIND_PLAY -> action.setCard(choosePlay(request, game)).build();
      default -> throw new IllegalArgumentException("unknown decision kind " + request.getKind());
    };
  }
}
