import bideuchre.v1.ArenaGrpc;
import bideuchre.v1.BotMessage;
import bideuchre.v1.DecisionRequest;
import bideuchre.v1.Hello;
import bideuchre.v1.RefereeMessage;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Bid Euchre arena bot in Java, written from proto/bideuchre/v1/arena.proto and docs/protocol.md alone.
 *
 * <p>The protocol classes are generated from the .proto file when the bot is built (protoc and the grpc-java
 * plugin; see README.md) and never kept in the repository. The referee starts the bot with ARENA_ADDRESS,
 * ARENA_TOKEN and ARENA_SEED in its environment. Debian's grpc-java (1.41, on Netty 4.1.48) cannot dial a
 * Unix socket: it has no resolver for {@code unix:} targets, and Debian's Netty ships the epoll transport
 * without its native library. So the bot is run with {@code --tcp NAME}, which gives it a TCP address, in
 * every command alike (NAME: the bot's folder, here java):
 *
 * <pre>
 *   arena check-bot --tcp java java=example_bots/java/build/bot
 *   arena match --tcp java --bot java=example_bots/java/build/bot --bot random='python -m example_bots.random_bot'
 * </pre>
 *
 * <p>The session: Hello first, then one Action per DecisionRequest, until Shutdown (exit 0). A fatal Error,
 * or a stream that ends without a Shutdown, is exit 1. The choices themselves are in Strategy.java.
 */
public final class Bot {
  /** The command the bot was started with: build/bot, the start script, passes its own path. */
  private static final String COMMAND = System.getProperty("bot.command", "build/bot");
  /** The bot's name: its folder's, the folder holding build/bot (as arena new names a bot). */
  private static final String BOT_NAME = folderName(COMMAND);
  private static final String BOT_VERSION = "1.0.0";
  private static final int PROTOCOL_VERSION = 1;

  /** What arrives on the stream, in order: a message, or its end (OK or not). */
  private sealed interface Incoming permits Message, End {}

  private record Message(RefereeMessage message) implements Incoming {}

  private record End(Status status) implements Incoming {}

  private Bot() {}

  static void say(String text) {
    System.err.println(BOT_NAME + ": " + text);
  }

  /** The name of the folder holding build/bot, for the command that started it. */
  static String folderName(String command) {
    Path build = Path.of(command).toAbsolutePath().normalize().getParent();
    Path folder = build == null ? null : build.getParent();
    return folder == null || folder.getFileName() == null ? "java" : folder.getFileName().toString();
  }

  /** A word as a POSIX shell reads it: as it is when it is plain, else in single quotes. */
  static String shellWord(String word) {
    return word.matches("[A-Za-z0-9_./=:@%+-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  /** ARENA_SEED mixed with the game id (FNV-1a): a game plays the same whichever games came before it. */
  static Random gameRng(long seed, String gameId) {
    long h = 0xcbf29ce484222325L ^ seed;
    for (byte b : gameId.getBytes(StandardCharsets.UTF_8)) h = (h ^ (b & 0xff)) * 0x100000001b3L;
    return new Random(h);
  }

  public static void main(String[] args) throws InterruptedException {
    System.exit(run());
  }

  static int run() throws InterruptedException {
    String address = System.getenv("ARENA_ADDRESS");
    String token = System.getenv("ARENA_TOKEN");
    if (address == null || address.isEmpty() || token == null || token.isEmpty()) {
      say("set ARENA_ADDRESS (the referee's gRPC target: host:port) and ARENA_TOKEN (the seat token);"
          + " `arena serve` prints both");
      return 2;
    }
    if (address.startsWith("unix:")) {
      say("Debian's grpc-java cannot dial a Unix socket (" + address + "): give this bot a TCP address with --tcp "
          + BOT_NAME + ", as in: arena check-bot --tcp " + BOT_NAME + " " + shellWord(BOT_NAME + "=" + COMMAND)
          + " (arena match, tournament, sprt and play take --tcp " + BOT_NAME + " too)");
      return 2;
    }
    String seedText = System.getenv("ARENA_SEED");
    long seed;
    try {
      seed = seedText == null ? new SecureRandom().nextLong() : Long.parseUnsignedLong(seedText);
    } catch (NumberFormatException e) {
      say("ARENA_SEED is not an integer from 0 to 2^63-1: " + seedText);
      return 2;
    }

    ManagedChannel channel = NettyChannelBuilder.forTarget(address).usePlaintext().build();
    try {
      return play(channel, address, token, seed);
    } finally {
      channel.shutdownNow();
    }
  }

  /** The session over one stream. gRPC calls back on its own threads; the calls are handled here in order. */
  static int play(ManagedChannel channel, String address, String token, long seed) throws InterruptedException {
    BlockingQueue<Incoming> inbox = new LinkedBlockingQueue<>();
    StreamObserver<BotMessage> out =
        ArenaGrpc.newStub(channel)
            .play(
                new StreamObserver<RefereeMessage>() {
                  @Override
                  public void onNext(RefereeMessage message) {
                    inbox.add(new Message(message));
                  }

                  @Override
                  public void onError(Throwable error) {
                    inbox.add(new End(Status.fromThrowable(error)));
                  }

                  @Override
                  public void onCompleted() {
                    inbox.add(new End(Status.OK));
                  }
                });
    out.onNext(
        BotMessage.newBuilder()
            .setHello(
                Hello.newBuilder()
                    .setToken(token)
                    .setBotName(BOT_NAME)
                    .setBotVersion(BOT_VERSION)
                    .setProtocolVersion(PROTOCOL_VERSION))
            .build());

    Strategy.Game game = null;
    Map<String, Integer> answered = new TreeMap<>(); // decisions answered, by kind, for the goodbye line
    while (true) {
      Incoming next = inbox.take();
      if (next instanceof End end) {
        if (end.status().isOk()) say("the referee closed the stream without a Shutdown");
        else say("the stream to " + address + " failed: " + end.status());
        return 1;
      }
      RefereeMessage message = ((Message) next).message();
      switch (message.getMessageCase()) {
        case WELCOME -> say("playing as " + message.getWelcome().getPlayer()
            + " (referee " + message.getWelcome().getRefereeVersion() + ")");
        case GAME_START -> {
          // Everything kept per game starts afresh here; the process may play another seat next game.
          var start = message.getGameStart();
          game = Strategy.Game.of(start, gameRng(seed, start.getGameId()));
        }
        case DECISION -> {
          DecisionRequest request = message.getDecision();
          if (game == null) {
            say("a request before any GameStart");
            return 1;
          }
          out.onNext(BotMessage.newBuilder().setAction(Strategy.decide(request, game)).build());
          answered.merge(request.getKind().name(), 1, Integer::sum);
        }
        case GAME_OVER -> game = null;
        case ERROR -> {
          var error = message.getError();
          say("referee error " + error.getCode() + " (request " + error.getRequestId() + "): "
              + error.getMessage());
          if (error.getFatal()) return 1;
        }
        case SHUTDOWN -> {
          say("shutdown (" + message.getShutdown().getReason() + "); answered " + answered);
          out.onCompleted(); // half-close our side; the referee then ends the stream with status OK
          Incoming end = inbox.poll(2, TimeUnit.SECONDS);
          if (!(end instanceof End e && e.status().isOk())) say("the stream did not end OK after the Shutdown: " + end);
          return 0;
        }
        default -> say("ignoring an unknown message " + message);
      }
    }
  }
}
