import java.nio.file.Path;

/**
 * A bot's first test: {@code arena check-bot} puts the built bot through every kind of decision on every
 * preset, a whole game of two hands, and the protocol's Hello, Error, restart and Shutdown ({@code --tcp
 * NAME}: see Bot.java). Run by {@code make test} as {@code java CheckBotTest.java}, which builds build/bot
 * first; ARENA names the arena command. Exit status 0 when every check passes.
 */
public final class CheckBotTest {
  public static void main(String[] args) throws Exception {
    String arena = System.getenv().getOrDefault("ARENA", "arena");
    String name = Path.of("").toAbsolutePath().getFileName().toString(); // the folder's name is the bot's
    String bot = name + "=build/bot"; // NAME=COMMAND, run from here
    Process check =
        new ProcessBuilder(arena, "check-bot", "--tcp", name, "--log-dir", "build/check-bot", bot).inheritIO().start();
    int status = check.waitFor();
    System.out.println(status == 0 ? "check-bot passed" : "check-bot FAILED (exit status " + status + ")");
    System.exit(status);
  }
}
